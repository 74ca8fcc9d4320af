// Top-ups on the portal (issue 13 item 3) over HTTP, with the development provider: the billing
// page offers the owner's amounts and a custom amount from min_topup_cents to 100,000 cents (each
// bound tried on both sides), the form sends the browser to the test checkout, paying there comes
// back to a page that says what happened, adds cents × 10,000 micro units once, mails a receipt
// with the provider's link to the person who paid, and lists it. Owners and admins buy, members
// read. After every test, every customer's balance is the sum of its ledger entries.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, afterEach, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { assertBalancesMatchLedger } from '../support/payments.js';
import { checkoutUrlOf, clickDevCheckout, connectDevPayments, customerOwner, rowsOf, teammateOf, textById } from '../support/portal-payments.js';
import type { TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Billing API');
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', payg_enabled: true, topup_amounts_cents: [1000, 2500], min_topup_cents: 500 });
  assert.equal(set.status, 200, set.text);
});
afterEach(() => assertBalancesMatchLedger(f.t));
after(() => f.t.close());

const billing = async (browser: TenantBrowser) => expectPage(await browser.get('/billing'), /^Billing$/);
const balanceOf = async (customerId: string) => (await f.owner.client.get(`/apis/${f.apiId}/customers/${customerId}`)).body.balance_micro as number;
async function checkoutsOf(customerId: string): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from payment_checkouts where customer_id = ${customerId}`.execute(f.t.services.db);
  return Number(rows[0]!.n);
}

test('before the owner connects payments the page says buying is not available, and a post starts nothing', async () => {
  const o = await customerOwner(f);
  const page = await billing(o.browser);
  assert.match(page.html, /<a href="\/billing" aria-current="page">Billing<\/a>/, 'in the navigation');
  assert.equal(textById(page.html, 'balance'), '1.00');
  assert.match(textById(page.html, 'topup-unavailable') ?? '', /not available yet/);
  assert.doesNotMatch(page.html, /action="\/billing\/topup"/);
  const refused = await o.browser.request('POST', '/billing/topup', { csrf: o.browser.cookies.get('gh_csrf')!, amount_cents: '1000' });
  assert.equal(refused.status, 409, refused.html.slice(0, 200));
  assert.equal(await checkoutsOf(o.customerId), 0);
  await connectDevPayments(f);
});

test('a 10.00 button: the test checkout, paid, comes back to "payment received"; +10,000,000 micro units once, a receipt mailed and listed', async () => {
  const o = await customerOwner(f, 'Tom Topup');
  const before = await balanceOf(o.customerId);
  const page = await billing(o.browser);
  assert.deepEqual([...page.html.matchAll(/id="topup-(\d+)">([^<]+)</g)].map((m) => [m[1], m[2]]), [['1000', '$10.00'], ['2500', '$25.00']]);
  // The form's answer is a redirect to the checkout page, which the page's CSP must allow.
  assert.match(page.headers.get('content-security-policy')!, new RegExp(`form-action 'self' ${f.t.url.replace(/[.]/g, '\\.')}`));
  const started = await o.browser.submit(page, 'topup-1000');
  const checkout = checkoutUrlOf(f, started);
  assert.equal(await balanceOf(o.customerId), before, 'nothing before paying');

  const paid = await clickDevCheckout(checkout, 'pay');
  assert.equal(paid.status, 303);
  const back = new URL(paid.location!);
  assert.equal(`${back.origin}${back.pathname}`, `${f.issuer}/billing`);
  const session = back.searchParams.get('session')!;
  assert.match(session, /^cs_dev_/);
  const landed = await billing(o.browser);
  const returned = expectPage(await o.browser.get(back.href), /^Billing$/);
  assert.equal(textById(returned.html, 'billing-notice'), 'Payment received: $10.00. 10.00 was added to your balance.');
  assert.equal(textById(landed.html, 'balance'), textById(returned.html, 'balance'));
  assert.equal(await balanceOf(o.customerId), before + 10_000_000);

  const entries = (await f.owner.client.get(`/apis/${f.apiId}/ledger?customer_id=${o.customerId}`)).body.entries.filter((e: { kind: string }) => e.kind === 'topup');
  assert.deepEqual(entries.map((e: { ref: string; amount_micro: number }) => [e.ref, e.amount_micro]), [[session, 10_000_000]]);
  // Paying the same session again (a second click, a replayed event) adds nothing.
  assert.equal((await fetch(checkout, { method: 'POST', redirect: 'manual' })).status, 403);
  assert.equal(await balanceOf(o.customerId), before + 10_000_000);

  // The receipt goes to the person who paid, with the provider's receipt page, which answers.
  const mail = await f.t.mail.waitFor(o.person.email, /Your receipt from Billing API: \$10\.00/);
  const link = /(http:\/\/\S+\/dev\/payments\/receipts\/cs_dev_\w+)/.exec(mail.text)?.[1];
  assert.equal(link, `${f.t.url}/dev/payments/receipts/${session}`);
  assert.match(mail.text, /10\.00 of credit was added/);
  const receiptPage = await fetch(link!);
  assert.equal(receiptPage.status, 200);
  assert.match(await receiptPage.text(), /id="receipt-amount">\$10\.00</);
  const listed = rowsOf((await billing(o.browser)).html, 'receipts-table');
  assert.equal(listed.length, 1);
  assert.deepEqual(listed[0]!.slice(1), ['Top-up', '$10.00', '+10.00', 'Receipt']);
  assert.match((await billing(o.browser)).html, new RegExp(`<a href="${link}" rel="noopener" class="receipt-link">Receipt</a>`));
  assert.ok((await f.owner.client.get(`/apis/${f.apiId}/stats`)).body.topups_month_micro >= 10_000_000);
});

test('custom amounts: the minimum and 100,000 cents start a checkout; a cent below or above, or no amount, is a 400 that starts nothing', async () => {
  const o = await customerOwner(f, 'Cass Custom');
  const custom = async (amount: string) => o.browser.submit(await billing(o.browser), 'topup-custom', { amount });
  for (const amount of ['4.99', '1,000.01', '1000.001', 'ten', '-5', '']) {
    const refused = await custom(amount);
    assert.equal(refused.status, 400, `"${amount}": ${refused.status}`);
    assert.match(refused.html, /Enter an amount from \$5\.00 to \$1,000\.00\./);
  }
  // A button's amount is checked the same way: a tampered 499 is refused.
  await billing(o.browser);
  const tampered = await o.browser.request('POST', '/billing/topup', { csrf: o.browser.cookies.get('gh_csrf')!, amount_cents: '499' });
  assert.equal(tampered.status, 400);
  assert.equal(await checkoutsOf(o.customerId), 0, 'no checkout started');
  for (const [amount, cents] of [['5', 500], ['$5.00', 500], ['1,000.00', 100_000], ['1000', 100_000]] as const) {
    const url = checkoutUrlOf(f, await custom(amount));
    const shown = await (await fetch(url)).text();
    assert.match(shown, new RegExp(`Pay \\$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2 }).replace(/,/g, '')}`), `${amount} is ${cents} cents`);
  }
  assert.equal(await checkoutsOf(o.customerId), 4);
});

test('declined, then canceled: the page says nothing was charged and the balance is unchanged', async () => {
  const o = await customerOwner(f, 'Dee Declined');
  const before = await balanceOf(o.customerId);
  const checkout = checkoutUrlOf(f, await o.browser.submit(await billing(o.browser), 'topup-2500'));
  const declined = await clickDevCheckout(checkout, 'fail');
  assert.match(declined.location!, /declined=1/);
  const page = await (await fetch(new URL(declined.location!, checkout))).text();
  const cancel = /<a href="([^"]+)">Cancel and go back<\/a>/.exec(page)![1]!.replace(/&amp;/g, '&');
  const back = expectPage(await o.browser.get(cancel), /^Billing$/);
  assert.equal(textById(back.html, 'billing-notice'), 'Checkout canceled: nothing was charged.');
  assert.equal(await balanceOf(o.customerId), before);
  assert.equal(textById(back.html, 'no-receipts'), 'No payments yet.');
});

test('owners and admins buy credit; members see the page and the balance but no forms, and their post is a 403', async () => {
  const o = await customerOwner(f, 'Owen Owner');
  const member = await teammateOf(f, o, 'member');
  const admin = await teammateOf(f, o, 'admin');
  const memberPage = await billing(member.browser);
  assert.match(textById(memberPage.html, 'topup-members-only') ?? '', /Owners and admins of Owen Owner buy credit/);
  assert.doesNotMatch(memberPage.html, /action="\/billing\/topup"/);
  const refused = await member.browser.request('POST', '/billing/topup', { csrf: member.browser.cookies.get('gh_csrf')!, amount_cents: '1000' });
  assert.equal(refused.status, 403);
  assert.equal(await checkoutsOf(o.customerId), 0);
  checkoutUrlOf(f, await admin.browser.submit(await billing(admin.browser), 'topup-1000'));
  assert.equal(await checkoutsOf(o.customerId), 1);
});

test('an API that does not sell prepaid credit (payg_enabled false) says so and refuses a post', async () => {
  const o = await customerOwner(f, 'Pat Plansonly');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { payg_enabled: false })).status, 200);
  try {
    const page = await billing(o.browser);
    assert.equal(textById(page.html, 'topup-unavailable'), 'Billing API does not sell prepaid credit.');
    const refused = await o.browser.request('POST', '/billing/topup', { csrf: o.browser.cookies.get('gh_csrf')!, amount_cents: '1000' });
    assert.equal(refused.status, 409);
    assert.equal(await checkoutsOf(o.customerId), 0);
  } finally {
    assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { payg_enabled: true })).status, 200);
  }
});
