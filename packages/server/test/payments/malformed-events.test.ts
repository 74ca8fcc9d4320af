// Signed payment webhooks whose body is not an event (issue 26 item 6): `{}`, `[]`, no
// `data.object`, a NUL in an id, an amount whose micro units pass the money bound. They answered
// 500, which providers retry for days; they are 400 and change nothing. The other side: a
// well-formed event answers 200, an amount at the bound included.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MONEY_BOUND } from '../../src/platform/money.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { countRows, eventJson, postEvent } from '../support/payments.js';
import { StripeStandin } from '../support/stripe-standin.js';

const SECRET = 'whsec_standinmalformed';
let t: TestApp;
let stripe: StripeStandin;
before(async () => {
  stripe = new StripeStandin();
  await stripe.start();
  t = await startTestApp({ STRIPE_SECRET_KEY: 'sk_test_standin', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: stripe.url });
});
after(async () => {
  await t.close();
  await stripe.close();
});

const AT_BOUND = Math.floor(MONEY_BOUND / 10_000);
const checkout = (amount: number) => ({ id: 'cs_test_1', object: 'checkout.session', mode: 'payment', payment_status: 'paid', amount_total: amount, metadata: {} });

test('signed bodies that are not events: 400, nothing recorded', async () => {
  const event = JSON.parse(eventJson('checkout.session.completed', checkout(500))) as Record<string, unknown>;
  const bodies: [string, string][] = [
    ['{}', 'an empty object'],
    ['[]', 'an array'],
    ['"evt"', 'a string'],
    [JSON.stringify({ ...event, data: undefined }), 'no data'],
    [JSON.stringify({ ...event, data: { object: null } }), 'no data.object'],
    [JSON.stringify({ ...event, id: 'evt_\u0000x' }), 'a NUL in the id'],
    [JSON.stringify({ ...event, id: 42 }), 'a number as the id'],
    [JSON.stringify({ ...event, type: undefined }), 'no type'],
    [JSON.stringify({ ...event, created: 'yesterday' }), 'created not a time'],
    [JSON.stringify({ ...event, account: ['acct_1'] }), 'account not a string'],
    [eventJson('checkout.session.completed', checkout(2 ** 53 - 1)), 'an amount of 2^53 - 1 cents'],
    [eventJson('checkout.session.completed', checkout(AT_BOUND + 1)), 'an amount one cent past the bound'],
    [eventJson('invoice.paid', { id: 'in_1', object: 'invoice', amount_paid: -1 }), 'a negative amount'],
    [eventJson('invoice.paid', { id: 'in_1', object: 'invoice', amount_due: 1.5 }), 'a fractional amount'],
  ];
  const before = { events: await countRows(t, 'payment_events'), ledger: await countRows(t, 'ledger_entries') };
  for (const [body, what] of bodies) {
    const answer = await postEvent(t, '/webhooks/payments', body, SECRET);
    assert.equal(answer.status, 400, `${what}: ${answer.text}`);
    assert.match(answer.body.detail, /^Not an event/, what);
  }
  assert.deepEqual({ events: await countRows(t, 'payment_events'), ledger: await countRows(t, 'ledger_entries') }, before, 'nothing recorded');
  // A bad signature is still its own 400.
  assert.match((await postEvent(t, '/webhooks/payments', '{}', 'whsec_other')).body.detail, /signature/);
});

test('well-formed events answer 200, an amount at the bound included', async () => {
  for (const body of [eventJson('checkout.session.completed', checkout(500)), eventJson('checkout.session.completed', checkout(AT_BOUND)), eventJson('some.unknown_type', { id: 'x_1' })]) {
    const answer = await postEvent(t, '/webhooks/payments', body, SECRET);
    assert.equal(answer.status, 200, answer.text);
  }
});
