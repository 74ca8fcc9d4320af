// Set-up of the journeys of an API's pages (dashboard, customers, ledger), made through the console
// API as README's walk-through does: an owner signed in in the browser, an API with the payg
// preset, customers with keys and credit, and usage reported through POST /sdk/v1/usage with the
// SDK secret. The flow under test then goes through the pages.
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { createApi, createCustomer, createKey, fetchSnapshot, reportUsage, usageItem, type ApiFixture } from '../../../server/test/support/money.js';
import { signUp, type SignedUp } from '../../../server/test/support/flows.js';
import type { TestClient } from '../../../server/test/support/client.js';
import type { Locator, Page } from 'playwright-core';
import type { ConsoleFixture, ConsolePage } from './console-browser.js';

export interface MeteredApi extends ApiFixture {
  owner: SignedUp;
}

/**
 * An owner for a whole test file: one sign-up (password hashing is the dearest part of a journey
 * on a busy machine), whose session cookie signs in every browser context of the file.
 */
export async function fileOwner(f: ConsoleFixture): Promise<SignedUp> {
  return signUp(f.t, { name: 'Ada Owner' });
}

/** Puts a console API client's session cookie into a browser context: signed in without a login. */
export async function shareSession(f: ConsoleFixture, cp: ConsolePage, client: TestClient) {
  assert.ok(client.cookies.get('gh_session'), 'the client has a session');
  await cp.context.addCookies([...client.cookies].map(([name, value]) => ({ name, value, url: f.t.url })));
}

/** The file's owner signed in in this browser context, with a new API of the payg preset. */
export async function ownerWithApi(f: ConsoleFixture, cp: ConsolePage, owner: SignedUp, name = 'Weather API'): Promise<MeteredApi> {
  await shareSession(f, cp, owner.client);
  return (await createApi(f.t, { name, preset: 'payg' }, owner)) as MeteredApi;
}

export interface Customer {
  id: string;
  name: string;
  keyId: string;
}

/** A customer added by hand, with a key (so usage can be reported for it). */
export async function customerWithKey(f: ConsoleFixture, api: MeteredApi, name: string, email?: string): Promise<Customer> {
  const customer = await createCustomer(f.t, api, name, email);
  const key = await createKey(api, customer.id);
  return { id: customer.id, name, keyId: key.id };
}

/** Credit (or a debit, negative) by the owner through the console API; answers the new balance. */
export async function creditThroughApi(api: MeteredApi, customerId: string, amountMicro: number, note: string, ref?: string): Promise<number> {
  const answer = await api.owner.client.post(`/apis/${api.apiId}/customers/${customerId}/credit`, { amount_micro: amountMicro, note, ...(ref ? { ref } : {}) });
  assert.equal(answer.status, 200, answer.text);
  return answer.body.balance_micro;
}

/**
 * Requests answered with `status`, reported by the SDK: the snapshot names the customer's usage
 * policy, the items go to POST /sdk/v1/usage, and every item must be accepted.
 */
export async function reportRequests(api: MeteredApi, customer: Customer, requests: { status: number; count: number; at: Date }[]) {
  const snapshot = await fetchSnapshot(api);
  const policy = snapshot.customers.find((c) => c.id === customer.id)?.usage_policy_id ?? null;
  assert.ok(policy, `the snapshot holds ${customer.name}`);
  await reportUsage(api, requests.map((r) => usageItem(customer.keyId, policy, r.status, r.count, r.at)));
}

/** A console API read as the owner; fails unless it answers 200. */
export async function readApi<T = any>(api: MeteredApi, path: string): Promise<T> {
  const answer = await api.owner.client.get(path);
  assert.equal(answer.status, 200, `${path}: ${answer.text}`);
  return answer.body as T;
}

export const DAY_MS = 86_400_000;

/** The cells' text of each body row of a table, top to bottom. */
export async function rowsOf(table: Locator): Promise<string[][]> {
  // Read in one step in the page: counting rows and then reading each one races a list that
  // re-renders in between (a row counted, then gone, would be waited for until the timeout).
  return table.locator('tbody tr').evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));
}

/** An attribute of each element a locator finds, in order. */
export async function attributesOf(locator: Locator, name: string): Promise<(string | null)[]> {
  // In one step in the page, for the same reason as rowsOf.
  return locator.evaluateAll((elements, attribute) => elements.map((element) => element.getAttribute(attribute)), name);
}

/** Confirms the open native dialog with its button named `name`. */
export async function confirmDialog(page: Page, name: string) {
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await dialog.getByRole('button', { name, exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** Waits until `read` answers `expected` (deep-equal), for what a page shows after it asks again. */
export async function eventually<T>(read: () => Promise<T>, expected: T, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!isDeepStrictEqual(last, expected)) {
    if (Date.now() > deadline) assert.deepEqual(last, expected, what);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
}
