// A renewal the card does not pay, with the development provider (issue 13 item 4; DESIGN 7): the
// test checkout's "declined at renewal" card pays the first invoice and fails the next, through
// the same webhook path as Stripe's events. The subscription is past_due and keeps the plan's
// limits for the 7-day grace; the customer's owners and admins (not its members) get one mail
// with the invoice's page; past the grace the limits fall back; paying the invoice on its page
// makes it active again with its credit. Paid plan invoices are listed with the receipts on the
// billing page, with their amount, date and invoice link. After every test, every customer's
// balance is the sum of its ledger entries.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { DAY } from '../../src/platform/clock.js';
import { paymentGraceJob } from '../../src/jobs/payments.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { devWebhookSecret } from '../../src/payments/dev-provider.js';
import { assertBalancesMatchLedger, eventJson, postEvent } from '../support/payments.js';
import { checkoutUrlOf, clickDevCheckout, connectDevPayments, submitDevTestPage, customerOwner, mailSettled, ownerKeyClient, rowsOf, signInAgain, teammateOf, textById } from '../support/portal-payments.js';
import type { TestClient } from '../support/client.js';

let f: IssuerFixture;
let owner: TestClient;
let pro: { id: string };
before(async () => {
  f = await startIssuer('Past Due API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', plans_enabled: true, rps: 10 })).status, 200);
  const made = await f.owner.client.post(`/apis/${f.apiId}/plans`, { name: 'Pro', price_monthly_cents: 2500, credit_micro: 20_000_000, rps: 50 });
  assert.equal(made.status, 200, made.text);
  pro = made.body;
  await connectDevPayments(f);
  // The clock moves by weeks: the owner reads through a workspace key, which does not expire.
  owner = await ownerKeyClient(f);
});
afterEach(() => assertBalancesMatchLedger(f.t));
after(() => f.t.close());

const detailOf = async (customerId: string) => (await owner.get(`/apis/${f.apiId}/customers/${customerId}`)).body;
const planCredits = async (customerId: string) =>
  (await owner.get(`/apis/${f.apiId}/ledger?customer_id=${customerId}`)).body.entries.filter((e: { kind: string }) => e.kind === 'plan_credit').map((e: { ref: string }) => e.ref) as string[];
const grace = () => f.t.services.scheduler.runOnce(paymentGraceJob(f.t.services.payments));
const failedMails = (to: string) => f.t.mail.received.filter((m) => m.to === to.toLowerCase() && /^The payment for the Pro plan of .+ failed$/.test(m.subject));

/** Subscribes to Pro on the portal and pays with the test card that is declined at renewal. */
async function subscribeDeclining(o: Awaited<ReturnType<typeof customerOwner>>) {
  const page = await o.browser.get('/plans');
  const paid = await clickDevCheckout(checkoutUrlOf(f, await o.browser.submit(page, `subscribe-${pro.id}`)), 'pay_declining');
  assert.equal(paid.status, 303);
  assert.match(paid.page, /declined at renewal/);
}

/** Moves the clock just past the end of the customer's paid period and runs the renewals. */
async function renewAfterPeriod(customerId: string) {
  const end = new Date((await detailOf(customerId)).subscription_period_end).getTime();
  f.t.clock.advance(end + 1000 - f.t.clock.now().getTime());
  assert.ok((await f.t.services.devProvider!.renewDue()) >= 1);
}

/** Pays an invoice on its test page; answers the page after. */
async function payInvoice(url: string): Promise<string> {
  assert.equal((await submitDevTestPage(url)).status, 303);
  return (await fetch(url)).text();
}

test('a declined renewal: past_due keeps the plan for 7 days and mails owners and admins; past the grace the limits fall back; paying restores active and its credit', async () => {
  const o = await customerOwner(f, 'Dee Declined');
  const admin = await teammateOf(f, o, 'admin');
  const member = await teammateOf(f, o, 'member');
  const start = (await detailOf(o.customerId)).balance_micro as number;
  await subscribeDeclining(o);
  let detail = await detailOf(o.customerId);
  assert.deepEqual([detail.subscription_status, detail.effective.source, detail.effective.rps, detail.balance_micro], ['active', 'plan', 50, start + 20_000_000]);

  await renewAfterPeriod(o.customerId);
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.subscription_status, detail.effective.source, detail.effective.rps], [pro.id, 'past_due', 'plan', 50], 'the plan holds in the grace');
  assert.equal((await planCredits(o.customerId)).length, 1, 'an unpaid invoice adds no credit');
  const past = await signInAgain(f, o.person.id);
  assert.match(textById(expectPage(await past.get('/plans'), /^Plans$/).html, 'subscription-state') ?? '', /^The last payment failed/);

  await mailSettled(f);
  assert.deepEqual([o.person.email, admin.person.email, member.person.email].map((to) => failedMails(to).length), [1, 1, 0]);
  const mail = failedMails(o.person.email)[0]!;
  assert.match(mail.text, /\$25\.00/);
  const invoiceUrl = new RegExp(`(${f.t.url.replace(/[.]/g, '\\.')}/dev/payments/invoices/in_dev_[A-Za-z0-9]+)`).exec(mail.text)?.[1];
  assert.ok(invoiceUrl, mail.text);

  // One minute before the grace ends the plan holds; one minute after, the limits fall back.
  f.t.clock.advance(7 * DAY - 2 * 60_000);
  await grace();
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.subscription_status, detail.effective.rps], ['past_due', 50]);
  f.t.clock.advance(3 * 60_000);
  await grace();
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.subscription_status, detail.effective.source, detail.effective.rps], ['unpaid', 'payg', 10]);

  // Paying the open invoice on its page: active again, the plan's limits, and the invoice's credit once.
  assert.match(await payInvoice(invoiceUrl), /id="invoice-status">Paid\./);
  assert.doesNotMatch(await (await fetch(invoiceUrl)).text(), /data-outcome="pay-invoice"/, 'nothing to pay any more');
  assert.equal(await f.t.services.devProvider!.payInvoice(/in_dev_[A-Za-z0-9]+/.exec(invoiceUrl)![0]), null, 'a second payment finds the invoice paid');
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.plan_id, detail.subscription_status, detail.effective.source, detail.effective.rps], [pro.id, 'active', 'plan', 50]);
  const credits = await planCredits(o.customerId);
  assert.equal(credits.length, 2);
  assert.ok(credits.includes(/in_dev_[A-Za-z0-9]+/.exec(invoiceUrl)![0]), 'the paid invoice is the credit ref');
  assert.equal(detail.balance_micro, start + 40_000_000);
  await mailSettled(f);
  assert.equal(failedMails(o.person.email).length, 1, 'no mail for the payment');

  // The billing page lists both paid invoices beside the top-ups, with their invoice pages.
  const billing = expectPage(await (await signInAgain(f, o.person.id)).get('/billing'), /^Billing$/);
  const rows = rowsOf(billing.html, 'receipts-table');
  assert.equal(rows.length, 2, JSON.stringify(rows));
  for (const row of rows) {
    assert.match(row[0]!, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
    assert.deepEqual(row.slice(1), ['Plan Pro', '$25.00', '+20.00', 'Invoice']);
  }
  const links = [...billing.html.matchAll(/<tr id="receipt-(in_dev_[A-Za-z0-9]+)" data-kind="plan">[\s\S]*?href="([^"]+)"/g)].map((m) => [m[1], m[2]]);
  assert.equal(links.length, 2);
  for (const [ref, href] of links) assert.equal(href, `${f.t.url}/dev/payments/invoices/${ref}`);
  assert.ok(links.some(([ref]) => invoiceUrl.endsWith(ref!)));
});

test('paid within the grace: the limits never fall back, and the next renewal with the new card is paid', async () => {
  const o = await customerOwner(f, 'Pat Payer');
  await subscribeDeclining(o);
  await renewAfterPeriod(o.customerId);
  assert.equal((await detailOf(o.customerId)).subscription_status, 'past_due');
  await mailSettled(f);
  const invoiceUrl = /(http:\S+\/dev\/payments\/invoices\/in_dev_[A-Za-z0-9]+)/.exec(failedMails(o.person.email)[0]!.text)![1]!;
  // The provider's retries of the invoice (attempt 2 on) mail nothing more; nor does the same
  // failure claimed from an account that is not the API's.
  const account = (await owner.get(`/apis/${f.apiId}/payments`)).body.account_id as string;
  const invoiceId = /in_dev_[A-Za-z0-9]+/.exec(invoiceUrl)![0];
  const retry = (attempt: number, from: string) =>
    eventJson('invoice.payment_failed', {
      id: invoiceId, object: 'invoice', status: 'open', amount_due: 2500, attempt_count: attempt, hosted_invoice_url: invoiceUrl,
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_x', metadata: { gh_kind: 'subscription', gh_api: f.apiId, gh_customer: o.customerId, gh_plan: pro.id } } },
    }, { account: from, created: Math.floor(f.t.clock.now().getTime() / 1000) });
  const secret = devWebhookSecret(f.t.services.config.secretKey);
  for (const [attempt, from] of [[2, account], [1, 'acct_dev_someone_else']] as const) assert.equal((await postEvent(f.t, '/webhooks/payments/dev', retry(attempt, from), secret)).status, 200);
  await mailSettled(f);
  assert.equal(failedMails(o.person.email).length, 1, 'one mail per failed invoice');
  f.t.clock.advance(6 * DAY);
  await grace();
  await payInvoice(invoiceUrl);
  f.t.clock.advance(2 * DAY);
  await grace();
  let detail = await detailOf(o.customerId);
  assert.deepEqual([detail.subscription_status, detail.effective.rps], ['active', 50]);
  // The card that paid the invoice pays the next renewal.
  await renewAfterPeriod(o.customerId);
  detail = await detailOf(o.customerId);
  assert.deepEqual([detail.subscription_status, detail.effective.rps], ['active', 50]);
  assert.equal((await planCredits(o.customerId)).length, 3);
  await mailSettled(f);
  assert.equal(failedMails(o.person.email).length, 1);
});
