// A customer's page in Chromium (issue 21): credit and debit with a reference applied once, a
// refusal landing on its field, keys made and revoked, limits, plan, notes, approve, refuse,
// suspend, reactivate, remove, the test customer and what a viewer sees. The set-up goes through
// the API; what the page shows is compared with what the API answers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPendingCustomer, fetchSnapshot, sha256 } from '../../server/test/support/money.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { formatMicro } from '../src/format/money.js';
import { apiRequestsOnOpen, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { confirmDialog, customerWithKey, eventually, fileOwner, ownerWithApi, readApi, reportRequests, shareSession } from './support/metered-api.js';
import type { SignedUp } from '../../server/test/support/flows.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

test("a customer's page: credit and debit with a reference applied once, a refusal on its field, keys, limits, plan, notes, suspension", { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const api = await ownerWithApi(f, cp, owner, 'Detail API');
  const acme = await customerWithKey(f, api, 'Acme Corp', 'billing@acme.test');
  await reportRequests(api, acme, [{ status: 200, count: 3, at: f.t.clock.now() }]);
  const path = `/apis/${api.apiId}/customers/${acme.id}`;
  const detail = () => readApi(api, path);
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open of a customer's page: ${requests.length}: ${requests.join(', ')}`);
  assert.ok(requests.length <= 3, requests.join(', '));
  await page.getByRole('heading', { level: 1, name: 'Acme Corp' }).waitFor();
  let before = await detail();
  assert.equal(before.balance_micro, 997_000, 'welcome credit less three requests at 0.001');
  assert.equal(await page.getByTestId('customer-balance').textContent(), formatMicro(before.balance_micro));
  assert.equal(await page.getByTestId('customer-month-requests').textContent(), '3');
  assert.equal(await page.getByRole('link', { name: 'See ledger' }).getAttribute('href'), `/apis/${api.apiId}/ledger?customer_id=${acme.id}`);
  await shotAndCheck(f, page, '9-customer');

  // Credit 2.5 with the reference the form made, then the same reference again: applied once.
  const ref = await page.getByLabel('Reference').inputValue();
  assert.match(ref, /^console-[0-9a-z]{20}$/);
  await page.getByLabel('Amount').fill('2.5');
  await page.getByLabel('Note', { exact: true }).fill('Prepaid for December');
  await page.getByRole('button', { name: 'Add credit' }).click();
  await page.getByText(`Credited 2.50. The balance is now ${formatMicro(before.balance_micro + 2_500_000)}.`).waitFor();
  assert.equal((await detail()).balance_micro, before.balance_micro + 2_500_000);
  await eventually(() => page.getByTestId('customer-balance').textContent(), formatMicro(before.balance_micro + 2_500_000), 'the balance on the page');
  assert.notEqual(await page.getByLabel('Reference').inputValue(), ref, 'a fresh reference for the next credit');
  await page.getByLabel('Amount').fill('2.5');
  await page.getByLabel('Note', { exact: true }).fill('Prepaid for December');
  await page.getByLabel('Reference').fill(ref);
  await page.getByRole('button', { name: 'Add credit' }).click();
  await page.getByText(`Already applied: the reference ${ref} was used before, so nothing changed.`).waitFor();
  assert.equal((await detail()).balance_micro, before.balance_micro + 2_500_000, 'the repeat changed nothing');
  await shotAndCheck(f, page, '10-already-applied');
  assert.notEqual(await page.getByLabel('Reference').inputValue(), ref, 'the next credit gets a fresh reference too');

  // A debit: the sign comes from the choice, the amount exact to the micro unit.
  await page.getByLabel('Debit: take from the balance').check();
  await page.getByLabel('Amount').fill('0.750001');
  await page.getByLabel('Note', { exact: true }).fill('Refund of a failed call');
  await page.getByRole('button', { name: 'Debit balance' }).click();
  await page.getByText(/^Debited 0\.750001\./).waitFor();
  assert.equal((await detail()).balance_micro, before.balance_micro + 2_500_000 - 750_001);
  const entries = (await readApi(api, `/apis/${api.apiId}/ledger?customer_id=${acme.id}&kind=credit`)).entries;
  assert.deepEqual(entries.map((e: { amount_micro: number; ref?: string }) => [e.amount_micro, e.ref === ref]), [[-750_001, false], [2_500_000, true]]);

  // An empty note: the API's 422 lands on the Note field and nothing changes.
  before = await detail();
  await page.getByLabel('Credit: add to the balance').check();
  await page.getByLabel('Amount').fill('1');
  await page.getByLabel('Note', { exact: true }).fill('');
  await page.getByRole('button', { name: 'Add credit' }).click();
  await page.locator('input[name=note][aria-invalid=true]').waitFor();
  assert.ok(await page.locator('.credit-form .field-error').first().isVisible());
  assert.equal((await detail()).balance_micro, before.balance_micro);
  await shotAndCheck(f, page, '11-credit-refused');

  // A key: shown once, found by its hash in the SDK snapshot; then revoked after confirming.
  await page.getByLabel("New key's name").fill('production');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secret = (await page.getByTestId('new-key').textContent()) ?? '';
  assert.match(secret, /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/);
  const made = (await detail()).keys.find((k: { name: string }) => k.name === 'production');
  assert.ok(made, 'the API lists the key');
  assert.ok((await fetchSnapshot(api)).keys.some((k) => k.id === made.id && k.key_hash === sha256(secret)), 'the key shown is the key stored');
  await shotAndCheck(f, page, '12-key-shown-once');
  await page.getByRole('button', { name: 'Revoke production' }).click();
  await confirmDialog(page, 'Revoke key');
  await page.getByRole('button', { name: 'Revoke production' }).waitFor({ state: 'detached' });
  assert.equal((await detail()).keys.some((k: { id: string }) => k.id === made.id), false);

  // Custom limits: a rate of 5 is custom; a rate past the bound is refused on its field.
  await page.getByLabel('Requests per second').fill('5');
  await page.getByRole('button', { name: 'Save custom limits' }).click();
  await page.getByText('Custom limits saved.').waitFor();
  const limited = await detail();
  assert.deepEqual(limited.custom, { monthly_quota: null, price_per_request_micro: null, rps: 5 });
  assert.equal(limited.effective.source, 'custom');
  const rate = page.getByTestId('effective-limits').getByRole('row', { name: /Rate/ });
  await eventually(async () => (await rate.locator('td').allTextContents()).join(' | '), '5 per second | Custom limit', 'the rate in force');
  assert.equal((await page.getByTestId('effective-limits').getByRole('row', { name: /Price/ }).locator('td').allTextContents()).join(' | '), '0.001 per request | API default');
  await page.getByLabel('Requests per second').fill('100001');
  await page.getByRole('button', { name: 'Save custom limits' }).click();
  await page.locator('input[name=rps][aria-invalid=true]').waitFor();
  assert.equal((await detail()).custom.rps, 5);

  // A plan by hand: the plans are asked for only when the control opens.
  const plan = await api.owner.client.post(`/apis/${api.apiId}/plans`, { name: 'Pro', price_monthly_cents: 2900, monthly_quota: 50_000 });
  assert.equal(plan.status, 200, plan.text);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) asked.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  await page.getByRole('button', { name: 'Change plan' }).click();
  await page.getByLabel('Plan to assign').selectOption({ label: 'Pro ($29.00 a month)' });
  assert.deepEqual(asked, [`GET /api/apis/${api.apiId}/plans`]);
  await page.getByRole('button', { name: 'Save plan' }).click();
  await eventually(() => page.getByTestId('plan').textContent(), 'Pro, assigned by hand.', 'the plan');
  const planned = await detail();
  assert.equal(planned.plan_id, plan.body.id);
  assert.equal(planned.plan_source, 'manual');
  assert.equal((await page.getByTestId('effective-limits').getByRole('row', { name: /Monthly quota/ }).locator('td').allTextContents()).join(' | '), '50,000 a month | Plan Pro');

  // Notes.
  await page.getByLabel('Notes for your team').fill('Pays by invoice; call Dana before suspending.');
  await page.getByRole('button', { name: 'Save notes' }).click();
  await page.getByText('Notes saved.').waitFor();
  assert.equal((await detail()).notes, 'Pays by invoice; call Dana before suspending.');

  // Suspend (confirmed) and reactivate.
  await page.getByRole('button', { name: 'Suspend' }).click();
  await confirmDialog(page, 'Suspend');
  await page.getByRole('button', { name: 'Reactivate' }).waitFor();
  assert.equal((await detail()).status, 'suspended');
  assert.equal(await page.locator('.badge.suspended').first().textContent(), 'suspended');
  await shotAndCheck(f, page, '13-suspended');
  await page.getByRole('button', { name: 'Reactivate' }).click();
  await page.getByRole('button', { name: 'Suspend' }).waitFor();
  assert.equal((await detail()).status, 'active');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('approve and refuse pending customers, the test customer, removing by deletion or archive, and what a viewer sees', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const api = await ownerWithApi(f, cp, owner, 'Standing API');
  const base = `/apis/${api.apiId}/customers`;
  const status = async (id: string) => (await readApi(api, `${base}/${id}`)).status;

  const first = await createPendingCustomer(f.t, api, 'Waiting One', 'one@waiting.test');
  await page.goto(`${base}/${first.id}`);
  await page.getByText('pending approval').first().waitFor();
  await shotAndCheck(f, page, '14-pending');
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByRole('button', { name: 'Suspend' }).waitFor();
  assert.equal(await status(first.id), 'active');

  const second = await createPendingCustomer(f.t, api, 'Waiting Two', 'two@waiting.test');
  await page.goto(`${base}/${second.id}`);
  await page.getByRole('button', { name: 'Refuse' }).click();
  await confirmDialog(page, 'Refuse');
  await page.getByRole('button', { name: 'Reactivate' }).waitFor();
  assert.equal(await status(second.id), 'suspended');
  assert.match((await f.t.mail.waitFor('two@waiting.test')).subject, /./, 'the refused sign-up is told');

  // The test customer is labelled and can be neither suspended nor removed.
  const testKey = await api.owner.client.post(`/apis/${api.apiId}/test-key`);
  assert.equal(testKey.status, 200, testKey.text);
  await page.goto(`${base}/${testKey.body.customer_id}`);
  await page.getByText('test customer', { exact: true }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Suspend' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Remove customer' }).count(), 0);
  await shotAndCheck(f, page, '15-test-customer');

  // Nothing on record: deleted, and the page goes back to the list.
  const temp = await api.owner.client.post(`/apis/${api.apiId}/customers`, { name: 'Temporary', email: 'temp@nowhere.test' });
  await page.goto(`${base}/${temp.body.id}`);
  await page.getByRole('button', { name: 'Remove customer' }).click();
  await confirmDialog(page, 'Remove customer');
  await page.waitForURL(`**${base}`);
  assert.equal((await api.owner.client.get(`${base}/${temp.body.id}`)).status, 404);

  // Keys on record: archived, read-only from then on.
  const keyed = await customerWithKey(f, api, 'Keyed Co');
  await page.goto(`${base}/${keyed.id}`);
  await page.getByRole('button', { name: 'Remove customer' }).click();
  await confirmDialog(page, 'Remove customer');
  await page.getByText('archived', { exact: true }).waitFor();
  assert.ok((await readApi(api, `${base}/${keyed.id}`)).archived_at);
  assert.equal(await page.getByRole('button', { name: 'Add credit' }).count(), 0, 'an archived customer is read-only');
  await shotAndCheck(f, page, '16-archived');
  await page.goto(`${base}/cus_nosuchcustomer0000`);
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Customer');
  await shotAndCheck(f, page, '18-not-found');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();

  // A viewer reads the page and sees no control it cannot use.
  const viewer = await addMember(f.t, api.owner.client, api.owner.workspaceId, 'viewer');
  const vp = await newConsolePage(f);
  await shareSession(f, vp, viewer.client);
  await vp.page.goto(`${base}/${first.id}`);
  await vp.page.getByRole('heading', { level: 1, name: 'Waiting One' }).waitFor();
  await vp.page.getByTestId('effective-limits').waitFor();
  for (const name of ['Add credit', 'Create key', 'Suspend', 'Remove customer', 'Change plan', 'Save notes', 'Save custom limits']) {
    assert.equal(await vp.page.getByRole('button', { name }).count(), 0, `a viewer has no "${name}"`);
  }
  assert.equal(await vp.page.getByTestId('customer-balance').textContent(), formatMicro((await readApi(api, `${base}/${first.id}`)).balance_micro));
  await shotAndCheck(f, vp.page, '17-viewer');
  await vp.page.goto(base);
  await vp.page.getByTestId('customers').waitFor();
  assert.equal(await vp.page.getByRole('button', { name: 'Add customer' }).count(), 0);
  assert.deepEqual(vp.problems, []);
  await vp.context.close();
});
