// Helpers of the portal's payment tests (issue 13 on the portal): the development provider's test
// checkout clicked as a browser would, customers' teams, and connecting the owner's account.
import assert from 'node:assert/strict';
import type { CustomerRole } from '../../src/customers/tables.js';
import type { TestClient } from './client.js';
import type { IssuerFixture } from './issuer.js';
import { expectPage, freshEmail } from './pages.js';
import { customerIdOf, portalVisitor, teamPageOf } from './portal.js';
import { startPersonSession } from './signin.js';
import { TenantBrowser, type Page } from './tenant-client.js';

/** Connects the API to the development provider, as its owner does in the console. */
export async function connectDevPayments(f: IssuerFixture): Promise<void> {
  const connected = await f.owner.client.post(`/apis/${f.apiId}/payments/connect`);
  assert.equal(connected.status, 200, connected.text);
  assert.equal((await f.owner.client.get(`/apis/${f.apiId}/payments`)).body.charges_enabled, true);
}

/**
 * Where a portal form that starts a checkout sent the browser: the development provider's test
 * page, on the service's own host.
 */
export function checkoutUrlOf(f: IssuerFixture, answer: Page): string {
  assert.ok(answer.leftTo, `the form redirected to the checkout page (got ${answer.status} ${answer.html.slice(0, 300)})`);
  assert.equal(answer.leftTo.origin, f.t.url, 'the test checkout is on the service');
  assert.match(answer.leftTo.pathname, /^\/dev\/payments\/checkout\/cs_dev_/);
  return answer.leftTo.href;
}

/**
 * Opens one of the development provider's test pages (checkout, invoice) with its own cookies, as
 * the provider's pages have, and posts its form with `fields`; answers where it sends the browser.
 */
export async function submitDevTestPage(url: string, fields: Record<string, string> = {}): Promise<{ status: number; location: string | null; page: string }> {
  const page = await fetch(url);
  assert.equal(page.status, 200);
  const body = await page.text();
  assert.match(body, /TEST PAGE/);
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="csrf" value="([^"]+)"/.exec(body)![1]!;
  const posted = await fetch(url, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, ...fields }).toString() });
  return { status: posted.status, location: posted.headers.get('location'), page: body };
}

/** Clicks the test checkout's button of `outcome` (pay, fail, save, save_declining, pay_declining). */
export const clickDevCheckout = (url: string, outcome: string) => submitDevTestPage(url, { outcome });

/** A person signed in to the portal as the owner of a customer of their own. */
export async function customerOwner(f: IssuerFixture, name = 'Bea Billing') {
  const visitor = await portalVisitor(f, { name });
  return { ...visitor, customerId: await customerIdOf(f, f.apiId, visitor.person.id) };
}

/** A teammate `inviter` invited on the team page with `role`, signed in and landed in the customer. */
export async function teammateOf(f: IssuerFixture, inviter: Awaited<ReturnType<typeof customerOwner>>, role: CustomerRole, name = `${role} Mate`) {
  const email = freshEmail(role);
  f.t.mail.take(email);
  const sent = await inviter.browser.submit(await teamPageOf(inviter.browser), 'send-invitation', { email, role });
  assert.match(sent.html, /Invitation sent\./);
  const link = /(http:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(email, /You are invited to/)).text)![1]!;
  const visitor = await portalVisitor(f, { email, name });
  expectPage(await visitor.browser.get(link), new RegExp(`^${inviter.person.name}$`));
  return visitor;
}

/** The cells of each row of a table's body, tags stripped. */
export function rowsOf(html: string, tableId: string): string[][] {
  const body = new RegExp(`<table id="${tableId}">[\\s\\S]*?<tbody>([\\s\\S]*?)</tbody>`).exec(html)?.[1] ?? '';
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) => [...row[1]!.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/g)].map((cell) => cell[1]!.replace(/<[^>]+>/g, '').trim()));
}

/** The text of an element with this id (tags stripped, entities as the page wrote them). */
export function textById(html: string, id: string): string | null {
  const match = new RegExp(`id="${id}"[^>]*>([\\s\\S]*?)</`).exec(html);
  return match ? match[1]!.replace(/<[^>]+>/g, '').trim() : null;
}

/**
 * The same person signed in again with a new browser: after a test moves the clock by a month,
 * the sessions it started before have ended, as they would for a real visitor.
 */
export async function signInAgain(f: IssuerFixture, personId: string): Promise<TenantBrowser> {
  const session = await startPersonSession(f.t, f.apiId, personId);
  const browser = new TenantBrowser(f.issuer);
  browser.cookies.set('gh_ps', session.token);
  assert.equal((await browser.get('/')).status, 200);
  return browser;
}

/**
 * The owner's console through a workspace key: unlike a console session it does not end when a
 * test moves the clock by a month.
 */
export async function ownerKeyClient(f: IssuerFixture): Promise<TestClient> {
  const made = await f.owner.client.post(`/workspaces/${f.owner.workspaceId}/keys`, { name: 'payments tests', role: 'admin' });
  assert.equal(made.status, 200, made.text);
  const client = f.t.client();
  client.bearer = made.body.key;
  return client;
}

/**
 * Waits until every queued mail has been handed to the test's SMTP server (which files it before
 * it answers), so a test can count mails, including the ones that must not be there.
 */
export async function mailSettled(f: IssuerFixture): Promise<void> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const row = await f.t.services.db.selectFrom('mail_outbox').select((eb) => eb.fn.countAll<string>().as('n')).where('sent_at', 'is', null).executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    f.t.services.outbox.kick();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.fail('mail was still queued after 10 seconds');
}

/**
 * Presses a refund or dispute button (`refund`, `refund_half`, `dispute`, `dispute_won`,
 * `dispute_lost`) on a payment's test page (its receipt or invoice page), as the owner would in the
 * provider's dashboard.
 */
export async function devPaymentAction(t: { url: string }, pageUrl: string, action: string, options: { expectButton?: boolean } = {}) {
  const page = await fetch(pageUrl);
  assert.equal(page.status, 200);
  const body = await page.text();
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (options.expectButton ?? true) assert.match(body, new RegExp(`data-action="${action}"`), `the page offers ${action}`);
  const csrf = /name="csrf" value="([^"]+)"/.exec(body)?.[1] ?? '';
  const id = pageUrl.split('/').pop()!;
  const posted = await fetch(`${t.url}/dev/payments/payments/${id}`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, action }).toString() });
  return { status: posted.status, location: posted.headers.get('location') };
}
