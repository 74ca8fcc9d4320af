// The low-balance mail (issue 13 item 6): when a customer's balance falls below its
// low_balance_micro (set per customer in the console, else the API's), one mail to its owners and
// admins (members get none), and none again until the balance is back at the line or above. At
// the line is not below; one micro unit under is. After every test, every customer's balance is
// the sum of its ledger entries.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { assertRefusedAt } from '../support/money.js';
import { freshEmail } from '../support/pages.js';
import { assertBalancesMatchLedger } from '../support/payments.js';
import { customerOwner, mailSettled, teammateOf } from '../support/portal-payments.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Low Balance API');
  // The payg preset: 1.00 of welcome credit and a low-balance line of 1.00.
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', low_balance_micro: 1_000_000, welcome_credit_micro: 1_000_000 });
  assert.equal(set.status, 200, set.text);
});
afterEach(() => assertBalancesMatchLedger(f.t));
after(() => f.t.close());

const check = () => f.t.services.payments.lowBalance.check();
const lowMails = (to: string) => f.t.mail.received.filter((m) => m.to === to.toLowerCase() && /is low$/.test(m.subject));
const detailOf = async (customerId: string) => (await f.owner.client.get(`/apis/${f.apiId}/customers/${customerId}`)).body;
const patchCustomer = (customerId: string, body: Record<string, unknown>) => f.owner.client.patch(`/apis/${f.apiId}/customers/${customerId}`, body);

/** A customer the owner adds in the console (nobody of its own has joined it). */
async function newCustomer(name: string): Promise<{ id: string }> {
  const made = await f.owner.client.post(`/apis/${f.apiId}/customers`, { name, email: freshEmail('customer') });
  assert.equal(made.status, 200, made.text);
  return made.body;
}

async function setBalance(customerId: string, micro: number) {
  const delta = micro - ((await detailOf(customerId)).balance_micro as number);
  if (delta !== 0) assert.equal((await f.owner.client.post(`/apis/${f.apiId}/customers/${customerId}/credit`, { amount_micro: delta, note: 'test balance' })).status, 200);
}

const settle = () => mailSettled(f);

test('at the line nothing; one micro unit below, one mail to each owner and admin; none again until the balance is back at the line', async () => {
  const o = await customerOwner(f, 'Lou Low');
  const admin = await teammateOf(f, o, 'admin');
  const member = await teammateOf(f, o, 'member');
  const people = [o.person.email, admin.person.email, member.person.email];
  const counts = () => people.map((to) => lowMails(to).length);
  await setBalance(o.customerId, 1_000_000);
  await check();
  await settle();
  assert.deepEqual(counts(), [0, 0, 0], 'at the line: not low');

  await setBalance(o.customerId, 999_999);
  await check();
  await f.t.mail.waitFor(admin.person.email, /is low$/);
  await settle();
  assert.deepEqual(counts(), [1, 1, 0], 'owners and admins, once each');
  const mail = lowMails(o.person.email)[0]!;
  assert.equal(mail.subject, 'The balance of Lou Low on Low Balance API is low');
  assert.match(mail.text, /is 0\.999999, below 1\.00/);
  assert.ok(mail.text.includes(`${f.issuer}/billing`), 'the link to add credit');

  await setBalance(o.customerId, -5_000_000);
  await check();
  await settle();
  assert.deepEqual(counts(), [1, 1, 0], 'lower still: no second mail');
  await setBalance(o.customerId, 999_999);
  await check();
  await setBalance(o.customerId, 1_000_000);
  await check();
  await setBalance(o.customerId, 500_000);
  await check();
  await f.t.mail.waitFor(o.person.email, /is low$/);
  await settle();
  assert.deepEqual(counts(), [2, 2, 0], 'back at the line, then below: the next mail');
});

test("the customer's own line, set in the console, replaces the API's; null goes back to it, 0 is none; bounds 0 to 2^53 - 1", async () => {
  const customer = await newCustomer('Own Line Co');
  for (const refused of [-1, 9_007_199_254_740_992, 1.5, '5']) assertRefusedAt(await patchCustomer(customer.id, { low_balance_micro: refused }), 'body.low_balance_micro');
  const top = await patchCustomer(customer.id, { low_balance_micro: 9_007_199_254_740_991 });
  assert.equal(top.status, 200, top.text);
  assert.equal(top.body.low_balance_micro, 9_007_199_254_740_991);
  const own = await patchCustomer(customer.id, { low_balance_micro: 5_000_000 });
  assert.equal(own.body.low_balance_micro, 5_000_000);
  // Nobody has joined this customer: its own address hears of it.
  await check();
  const mail = await f.t.mail.waitFor(own.body.email, /is low$/);
  assert.match(mail.text, /is 1\.00, below 5\.00/);

  const none = await patchCustomer(customer.id, { low_balance_micro: 0 });
  assert.equal(none.body.low_balance_micro, 0);
  await setBalance(customer.id, -1_000_000);
  await check();
  await settle();
  assert.equal(lowMails(own.body.email).length, 1, 'a line of 0 mails nothing, however low');
  const back = await patchCustomer(customer.id, { low_balance_micro: null });
  assert.equal(back.status, 200);
  assert.equal(back.body.low_balance_micro, undefined, "the API's line again");
  await setBalance(customer.id, 1_000_000);
  await check();
  await setBalance(customer.id, 0);
  await check();
  await f.t.mail.waitFor(own.body.email, /is low$/);
  await settle();
  const mails = lowMails(own.body.email);
  assert.equal(mails.length, 2);
  assert.match(mails[1]!.text, /below 1\.00/);
});

test('a customer that starts below the line has not crossed it: no mail until it has been above; two checks at once mail once', async () => {
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { welcome_credit_micro: 0 })).status, 200);
  try {
    const customer = await newCustomer('Starts Low Co');
    const email = (await detailOf(customer.id)).email as string;
    await check();
    await settle();
    assert.equal(lowMails(email).length, 0);
    await setBalance(customer.id, 2_000_000);
    await check();
    await setBalance(customer.id, 10);
    await Promise.all([check(), check(), check()]);
    await f.t.mail.waitFor(email, /is low$/);
    await settle();
    assert.equal(lowMails(email).length, 1);
  } finally {
    assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { welcome_credit_micro: 1_000_000 })).status, 200);
  }
});
