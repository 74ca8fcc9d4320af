// Auto-recharge on the portal (issue 13 item 5) over HTTP, with the development provider: a card
// saved on the test page, threshold and amount set within their bounds (each tried on both
// sides), the job charging once when the balance is below the threshold and not at it, one charge
// in flight per customer, none within the 10-minute cool-down and one right after it; a declined
// charge pauses auto-recharge, mails the customer's owners and admins once, and stays paused until
// they act. After every test, every customer's balance is the sum of its ledger entries.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { AUTO_RECHARGE_COOLDOWN_MS } from '../../src/payments/auto-recharge.js';
import type { TestClient } from '../support/client.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { assertBalancesMatchLedger } from '../support/payments.js';
import { checkoutUrlOf, clickDevCheckout, connectDevPayments, customerOwner, ownerKeyClient, signInAgain, teammateOf, textById } from '../support/portal-payments.js';
import type { TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
let owner: TestClient;
before(async () => {
  f = await startIssuer('Recharge API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', auto_recharge_allowed: true, min_topup_cents: 500, topup_amounts_cents: [1000] })).status, 200);
  await connectDevPayments(f);
  // The clock moves past cool-downs here: the owner reads through a workspace key.
  owner = await ownerKeyClient(f);
});
afterEach(() => assertBalancesMatchLedger(f.t));
after(() => f.t.close());

const billing = async (browser: TenantBrowser) => expectPage(await browser.get('/billing'), /^Billing$/);
const detailOf = async (customerId: string) => (await owner.get(`/apis/${f.apiId}/customers/${customerId}`)).body;
const recharges = async (customerId: string) =>
  (await owner.get(`/apis/${f.apiId}/ledger?customer_id=${customerId}`)).body.entries.filter((e: { kind: string }) => e.kind === 'auto_recharge') as { ref: string; amount_micro: number }[];
const chargeDue = () => f.t.services.payments.autoRecharge.chargeDue();

/** When the customer's last automatic charge started (the cool-down runs from it), in ms. */
async function lastChargeOf(customerId: string): Promise<number> {
  const row = await f.t.services.db.selectFrom('customers').select('auto_recharge_last_at').where('id', '=', customerId).executeTakeFirstOrThrow();
  return row.auto_recharge_last_at!.getTime();
}
const moveClockTo = (ms: number) => f.t.clock.advance(ms - f.t.clock.now().getTime());

/** Moves the balance to exactly `micro` with a console credit. */
async function setBalance(customerId: string, micro: number) {
  const delta = micro - ((await detailOf(customerId)).balance_micro as number);
  if (delta === 0) return;
  const credited = await owner.post(`/apis/${f.apiId}/customers/${customerId}/credit`, { amount_micro: delta, note: 'test balance' });
  assert.equal(credited.status, 200, credited.text);
}

/** Saves a card on the test page (`save`, or `save_declining` for one that declines later). */
async function saveCard(browser: TenantBrowser, outcome: 'save' | 'save_declining' = 'save') {
  const checkout = checkoutUrlOf(f, await browser.submit(await billing(browser), 'save-card'));
  const saved = await clickDevCheckout(checkout, outcome);
  assert.equal(saved.status, 303);
  return expectPage(await browser.get(saved.location!), /^Billing$/);
}

const settings = async (browser: TenantBrowser, values: { enabled: boolean; threshold: string; amount: string }) =>
  browser.submit(await billing(browser), 'auto-recharge-save', { enabled: values.enabled ? 'on' : '', threshold: values.threshold, amount: values.amount });

test('a card first, then the settings: turning on without a card is refused; with one it is on and the console shows it', async () => {
  const o = await customerOwner(f, 'Cara Card');
  const page = await billing(o.browser);
  assert.equal(textById(page.html, 'auto-recharge-state'), 'Off.');
  assert.match(textById(page.html, 'card-state') ?? '', /No card saved yet/);
  const refused = await settings(o.browser, { enabled: true, threshold: '5.00', amount: '10.00' });
  assert.equal(refused.status, 409);
  assert.match(refused.html, /Save a card first/);
  assert.equal((await detailOf(o.customerId)).auto_recharge.enabled, false);

  const back = await saveCard(o.browser);
  assert.equal(textById(back.html, 'billing-notice'), 'Your card is saved.');
  assert.match(textById(back.html, 'card-state') ?? '', /A card is saved/);
  const on = expectPage(await settings(o.browser, { enabled: true, threshold: '5.00', amount: '10.00' }), /^Billing$/);
  assert.equal(textById(on.html, 'billing-notice'), 'Automatic top-ups are on.');
  assert.equal(textById(on.html, 'auto-recharge-state'), 'On: when the balance falls below 5.00, the saved card is charged $10.00.');
  assert.deepEqual((await detailOf(o.customerId)).auto_recharge, { enabled: true, threshold_micro: 5_000_000, amount_cents: 1000, has_card: true });
});

test('bounds: a threshold of 0.00 to 10,000.00 and an amount of $5.00 (the minimum top-up) to $1,000.00; past either end a 400 that changes nothing', async () => {
  const o = await customerOwner(f, 'Bo Bounds');
  await saveCard(o.browser);
  for (const [threshold, amount] of [['0', '5.00'], ['10,000.00', '1,000.00'], ['10000', '1000'], ['0.000001', '5']] as const) {
    const saved = await settings(o.browser, { enabled: true, threshold, amount });
    assert.equal(saved.status, 200, `${threshold} / ${amount}: ${saved.html.slice(0, 200)}`);
  }
  assert.deepEqual((await detailOf(o.customerId)).auto_recharge, { enabled: true, threshold_micro: 1, amount_cents: 500, has_card: true });
  for (const [threshold, amount, message] of [
    ['10,000.000001', '10.00', /Enter a balance from 0\.00 to 10,000\.00/], ['-1', '10.00', /Enter a balance/], ['five', '10.00', /Enter a balance/], ['1.0000001', '10.00', /Enter a balance/],
    ['5.00', '4.99', /Enter an amount from \$5\.00 to \$1,000\.00/], ['5.00', '1,000.01', /Enter an amount/], ['5.00', '', /Enter an amount/],
  ] as const) {
    const refused = await settings(o.browser, { enabled: true, threshold, amount });
    assert.equal(refused.status, 400, `${threshold} / ${amount}`);
    assert.match(refused.html, message);
  }
  assert.deepEqual((await detailOf(o.customerId)).auto_recharge, { enabled: true, threshold_micro: 1, amount_cents: 500, has_card: true }, 'unchanged');
  const off = expectPage(await settings(o.browser, { enabled: false, threshold: '5', amount: '5' }), /^Billing$/);
  assert.equal(textById(off.html, 'auto-recharge-state'), 'Off.');
});

test('the job: at the threshold nothing; one micro unit below, one charge of the amount, with its receipt; none again within the cool-down, one just after it', async () => {
  const o = await customerOwner(f, 'Jo Job');
  await saveCard(o.browser);
  await settings(o.browser, { enabled: true, threshold: '5.00', amount: '10.00' });
  await setBalance(o.customerId, 5_000_000);
  await chargeDue();
  assert.deepEqual(await recharges(o.customerId), [], 'at the threshold: no charge');
  await setBalance(o.customerId, 4_999_999);
  await chargeDue();
  const first = await recharges(o.customerId);
  assert.equal(first.length, 1);
  assert.match(first[0]!.ref, /^pi_dev_/);
  assert.equal(first[0]!.amount_micro, 10_000_000);
  assert.equal((await detailOf(o.customerId)).balance_micro, 14_999_999);
  // The receipt of an automatic top-up goes to the customer's owners and admins.
  const receipt = await f.t.mail.waitFor(o.person.email, /Your receipt from Recharge API: \$10\.00/);
  assert.match(receipt.text, /automatic top-up of \$10\.00/);
  await chargeDue();
  assert.equal((await recharges(o.customerId)).length, 1, 'above the threshold again: nothing');

  // Usage faster than the amount: below again at once; the cool-down holds the next charge back.
  // (The test clock runs with real time, so the "before" side keeps a margin a slow machine cannot eat.)
  await setBalance(o.customerId, 1_000_000);
  const lastAt = await lastChargeOf(o.customerId);
  moveClockTo(lastAt + AUTO_RECHARGE_COOLDOWN_MS - 30_000);
  await chargeDue();
  assert.equal((await recharges(o.customerId)).length, 1, 'within the cool-down: no charge');
  moveClockTo(lastAt + AUTO_RECHARGE_COOLDOWN_MS + 1);
  await chargeDue();
  assert.equal((await recharges(o.customerId)).length, 2, 'after the cool-down: the next charge');
  assert.equal((await detailOf(o.customerId)).balance_micro, 11_000_000);
});

test('one charge in flight per customer: two runs of the job at once charge once', async () => {
  const o = await customerOwner(f, 'Tia Twice');
  await saveCard(o.browser);
  await settings(o.browser, { enabled: true, threshold: '5.00', amount: '25.00' });
  await setBalance(o.customerId, 0);
  const runs = await Promise.all([chargeDue(), chargeDue(), chargeDue()]);
  assert.equal(runs.reduce((sum, run) => sum + run.charged, 0), 1, JSON.stringify(runs));
  assert.equal((await recharges(o.customerId)).length, 1);
  assert.equal((await detailOf(o.customerId)).balance_micro, 25_000_000);
});

test('a declined charge pauses auto-recharge and mails the owners and admins once; nothing is charged until they act', async () => {
  const o = await customerOwner(f, 'Dan Declined');
  const admin = await teammateOf(f, o, 'admin');
  const member = await teammateOf(f, o, 'member');
  await saveCard(o.browser, 'save_declining');
  await settings(o.browser, { enabled: true, threshold: '5.00', amount: '10.00' });
  await setBalance(o.customerId, 1_000_000);
  const failedMails = (to: string) => f.t.mail.received.filter((m) => m.to === to.toLowerCase() && /automatic top-up of Dan Declined .* failed/.test(m.subject));
  const run = await chargeDue();
  assert.deepEqual(run, { charged: 0, failed: 1 });
  const detail = await detailOf(o.customerId);
  assert.ok(detail.auto_recharge.failed_at, 'failed_at is set');
  assert.equal(detail.balance_micro, 1_000_000);
  for (const who of [o.person.email, admin.person.email]) await f.t.mail.waitFor(who, /failed/);
  assert.match(failedMails(o.person.email)[0]!.text, /paused until you save a card again or turn them back on/);

  // Paused: the job leaves the customer alone, even after the cool-down.
  f.t.clock.advance(AUTO_RECHARGE_COOLDOWN_MS + 1000);
  assert.deepEqual(await chargeDue(), { charged: 0, failed: 0 });
  assert.deepEqual([failedMails(o.person.email).length, failedMails(admin.person.email).length, failedMails(member.person.email).length], [1, 1, 0], 'once, to owners and admins only');
  assert.deepEqual(await recharges(o.customerId), []);

  // Acting: a card that works clears the pause, and the next run charges it.
  const browser = await signInAgain(f, o.person.id);
  assert.match(textById((await billing(browser)).html, 'auto-recharge-failed') ?? '', /automatic top-ups are paused/);
  await saveCard(browser);
  assert.equal((await detailOf(o.customerId)).auto_recharge.failed_at, undefined);
  assert.equal((await chargeDue()).charged, 1);
  assert.equal((await recharges(o.customerId)).length, 1);
});

test('members read the settings but change nothing (403); an API without auto-recharge shows no section and refuses the post', async () => {
  const o = await customerOwner(f, 'Meg Member');
  const member = await teammateOf(f, o, 'member');
  const page = await billing(member.browser);
  assert.equal(textById(page.html, 'auto-recharge-state'), 'Off.');
  assert.doesNotMatch(page.html, /action="\/billing\/(card|auto-recharge)"/);
  const csrf = member.browser.cookies.get('gh_csrf')!;
  for (const path of ['/billing/card', '/billing/auto-recharge']) {
    assert.equal((await member.browser.request('POST', path, { csrf, enabled: 'on', threshold: '5', amount: '10' })).status, 403, path);
  }
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { auto_recharge_allowed: false })).status, 200);
  try {
    const without = await billing(o.browser);
    assert.doesNotMatch(without.html, /Automatic top-ups/);
    const refused = await o.browser.request('POST', '/billing/auto-recharge', { csrf: o.browser.cookies.get('gh_csrf')!, enabled: '', threshold: '5', amount: '10' });
    assert.equal(refused.status, 409);
    assert.equal((await o.browser.request('POST', '/billing/card', { csrf: o.browser.cookies.get('gh_csrf')! })).status, 409);
  } finally {
    assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { auto_recharge_allowed: true })).status, 200);
  }
});

test("while the owner's account cannot take charges nothing is charged, paused or mailed; connected again, the next run charges", async () => {
  const o = await customerOwner(f, 'Nell Notready');
  await saveCard(o.browser);
  await settings(o.browser, { enabled: true, threshold: '5.00', amount: '10.00' });
  await setBalance(o.customerId, 1_000_000);
  assert.equal((await owner.delete(`/apis/${f.apiId}/payments`)).status, 204);
  try {
    assert.deepEqual(await chargeDue(), { charged: 0, failed: 0 });
    const detail = await detailOf(o.customerId);
    assert.equal(detail.auto_recharge.failed_at, undefined, 'not paused: nothing the customer can act on');
    assert.deepEqual(await recharges(o.customerId), []);
  } finally {
    assert.equal((await owner.post(`/apis/${f.apiId}/payments/connect`)).status, 200);
  }
  moveClockTo((await lastChargeOf(o.customerId)) + AUTO_RECHARGE_COOLDOWN_MS + 1);
  await chargeDue();
  assert.deepEqual((await recharges(o.customerId)).map((e) => e.amount_micro), [10_000_000]);
  assert.equal(f.t.mail.received.filter((m) => /Nell Notready .* failed/.test(m.subject)).length, 0);
});
