// Subscriptions on the portal's plans page (issue 13 item 4) over HTTP, with the development
// provider: subscribe (its test checkout, paid), the plan and its credit from the first invoice;
// a renewal invoice at the end of the period and not a second before; switch and cancel, each
// asked first; a cancelled subscription ends with its period and the limits fall back; a private
// plan reached by the link the console gives; members read but do not change the plan. After
// every test, every customer's balance is the sum of its ledger entries.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { assertBalancesMatchLedger } from '../support/payments.js';
import { checkoutUrlOf, clickDevCheckout, connectDevPayments, customerOwner, ownerKeyClient, signInAgain, teammateOf, textById } from '../support/portal-payments.js';
import type { TestClient } from '../support/client.js';
import type { TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
// The clock moves by months here: the owner reads through a workspace key, which does not expire.
let owner: TestClient;
const plan: Record<'basic' | 'pro' | 'hidden' | 'free' | 'retired', { id: string; portal_url: string }> = {} as never;
before(async () => {
  f = await startIssuer('Plans Pay API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', plans_enabled: true })).status, 200);
  const make = async (body: Record<string, unknown>) => {
    const made = await f.owner.client.post(`/apis/${f.apiId}/plans`, body);
    assert.equal(made.status, 200, made.text);
    return made.body as { id: string; portal_url: string };
  };
  plan.basic = await make({ name: 'Basic', price_monthly_cents: 1000, credit_micro: 5_000_000, rps: 3, sort: 1 });
  plan.pro = await make({ name: 'Pro', price_monthly_cents: 2500, credit_micro: 20_000_000, rps: 50, sort: 2 });
  plan.free = await make({ name: 'Hobby', price_monthly_cents: 0, sort: 3 });
  plan.hidden = await make({ name: 'Partner', price_monthly_cents: 500, credit_micro: 1_000_000, visibility: 'private' });
  plan.retired = await make({ name: 'Legacy', price_monthly_cents: 700, active: false });
  await connectDevPayments(f);
  owner = await ownerKeyClient(f);
});
afterEach(() => assertBalancesMatchLedger(f.t));
after(() => f.t.close());

const plansOf = async (browser: TenantBrowser, path = '/plans') => expectPage(await browser.get(path), /^Plans$/);
const detailOf = async (customerId: string) => (await owner.get(`/apis/${f.apiId}/customers/${customerId}`)).body;
const planCredits = async (customerId: string) =>
  (await owner.get(`/apis/${f.apiId}/ledger?customer_id=${customerId}`)).body.entries
    .filter((e: { kind: string }) => e.kind === 'plan_credit')
    .map((e: { ref: string; amount_micro: number }) => [e.ref, e.amount_micro]) as [string, number][];

/** Subscribes on the plans page (or a plan's own page) and pays on the test checkout. */
async function subscribeTo(browser: TenantBrowser, planId: string, path = '/plans') {
  const page = await browser.get(path);
  const checkout = checkoutUrlOf(f, await browser.submit(page, `subscribe-${planId}`));
  const paid = await clickDevCheckout(checkout, 'pay');
  assert.equal(paid.status, 303);
  return expectPage(await browser.get(paid.location!), /^Plans$/);
}

/** Moves the clock to `seconds` before (negative: after) the customer's subscription period ends. */
async function toPeriodEnd(customerId: string, secondsBefore: number) {
  const end = new Date((await detailOf(customerId)).subscription_period_end).getTime();
  f.t.clock.advance(end - secondsBefore * 1000 - f.t.clock.now().getTime());
}

test('subscribe: the paid plans offer a checkout, a free one is asked for; paying applies the plan and its first invoice adds its credit', async () => {
  const o = await customerOwner(f, 'Sue Subscriber');
  const before = (await detailOf(o.customerId)).balance_micro as number;
  const page = await plansOf(o.browser);
  assert.deepEqual([...page.html.matchAll(/<h2 id="plan-[^"]+-name">([^<]+)/g)].map((m) => m[1]!.trim()), ['Basic', 'Pro', 'Hobby'], 'public active plans only');
  for (const id of [plan.basic.id, plan.pro.id]) assert.match(page.html, new RegExp(`id="subscribe-${id}"`));
  assert.doesNotMatch(page.html, new RegExp(`subscribe-${plan.free.id}`), 'a free plan needs no payment');
  assert.match(page.headers.get('content-security-policy')!, new RegExp(`form-action 'self' ${f.t.url.replace(/[.]/g, '\\.')}`));

  const back = await subscribeTo(o.browser, plan.basic.id);
  assert.equal(textById(back.html, 'plans-notice'), 'Subscribed to Basic. Its 5.00 of credit comes with every paid invoice.');
  assert.match(back.html, new RegExp(`class="card plan current" id="plan-${plan.basic.id}"`));
  assert.match(textById(back.html, 'subscription-state') ?? '', /^Subscribed, renews \d{4}-\d{2}-\d{2}\.$/);
  assert.match(back.html, new RegExp(`id="switch-${plan.pro.id}"`), 'another paid plan is a switch now');
  const detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.plan_source, detail.subscription_status, detail.effective.source, detail.effective.billing_model, detail.effective.rps], [plan.basic.id, 'provider', 'active', 'plan', 'subscription', 3]);
  const credits = await planCredits(o.customerId);
  assert.equal(credits.length, 1);
  assert.match(credits[0]![0], /^in_dev_/);
  assert.equal(credits[0]![1], 5_000_000);
  assert.equal(detail.balance_micro, before + 5_000_000);
  // A second subscription while one runs is refused: it is switched instead.
  const again = await o.browser.request('POST', `/plans/${plan.pro.id}/subscribe`, { csrf: o.browser.cookies.get('gh_csrf')! });
  assert.equal(again.status, 409);
  assert.match(again.html, /switch it instead/);
});

test('renewal: a second before the period ends nothing is invoiced; at its end a new invoice adds the credit again, once', async () => {
  const o = await customerOwner(f, 'Ren Renewer');
  await subscribeTo(o.browser, plan.basic.id);
  const first = (await detailOf(o.customerId)).subscription_period_end as string;
  // (Subscriptions of earlier tests end a few seconds sooner and may renew here: only this
  // customer's invoices are counted.)
  await toPeriodEnd(o.customerId, 2);
  await f.t.services.devProvider!.renewDue();
  assert.equal((await planCredits(o.customerId)).length, 1);
  await toPeriodEnd(o.customerId, -1);
  assert.ok((await f.t.services.devProvider!.renewDue()) >= 1);
  await f.t.services.devProvider!.renewDue();
  const credits = await planCredits(o.customerId);
  assert.equal(credits.length, 2);
  assert.notEqual(credits[0]![0], credits[1]![0], 'each invoice is its own ref; the same period is not renewed twice');
  const detail = await detailOf(o.customerId);
  assert.equal(new Date(detail.subscription_period_end).getTime() - new Date(first).getTime(), 30 * 24 * 3600 * 1000, 'the next period');
  assert.equal(detail.subscription_status, 'active');
});

test('switch, asked first: the plan and its limits follow; cancel, asked first, keeps the plan until the period ends, then the limits fall back', async () => {
  const o = await customerOwner(f, 'Sam Switcher');
  let browser = o.browser;
  await subscribeTo(browser, plan.basic.id);
  const confirm = expectPage(await browser.get(`/plans/${plan.pro.id}/switch`), /^Switch to Pro\?$/);
  assert.match(confirm.html, /From Basic to Pro at \$25\.00 a month/);
  const switched = expectPage(await browser.submit(confirm, 'confirm-switch'), /^Plans$/);
  assert.equal(textById(switched.html, 'plans-notice'), 'Your plan is now Pro.');
  let detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.effective.rps], [plan.pro.id, 50]);

  const cancel = expectPage(await browser.get('/plans/cancel'), /^Cancel Pro\?$/);
  const until = new Date(detail.subscription_period_end).toISOString().slice(0, 10);
  assert.match(cancel.html, new RegExp(`You keep Pro and its limits until ${until}`));
  const canceled = expectPage(await browser.submit(cancel, 'confirm-cancel'), /^Plans$/);
  assert.equal(textById(canceled.html, 'plans-notice'), `Your subscription is canceled. You keep Pro until ${until}.`);
  assert.equal(textById(canceled.html, 'subscription-state'), `Canceled: you keep this plan until ${until}.`);
  // Changing one's mind before the end keeps it; cancelling again ends it with the period.
  const kept = expectPage(await browser.submit(canceled, 'keep-subscription'), /^Plans$/);
  assert.equal(textById(kept.html, 'plans-notice'), 'Your subscription continues.');
  assert.match(textById(kept.html, 'subscription-state') ?? '', /^Subscribed, renews/);
  expectPage(await browser.submit(expectPage(await browser.get('/plans/cancel'), /^Cancel Pro\?$/), 'confirm-cancel'), /^Plans$/);
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.subscription_status], [plan.pro.id, 'active'], 'still on Pro until the period ends');

  const credits = (await planCredits(o.customerId)).length;
  await toPeriodEnd(o.customerId, -1);
  assert.ok((await f.t.services.devProvider!.renewDue()) >= 1);
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.subscription_status, detail.effective.source, detail.effective.billing_model], [undefined, 'canceled', 'payg', 'payg']);
  assert.equal((await planCredits(o.customerId)).length, credits, 'no invoice after a cancellation');
  browser = await signInAgain(f, o.person.id);
  const after = await plansOf(browser);
  assert.doesNotMatch(after.html, /class="card plan current"/);
  assert.match(after.html, new RegExp(`id="subscribe-${plan.basic.id}"`), 'a new subscription can start');
});

test('a private plan: not listed, offered by the link the console gives; an inactive or unknown plan link is a 404', async () => {
  const o = await customerOwner(f, 'Pia Private');
  assert.ok(!(await plansOf(o.browser)).html.includes(plan.hidden.id));
  const link = new URL(plan.hidden.portal_url);
  assert.equal(link.origin, f.issuer);
  const page = expectPage(await o.browser.get(link.pathname), /^Partner$/);
  assert.match(page.html, /id="private-plan">A plan Plans Pay API offers you by this link\./);
  const back = await subscribeTo(o.browser, plan.hidden.id, link.pathname);
  assert.equal(textById(back.html, 'plans-notice'), 'Subscribed to Partner. Its 1.00 of credit comes with every paid invoice.');
  assert.match(back.html, new RegExp(`class="card plan current" id="plan-${plan.hidden.id}"`), 'the own plan is listed, even private');
  assert.equal((await detailOf(o.customerId)).plan_id, plan.hidden.id);
  for (const id of [plan.retired.id, 'pln_unknown', 'not a plan']) {
    const missing = await o.browser.get(`/plans/${encodeURIComponent(id)}`);
    assert.equal(missing.status, 404, id);
  }
  assert.equal((await o.browser.request('POST', `/plans/${plan.retired.id}/subscribe`, { csrf: o.browser.cookies.get('gh_csrf')! })).status, 404);
});

test('members see the plans but do not subscribe, switch or cancel (403, nothing changes); admins do', async () => {
  const o = await customerOwner(f, 'Mo Manager');
  const member = await teammateOf(f, o, 'member');
  const admin = await teammateOf(f, o, 'admin');
  const page = await plansOf(member.browser);
  assert.match(page.html, /Owners and admins of Mo Manager subscribe\./);
  assert.doesNotMatch(page.html, /id="subscribe-/);
  const csrf = member.browser.cookies.get('gh_csrf')!;
  for (const path of [`/plans/${plan.basic.id}/subscribe`, `/plans/${plan.pro.id}/switch`, '/plans/cancel']) {
    assert.equal((await member.browser.request('POST', path, { csrf })).status, 403, path);
  }
  await subscribeTo(admin.browser, plan.basic.id);
  assert.equal((await detailOf(o.customerId)).plan_id, plan.basic.id);
  const asMember = await plansOf(member.browser);
  assert.match(asMember.html, /Subscribed, renews/);
  assert.doesNotMatch(asMember.html, /id="cancel-subscription"/);
  assert.equal((await member.browser.request('POST', '/plans/cancel', { csrf })).status, 403);
  assert.equal((await detailOf(o.customerId)).subscription_status, 'active');
});
