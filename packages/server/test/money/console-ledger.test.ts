// The credit ledger: CreditInBody bounds, idempotent refs (also under 20 concurrent requests),
// balance_seq growing by one per change, and the listing newest first with a cursor, for one
// customer or the whole API (spec 2.2 CreditInBody, CreditBody, LedgerBody, LedgerEntry; spec 2.5
// SdkCustomer.balance_seq; DESIGN 7).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, createCustomer, createKey, reportUsage, snapshotCustomer, usageItem, type ApiFixture, startWithApi } from '../support/money.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithApi('Led Owner', { name: 'Ledger API' }));
});
after(() => t.close());

const ENTRY_REQUIRED = ['id', 'customer_id', 'kind', 'note', 'actor', 'amount_micro', 'requests', 'created_at', 'updated_at'];
const MAX = 100_000_000_000;

const credit = (customerId: string, body: Record<string, unknown>, client = editor.client, on = api) => client.post(`/apis/${on.apiId}/customers/${customerId}/credit`, body);
const balanceOf = async (customerId: string, on = api) => (await viewer.client.get(`/apis/${on.apiId}/customers/${customerId}`)).body.balance_micro as number;
const seqOf = async (customerId: string, on = api) => (await snapshotCustomer(on, customerId)).balance_seq;
const ledgerPage = (query: string, on = api) => viewer.client.get(`/apis/${on.apiId}/ledger?${query}`);

test('amount_micro is -100000000000 to 100000000000; one past either end is refused', async () => {
  const customer = await createCustomer(t, api, 'Bounds Co');
  const up = await credit(customer.id, { amount_micro: MAX, note: 'largest credit' });
  assert.equal(up.status, 200, up.text);
  assert.deepEqual(up.body, { applied: true, balance_micro: 1_000_000 + MAX });
  const down = await credit(customer.id, { amount_micro: -MAX, note: 'largest removal' });
  assert.deepEqual(down.body, { applied: true, balance_micro: 1_000_000 });
  for (const amount_micro of [MAX + 1, -MAX - 1, 1.5, '100', null]) {
    assertRefusedAt(await credit(customer.id, { amount_micro, note: 'refused' }), 'body.amount_micro');
  }
  assertRefusedAt(await credit(customer.id, { note: 'no amount' }), 'body.amount_micro');
  assert.equal(await balanceOf(customer.id), 1_000_000, 'refused credits change nothing');
});

test('note is 1 to 300 characters and ref up to 200; undeclared properties are refused', async () => {
  const customer = await createCustomer(t, api, 'Note Co');
  assert.equal((await credit(customer.id, { amount_micro: 1, note: 'n' })).status, 200);
  assert.equal((await credit(customer.id, { amount_micro: 1, note: 'n'.repeat(300) })).status, 200);
  for (const note of ['', '   ', 'n'.repeat(301)]) assertRefusedAt(await credit(customer.id, { amount_micro: 1, note }), 'body.note');
  assertRefusedAt(await credit(customer.id, { amount_micro: 1 }), 'body.note');
  const longRef = await credit(customer.id, { amount_micro: 1, note: 'ref at 200', ref: 'r'.repeat(200) });
  assert.equal(longRef.status, 200, longRef.text);
  assert.equal(longRef.body.applied, true);
  for (const ref of ['r'.repeat(201), '', 42]) assertRefusedAt(await credit(customer.id, { amount_micro: 1, note: 'bad ref', ref }), 'body.ref');
  assertRefusedAt(await credit(customer.id, { amount_micro: 1, note: 'extra', kind: 'topup' }), 'body.kind');
  assert.equal(await balanceOf(customer.id), 1_000_000 + 3);
});

test('a negative credit removes; a repeated ref answers applied false and changes nothing', async () => {
  const customer = await createCustomer(t, api, 'Ref Co');
  const seq0 = await seqOf(customer.id);
  const removed = await credit(customer.id, { amount_micro: -250_000, note: 'refund correction' });
  assert.deepEqual(removed.body, { applied: true, balance_micro: 750_000 });
  const first = await credit(customer.id, { amount_micro: 2_000_000, note: 'invoice 17', ref: 'inv-17' });
  assert.deepEqual(first.body, { applied: true, balance_micro: 2_750_000 });
  const seq1 = await seqOf(customer.id);
  assert.equal(seq1, seq0 + 2);
  // The same ref again, even with another amount or note: nothing happens.
  const again = await credit(customer.id, { amount_micro: 9_000_000, note: 'invoice 17 again', ref: 'inv-17' });
  assert.equal(again.status, 200, again.text);
  assert.deepEqual(again.body, { applied: false, balance_micro: 2_750_000 });
  assert.equal(await balanceOf(customer.id), 2_750_000);
  assert.equal(await seqOf(customer.id), seq1);
  const entries = (await ledgerPage(`customer_id=${customer.id}`)).body.entries;
  assert.equal(entries.filter((e: { ref?: string }) => e.ref === 'inv-17').length, 1);
  assert.equal(entries.length, 3, 'welcome, removal, invoice');
  // A balance may be taken below zero by hand.
  const negative = await credit(customer.id, { amount_micro: -3_000_000, note: 'chargeback' });
  assert.equal(negative.body.balance_micro, -250_000);
});

test('20 concurrent credits with one ref apply exactly once', async () => {
  const customer = await createCustomer(t, api, 'Race Co');
  const seq0 = await seqOf(customer.id);
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => credit(customer.id, { amount_micro: 5_000_000, note: `race ${i}`, ref: 'race-ref-1' })),
  );
  assert.deepEqual(answers.map((a) => a.status), Array(20).fill(200), answers.map((a) => a.text).join('\n'));
  assert.equal(answers.filter((a) => a.body.applied === true).length, 1);
  assert.equal(answers.filter((a) => a.body.applied === false).length, 19);
  for (const answer of answers) assert.equal(answer.body.balance_micro, 6_000_000, 'every answer shows the balance after the one credit');
  assert.equal(await balanceOf(customer.id), 6_000_000);
  assert.equal(await seqOf(customer.id), seq0 + 1);
  const entries = (await ledgerPage(`customer_id=${customer.id}`)).body.entries;
  assert.equal(entries.filter((e: { ref?: string }) => e.ref === 'race-ref-1').length, 1);
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.customer_id === customer.id && e.action === 'customer.credit');
  assert.equal(events.length, 1, 'one audit event for the one credit');
});

test('20 concurrent credits without a ref all apply, and balance_seq counts each', async () => {
  const customer = await createCustomer(t, api, 'Parallel Co');
  const seq0 = await seqOf(customer.id);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => credit(customer.id, { amount_micro: 1_000 + i, note: `parallel ${i}` })));
  assert.ok(answers.every((a) => a.status === 200 && a.body.applied === true), answers.map((a) => a.text).join('\n'));
  const added = Array.from({ length: 20 }, (_, i) => 1_000 + i).reduce((a, b) => a + b, 0);
  assert.equal(await balanceOf(customer.id), 1_000_000 + added);
  assert.equal(await seqOf(customer.id), seq0 + 20);
});

test('balance_seq grows by one with every balance change, usage included', async () => {
  const customer = await createCustomer(t, api, 'Seq Co');
  const seqs = [await seqOf(customer.id)];
  assert.equal(seqs[0], 1, 'the welcome credit was the first change');
  await credit(customer.id, { amount_micro: 10, note: 'one' });
  seqs.push(await seqOf(customer.id));
  await credit(customer.id, { amount_micro: -10, note: 'two' });
  seqs.push(await seqOf(customer.id));
  await credit(customer.id, { amount_micro: 10, note: 'three', ref: 'seq-ref' });
  seqs.push(await seqOf(customer.id));
  await credit(customer.id, { amount_micro: 10, note: 'three again', ref: 'seq-ref' });
  seqs.push(await seqOf(customer.id));
  const key = await createKey(api, customer.id);
  const policy = (await snapshotCustomer(api, customer.id)).usage_policy_id;
  await reportUsage(api, [usageItem(key.id, policy, 200, 4, t.clock.now())]);
  seqs.push(await seqOf(customer.id));
  assert.deepEqual(seqs, [1, 2, 3, 4, 4, 5]);
  const wire = await snapshotCustomer(api, customer.id);
  assert.equal(wire.credit_balance_micro, await balanceOf(customer.id));
});

test('the ledger lists newest first with every LedgerEntry field, for a customer or the API', async () => {
  const fresh = await createApi(t, { name: 'Listing API' }, owner);
  const a = await createCustomer(t, fresh, 'List A');
  const b = await createCustomer(t, fresh, 'List B');
  await credit(a.id, { amount_micro: 100, note: 'a one', ref: 'a-1' }, editor.client, fresh);
  await credit(b.id, { amount_micro: 200, note: 'b one' }, editor.client, fresh);
  await credit(a.id, { amount_micro: -50, note: 'a two' }, editor.client, fresh);
  const key = await createKey(fresh, a.id);
  await reportUsage(fresh, [usageItem(key.id, (await snapshotCustomer(fresh, a.id)).usage_policy_id, 200, 3, t.clock.now()), usageItem(key.id, null, 404, 2, t.clock.now())]);

  const all = await ledgerPage('limit=200', fresh);
  assert.equal(all.status, 200, all.text);
  const entries = all.body.entries as Record<string, any>[];
  assert.deepEqual(entries.map((e) => `${e.customer_name}:${e.kind}:${e.amount_micro}`), [
    'List A:usage:-3000', 'List A:credit:-50', 'List B:credit:200', 'List A:credit:100', 'List B:welcome:1000000', 'List A:welcome:1000000',
  ]);
  for (const entry of entries) {
    for (const field of ENTRY_REQUIRED) assert.ok(field in entry, `LedgerEntry.${field}`);
    assert.match(entry.id, /^led_/);
  }
  const times = entries.map((e) => Date.parse(e.created_at));
  assert.deepEqual(times, [...times].sort((x, y) => y - x), 'newest first');
  const usage = entries[0]!;
  assert.equal(usage.requests, 5, 'every request counts, billable or not');
  assert.equal(usage.usage_day, `${t.clock.now().toISOString().slice(0, 10)}T00:00:00.000Z`);
  assert.equal(usage.actor, 'sdk');
  const manual = entries.find((e) => e.ref === 'a-1')!;
  assert.equal(manual.note, 'a one');
  assert.equal(manual.actor, 'Member editor');
  assert.equal(manual.requests, 0);
  assert.equal(entries.find((e) => e.note === 'b one')!.ref, undefined);
  const onlyB = await ledgerPage(`customer_id=${b.id}`, fresh);
  assert.deepEqual(onlyB.body.entries.map((e: { kind: string }) => e.kind), ['credit', 'welcome']);
  assert.ok(onlyB.body.entries.every((e: { customer_id: string }) => e.customer_id === b.id));
  // Another API's customer has nothing here.
  assert.deepEqual((await ledgerPage(`customer_id=${b.id}`)).body.entries, []);
  assert.deepEqual((await ledgerPage('customer_id=cus_unknown', fresh)).body.entries, []);
});

test('the ledger pages with a cursor; limit is 1 to 200; a bad cursor answers 422', async () => {
  const fresh = await createApi(t, { name: 'Paged Ledger' }, owner);
  const customer = await createCustomer(t, fresh, 'Paged');
  const other = await createCustomer(t, fresh, 'Other');
  for (let i = 1; i <= 6; i++) await credit(i % 2 ? customer.id : other.id, { amount_micro: i, note: `entry ${i}` }, editor.client, fresh);
  const walk = async (base: string, limit: number) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await ledgerPage(`${base}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, fresh);
      assert.equal(answer.status, 200, answer.text);
      assert.ok(answer.body.entries.length <= limit);
      ids.push(...answer.body.entries.map((e: { id: string }) => e.id));
      cursor = answer.body.next_cursor;
      pages++;
    } while (cursor);
    return { ids, pages };
  };
  const everything = (await ledgerPage('limit=200', fresh)).body.entries.map((e: { id: string }) => e.id);
  assert.equal(everything.length, 8);
  const whole = await walk('', 3);
  assert.deepEqual(whole.ids, everything, 'the pages together are the whole list, in order, once each');
  assert.equal(whole.pages, 3);
  const one = await walk(`customer_id=${customer.id}&`, 1);
  assert.equal(one.ids.length, 4, 'welcome and three credits');
  assert.equal(one.pages, 4);
  // New entries while paging do not shift later pages.
  const first = await ledgerPage('limit=4', fresh);
  await credit(customer.id, { amount_micro: 7, note: 'entry 7' }, editor.client, fresh);
  const second = await ledgerPage(`limit=4&cursor=${first.body.next_cursor}`, fresh);
  assert.deepEqual([...first.body.entries, ...second.body.entries].map((e: { id: string }) => e.id), everything);
  assert.equal(second.body.next_cursor, undefined);
  for (const limit of [1, 200]) assert.equal((await ledgerPage(`limit=${limit}`, fresh)).status, 200);
  for (const limit of ['0', '201', 'all']) assertRefusedAt(await ledgerPage(`limit=${limit}`, fresh), 'query.limit');
  for (const cursor of ['nonsense', Buffer.from('yesterday|led_x').toString('base64url'), 'c'.repeat(201)]) {
    assertRefusedAt(await ledgerPage(`cursor=${cursor}`, fresh), 'query.cursor');
  }
});

test('credit takes the editor role; viewers read the ledger; unknown customers answer 404', async () => {
  const customer = await createCustomer(t, api, 'Role Co');
  assert.equal((await credit(customer.id, { amount_micro: 5, note: 'viewer' }, viewer.client)).status, 403);
  assert.equal((await credit(customer.id, { amount_micro: 5, note: 'owner' }, owner.client)).status, 200);
  assert.equal((await ledgerPage(`customer_id=${customer.id}`)).status, 200);
  assert.equal((await credit('cus_unknown', { amount_micro: 5, note: 'nobody' })).status, 404);
  const other = await createApi(t, { name: 'Credit Elsewhere' }, owner);
  const theirs = await createCustomer(t, other, 'Theirs');
  assert.equal((await credit(theirs.id, { amount_micro: 5, note: 'wrong api' })).status, 404);
  assert.equal(await balanceOf(theirs.id, other), 1_000_000);
  assert.equal(await balanceOf(customer.id), 1_000_005);
});

test('each applied credit writes an audit event naming the API and the customer', async () => {
  const customer = await createCustomer(t, api, 'Audit Credit Co');
  await credit(customer.id, { amount_micro: 42, note: 'audited', ref: 'audit-ref' });
  await credit(customer.id, { amount_micro: 42, note: 'audited again', ref: 'audit-ref' });
  await credit(customer.id, { amount_micro: -7, note: 'taken back' });
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.customer_id === customer.id && e.action === 'customer.credit');
  assert.equal(events.length, 2, 'the repeated ref wrote nothing');
  for (const event of events) assert.equal(event.api_id, api.apiId);
  assert.deepEqual(events.map((e) => e.details.amount_micro), [-7, 42]);
  assert.equal(events[1]!.details.ref, 'audit-ref');
});

test('the ledger filters by kind, alone or with a customer, across pages; an unknown kind answers 422', async () => {
  const fresh = await createApi(t, { name: 'Kinds Ledger' }, owner);
  const a = await createCustomer(t, fresh, 'Kind A');
  const b = await createCustomer(t, fresh, 'Kind B');
  await credit(a.id, { amount_micro: 500, note: 'a credit' }, editor.client, fresh);
  await credit(b.id, { amount_micro: -200, note: 'b debit' }, editor.client, fresh);
  await credit(a.id, { amount_micro: 300, note: 'a credit again' }, editor.client, fresh);
  const key = await createKey(fresh, a.id);
  await reportUsage(fresh, [usageItem(key.id, (await snapshotCustomer(fresh, a.id)).usage_policy_id, 200, 2, t.clock.now())]);

  const kindsOf = async (query: string) => {
    const answer = await ledgerPage(`limit=200&${query}`, fresh);
    assert.equal(answer.status, 200, answer.text);
    return (answer.body.entries as { kind: string; customer_name: string; amount_micro: number }[]).map((e) => `${e.customer_name}:${e.kind}:${e.amount_micro}`);
  };
  assert.deepEqual(await kindsOf('kind=credit'), ['Kind A:credit:300', 'Kind B:credit:-200', 'Kind A:credit:500']);
  assert.deepEqual(await kindsOf('kind=welcome'), ['Kind B:welcome:1000000', 'Kind A:welcome:1000000']);
  assert.deepEqual(await kindsOf('kind=usage'), ['Kind A:usage:-2000']);
  assert.deepEqual(await kindsOf(`kind=credit&customer_id=${a.id}`), ['Kind A:credit:300', 'Kind A:credit:500']);
  assert.deepEqual(await kindsOf(`kind=usage&customer_id=${b.id}`), []);
  // Every kind the ledger writes is a filter, whether or not this API has entries of it.
  for (const kind of ['topup', 'plan_credit', 'auto_recharge']) assert.deepEqual(await kindsOf(`kind=${kind}`), []);

  // Pages of one kind: the cursor carries on within the kind.
  const first = await ledgerPage('kind=credit&limit=2', fresh);
  assert.equal(first.body.entries.length, 2);
  assert.ok(first.body.next_cursor);
  const second = await ledgerPage(`kind=credit&limit=2&cursor=${first.body.next_cursor}`, fresh);
  assert.deepEqual(second.body.entries.map((e: { note: string }) => e.note), ['a credit']);
  assert.equal(second.body.next_cursor, undefined);

  for (const kind of ['refunds', 'CREDIT', '', 'usage,credit']) assertRefusedAt(await ledgerPage(`kind=${encodeURIComponent(kind)}`, fresh), 'query.kind');
  const kinds = await ledgerPage('kind=credit&kind=usage', fresh);
  assertRefusedAt(kinds, 'query.kind');
});
