// Money bounds of manual credit (hardening issue, item 7; spec 2.2 CreditInBody): a credit that
// would take a balance past ±(2^53 - 1) micro units is refused with a problem+json 409
// (`balance_out_of_range`), not a 500, and changes nothing: no ledger entry, no balance_seq step,
// no audit event, and its ref stays unused. Exactly at the bound is accepted, on both sides.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, createCustomer, snapshotCustomer, startWithApi, type ApiFixture } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
before(async () => {
  ({ t, owner, api } = await startWithApi('Bound Owner', { name: 'Bound Credit API' }));
});
after(() => t.close());

const BOUND = 9_007_199_254_740_991; // 2^53 - 1
const MAX_CREDIT = 100_000_000_000; // the largest amount of one credit (spec 2.2)

const credit = (customerId: string, body: Record<string, unknown>) => owner.client.post(`/apis/${api.apiId}/customers/${customerId}/credit`, body);

/**
 * Puts a balance near the bound directly: 90,072 credits of 10^11 reach it through the API, which
 * a test should not spend minutes on. Values past the bound stand for what an older version left.
 */
async function setBalance(customerId: string, value: bigint) {
  await sql`update customers set balance_micro = ${value.toString()}::bigint where id = ${customerId}`.execute(t.services.db);
}

/** What a credit changes: the balance, balance_seq, the customer's ledger and the API's audit log. */
async function stateOf(customerId: string) {
  const detail = await owner.client.get(`/apis/${api.apiId}/customers/${customerId}`);
  assert.equal(detail.status, 200, detail.text);
  const ledger = await owner.client.get(`/apis/${api.apiId}/ledger?customer_id=${customerId}&limit=200`);
  assert.equal(ledger.status, 200, ledger.text);
  const audit = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.customer_id === customerId && e.action === 'customer.credit');
  return { balance: detail.body.balance_micro, seq: (await snapshotCustomer(api, customerId)).balance_seq, entries: ledger.body.entries.length, audit: audit.length };
}

function assertRefusedOverBound(answer: { status: number; text: string; body: any; headers: Headers }) {
  assert.equal(answer.status, 409, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(answer.body.type, 'urn:gatehouse:problem:balance_out_of_range');
  assert.equal(answer.body.status, 409);
  assert.match(answer.body.detail, /9007199254740991/);
}

test('credit: a balance reaches +(2^53 - 1) exactly; one micro unit more is refused (409 problem+json) and changes nothing, its ref stays unused', async () => {
  const customer = await createCustomer(t, api, 'Rich Co');
  await setBalance(customer.id, BigInt(BOUND - MAX_CREDIT));
  const up = await credit(customer.id, { amount_micro: MAX_CREDIT, note: 'to the bound' });
  assert.equal(up.status, 200, up.text);
  assert.deepEqual(up.body, { applied: true, balance_micro: BOUND });

  const atBound = await stateOf(customer.id);
  assertRefusedOverBound(await credit(customer.id, { amount_micro: 1, note: 'one past', ref: 'past-the-bound' }));
  assertRefusedOverBound(await credit(customer.id, { amount_micro: MAX_CREDIT, note: 'far past' }));
  assert.deepEqual(await stateOf(customer.id), atBound, 'refused credits changed nothing');

  // The refused credit's ref was not spent: used with an amount that fits, it applies.
  const fits = await credit(customer.id, { amount_micro: -5, note: 'fits', ref: 'past-the-bound' });
  assert.deepEqual(fits.body, { applied: true, balance_micro: BOUND - 5 });
  // A repeated ref is ignored as before (spec 2.2), even when its amount would now pass the bound.
  const filled = await credit(customer.id, { amount_micro: 5, note: 'fill', ref: 'fill' });
  assert.deepEqual(filled.body, { applied: true, balance_micro: BOUND });
  const repeat = await credit(customer.id, { amount_micro: 5, note: 'fill', ref: 'fill' });
  assert.equal(repeat.status, 200, repeat.text);
  assert.deepEqual(repeat.body, { applied: false, balance_micro: BOUND });
});

test('credit: a balance reaches -(2^53 - 1) exactly; one micro unit lower is refused and changes nothing', async () => {
  const customer = await createCustomer(t, api, 'Poor Co');
  await setBalance(customer.id, BigInt(-BOUND + MAX_CREDIT));
  const down = await credit(customer.id, { amount_micro: -MAX_CREDIT, note: 'to the bound' });
  assert.deepEqual(down.body, { applied: true, balance_micro: -BOUND });
  const atBound = await stateOf(customer.id);
  assertRefusedOverBound(await credit(customer.id, { amount_micro: -1, note: 'one past' }));
  assert.deepEqual(await stateOf(customer.id), atBound);
  // Credit back up works as ever.
  assert.deepEqual((await credit(customer.id, { amount_micro: 1, note: 'back' })).body, { applied: true, balance_micro: -BOUND + 1 });
});

test('credit: a balance an older version left past the bound takes only a credit that brings it back within it', async () => {
  const customer = await createCustomer(t, api, 'Legacy Co');
  const past = -(2n ** 53n) - 10n;
  await setBalance(customer.id, past);
  const before = await stateOf(customer.id);
  assert.equal(before.balance, -BOUND, 'read as the bound, not a 500');
  assertRefusedOverBound(await credit(customer.id, { amount_micro: -1, note: 'further away' }));
  assertRefusedOverBound(await credit(customer.id, { amount_micro: 5, note: 'still past' }));
  assert.deepEqual(await stateOf(customer.id), before);
  const back = await credit(customer.id, { amount_micro: MAX_CREDIT, note: 'back within' });
  assert.equal(back.status, 200, back.text);
  assert.deepEqual(back.body, { applied: true, balance_micro: Number(past + BigInt(MAX_CREDIT)) });
});
