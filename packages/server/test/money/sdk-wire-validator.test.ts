// The wire validator itself (test/support/wire-validator.ts): it must take the examples of
// shared/spec/sdk-wire-protocol.md and refuse every snapshot the Python SDK refuses (section 2),
// or the server tests that lean on it would prove nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePython310Timestamp, parsePythonUuid, snapshotProblems, usageAnswerProblems, verifyProblems } from '../support/wire-validator.js';

// The example of section 2, verbatim.
const EXAMPLE = `{"generated_at": "2026-08-04T00:15:00.000Z", "tenant_id": "t_42",
 "billable_status_codes": [200, 201],
 "platform_monthly_limit": 1000000, "platform_monthly_used": 125000,
 "platform_monthly_remaining": 875000,
 "platform_period_end": "2026-09-01T00:00:00Z", "platform_hard_cap": true,
 "customers": [{"id": "cus_123", "status": "active",
   "credit_balance_micro": 25000000, "month_requests": 1250,
   "usage_policy_id": "5b0e8c9a-3f4d-4c2b-8a77-1d2e3f405162",
   "policy_valid_until": "2026-08-05T00:15:00Z",
   "effective": {"rps": 25, "price_per_request_micro": 1000,
     "monthly_quota": 100000, "billing_model": "payg", "source": "plan"}}],
 "keys": [{"id": "7d9f3c1a-2b4e-4f60-8a1b-c2d3e4f5a6b7", "customer_id": "cus_123",
   "key_hash": "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"}]}`;

// The example of section 3, verbatim.
const VERIFY_EXAMPLE = `{"valid": true, "key_id": "7d9f3c1a-2b4e-4f60-8a1b-c2d3e4f5a6b7",
 "billable_status_codes": [200, 201],
 "customer": {"id": "cus_123", "status": "active", "credit_balance_micro": 25000000,
   "month_requests": 1250, "usage_policy_id": null, "policy_valid_until": null,
   "effective": {"rps": 25, "price_per_request_micro": 1000, "monthly_quota": null,
     "billing_model": "payg", "source": "payg"}}}`;

const clientNow = new Date('2026-08-04T00:15:00.000Z');
// The wire rules alone (the doc's example is not a full spec SnapshotBody: no tenant_name, no allowance).
const wire = { clientNow, spec: false };

/** The example with one change made to its parsed form, as JSON text. */
function edited(change: (body: any) => void): string {
  const body = JSON.parse(EXAMPLE);
  change(body);
  return JSON.stringify(body);
}

/** The example's text with one literal replaced (for number spellings JSON.stringify cannot make). */
function replaced(from: string, to: string): string {
  assert.ok(EXAMPLE.includes(from), from);
  return EXAMPLE.replace(from, to);
}

function assertRejected(text: string, pattern: RegExp, options: object = wire) {
  const problems = snapshotProblems(text, options);
  assert.ok(problems.some((p) => pattern.test(p)), `expected a problem matching ${pattern}, got ${JSON.stringify(problems)}`);
}

test('validator: the examples of sections 2 and 3 pass the wire rules', () => {
  assert.deepEqual(snapshotProblems(EXAMPLE, wire), []);
  assert.deepEqual(verifyProblems(VERIFY_EXAMPLE, { clientNow, spec: false }), []);
  assert.deepEqual(verifyProblems('{"valid": false}'), []);
});

test('validator: test_snapshot_rejects_unsafe_or_inconsistent_values (bool status code, 2^53, wrong remaining, no offset, hard_cap 1)', () => {
  assertRejected(edited((b) => (b.billable_status_codes = [true, 201])), /billable_status_codes\/0/);
  assertRejected(replaced('"month_requests": 1250', '"month_requests": 9007199254740992'), /month_requests.*9007199254740991/);
  assertRejected(edited((b) => (b.platform_monthly_remaining = 875001)), /remaining.*max\(0, limit - used\)/);
  assertRejected(edited((b) => (b.generated_at = '2026-08-04T00:15:00')), /generated_at.*offset/);
  assertRejected(edited((b) => (b.platform_hard_cap = 1)), /platform_hard_cap/);
  // 2^53 - 1 itself is fine.
  assert.deepEqual(snapshotProblems(replaced('"month_requests": 1250', '"month_requests": 9007199254740991'), wire), []);
});

test('validator: int is a JSON integer 0..2^53-1: 5.0, 5e0, true, "5", -1 and null are not', () => {
  for (const spelling of ['1250.0', '1.25e3', 'true', '"1250"', '-1', 'null']) {
    assertRejected(replaced('"month_requests": 1250', `"month_requests": ${spelling}`), /month_requests/);
  }
  assertRejected(replaced('"rps": 25', '"rps": 25.5'), /effective\/rps/);
  assertRejected(replaced('"platform_monthly_limit": 1000000', '"platform_monthly_limit": 1E6'), /platform_monthly_limit/);
});

test('validator: credit_balance_micro goes down to -(2^53-1) and no further', () => {
  assert.deepEqual(snapshotProblems(replaced('"credit_balance_micro": 25000000', '"credit_balance_micro": -9007199254740991'), wire), []);
  assertRejected(replaced('"credit_balance_micro": 25000000', '"credit_balance_micro": -9007199254740992'), /credit_balance_micro/);
  assertRejected(replaced('"credit_balance_micro": 25000000', '"credit_balance_micro": -1.0'), /credit_balance_micro/);
});

test('validator: str is non-empty and at most 512 characters', () => {
  assertRejected(edited((b) => (b.customers[0].id = '')), /customers\/0\/id/);
  assertRejected(edited((b) => (b.customers[0].id = 'c'.repeat(513))), /customers\/0\/id.*513/);
  assert.deepEqual(snapshotProblems(edited((b) => { b.customers[0].id = 'c'.repeat(512); b.keys[0].customer_id = 'c'.repeat(512); }), wire), []);
  // Python counts code points: 512 astral characters are 1024 UTF-16 units but still 512 characters.
  assert.deepEqual(snapshotProblems(edited((b) => { b.customers[0].id = '😀'.repeat(512); b.keys[0].customer_id = '😀'.repeat(512); }), wire), []);
  assertRejected(edited((b) => (b.customers[0].id = 42)), /customers\/0\/id/);
  assertRejected(edited((b) => (b.customers[0].effective.billing_model = '')), /billing_model/);
});

test('validator: tenant_id is a str, null or absent', () => {
  assert.deepEqual(snapshotProblems(edited((b) => (b.tenant_id = null)), wire), []);
  assert.deepEqual(snapshotProblems(edited((b) => delete b.tenant_id), wire), []);
  assertRejected(edited((b) => (b.tenant_id = '')), /tenant_id/);
  assertRejected(edited((b) => (b.tenant_id = 42)), /tenant_id/);
});

test('validator: ts is what CPython 3.10 fromisoformat takes after Z -> +00:00, at most 64 characters', () => {
  const ok = ['2026-08-04T00:15:00Z', '2026-08-04T00:15:00.123Z', '2026-08-04T00:15:00.123456Z', '2026-08-04T02:15:00+02:00', '2026-08-03T23:15:00.000-01:00'];
  for (const ts of ok) assert.notEqual(parsePython310Timestamp(ts), null, ts);
  const bad = ['2026-08-04T00:15:00.1Z', '2026-08-04T00:15:00.123456789Z', '2026-08-04T00:15:00+0000', '2026-08-04T00:15:00', '2026-08-04T00:15:00z',
    '2026-02-30T00:00:00Z', '2026-08-04T24:00:00Z', '2026-13-01T00:00:00Z', '2026-08-04T00:15:00.12Z', 'yesterday', '2026-08-04T00:15:00+24:00'];
  for (const ts of bad) assert.equal(parsePython310Timestamp(ts), null, ts);
  // The same instant in two spellings.
  assert.equal(parsePython310Timestamp('2026-08-04T02:15:00+02:00'), parsePython310Timestamp('2026-08-04T00:15:00Z'));
  assertRejected(edited((b) => (b.platform_period_end = '2026-09-01T00:00:00.1Z')), /platform_period_end/);
  assertRejected(edited((b) => (b.platform_period_end = '2026-09-01T00:00:00+0000')), /platform_period_end/);
  assertRejected(edited((b) => (b.customers[0].policy_valid_until = '2026-08-05T00:15:00.123456789Z')), /policy_valid_until/);
  assertRejected(edited((b) => (b.generated_at = 1786000000)), /generated_at/);
  // Longer than 64 characters (Python would not even try).
  assertRejected(edited((b) => (b.platform_period_end = '2026-09-01T00:00:00Z' + ' '.repeat(60))), /64 characters/);
  // Offsets other than Z parse, but a server is told to send Z (server form).
  const offset = edited((b) => (b.platform_period_end = '2026-09-01T02:00:00+02:00'));
  assert.deepEqual(snapshotProblems(offset, { ...wire, serverForm: false }), []);
  assertRejected(offset, /should be sent as/);
});

test('validator: generated_at at most 60 s ahead of the client clock; platform_period_end after generated_at', () => {
  assert.deepEqual(snapshotProblems(EXAMPLE, { ...wire, clientNow: new Date(clientNow.getTime() - 60_000) }), []);
  assertRejected(EXAMPLE, /ahead of the client clock/, { ...wire, clientNow: new Date(clientNow.getTime() - 60_001) });
  assertRejected(edited((b) => (b.platform_period_end = b.generated_at)), /platform_period_end.*later/);
  assertRejected(edited((b) => (b.platform_period_end = '2026-08-01T00:00:00Z')), /platform_period_end.*later/);
});

test('validator: uuid is what Python uuid.UUID parses, never all zeros', () => {
  for (const u of ['5b0e8c9a-3f4d-4c2b-8a77-1d2e3f405162', '5B0E8C9A3F4D4C2B8A771D2E3F405162', '{5b0e8c9a-3f4d-4c2b-8a77-1d2e3f405162}', 'urn:uuid:5b0e8c9a-3f4d-4c2b-8a77-1d2e3f405162']) {
    assert.notEqual(parsePythonUuid(u), null, u);
  }
  for (const u of ['5b0e8c9a-3f4d-4c2b-8a77-1d2e3f40516', '5b0e8c9a-3f4d-4c2b-8a77-1d2e3f4051622', 'zb0e8c9a-3f4d-4c2b-8a77-1d2e3f405162', '', 'cus_123']) {
    assert.equal(parsePythonUuid(u), null, u);
  }
  assertRejected(edited((b) => (b.keys[0].id = '00000000-0000-0000-0000-000000000000')), /all-zero/);
  assertRejected(edited((b) => (b.customers[0].usage_policy_id = '00000000-0000-0000-0000-000000000000')), /all-zero/);
  assertRejected(edited((b) => (b.keys[0].id = 'key_1')), /keys\/0\/id/);
  assertRejected(edited((b) => (b.keys[0].id = 12)), /keys\/0\/id/);
  // Parseable, but a server sends the canonical lowercase form (server form).
  const upper = edited((b) => (b.keys[0].id = '7D9F3C1A-2B4E-4F60-8A1B-C2D3E4F5A6B7'));
  assert.deepEqual(snapshotProblems(upper, { ...wire, serverForm: false }), []);
  assertRejected(upper, /canonical lowercase/);
});

test('validator: billable_status_codes: ints 100..599, no duplicates, [] allowed, null rejected', () => {
  assert.deepEqual(snapshotProblems(edited((b) => (b.billable_status_codes = [])), wire), []);
  assert.deepEqual(snapshotProblems(edited((b) => (b.billable_status_codes = [100, 599])), wire), []);
  assertRejected(edited((b) => (b.billable_status_codes = null)), /billable_status_codes.*array/);
  assertRejected(edited((b) => delete b.billable_status_codes), /billable_status_codes.*array/);
  assertRejected(edited((b) => (b.billable_status_codes = [200, 200])), /repeats 200/);
  assertRejected(edited((b) => (b.billable_status_codes = [99])), /100 to 599/);
  assertRejected(edited((b) => (b.billable_status_codes = [600])), /100 to 599/);
  assertRejected(edited((b) => (b.billable_status_codes = ['200'])), /billable_status_codes\/0/);
  assertRejected(replaced('[200, 201]', '[200.0, 201]'), /billable_status_codes\/0/);
});

test('validator: the flat platform_* fields are mandatory (test_snapshot_parser_matches_flat_go_contract)', () => {
  const nestedOnly = edited((b) => {
    b.platform_monthly_allowance = { limit: b.platform_monthly_limit, used: b.platform_monthly_used, remaining: b.platform_monthly_remaining, period_start: '2026-08-01T00:00:00Z', period_end: b.platform_period_end, hard_cap: b.platform_hard_cap };
    for (const f of ['platform_monthly_limit', 'platform_monthly_used', 'platform_monthly_remaining', 'platform_period_end', 'platform_hard_cap']) delete b[f];
  });
  for (const field of ['platform_monthly_limit', 'platform_monthly_used', 'platform_monthly_remaining', 'platform_period_end', 'platform_hard_cap']) {
    assertRejected(nestedOnly, new RegExp(field));
  }
  assertRejected(edited((b) => (b.platform_hard_cap = 'true')), /platform_hard_cap/);
  assertRejected(edited((b) => (b.platform_hard_cap = null)), /platform_hard_cap/);
});

test('validator: remaining is exactly max(0, limit - used), also when used passes the limit', () => {
  assert.deepEqual(snapshotProblems(edited((b) => { b.platform_monthly_used = 1_500_000; b.platform_monthly_remaining = 0; }), wire), []);
  assertRejected(edited((b) => { b.platform_monthly_used = 1_500_000; b.platform_monthly_remaining = -500_000; }), /remaining/);
  assertRejected(edited((b) => { b.platform_monthly_used = 1_500_000; b.platform_monthly_remaining = 1; }), /remaining/);
});

test('validator: customers and keys are required arrays, never null', () => {
  for (const field of ['customers', 'keys']) {
    assertRejected(edited((b) => (b[field] = null)), new RegExp(`/${field}: must be an array`));
    assertRejected(edited((b) => delete b[field]), new RegExp(`/${field}: must be an array`));
  }
  assert.deepEqual(snapshotProblems(edited((b) => { b.customers = []; b.keys = []; }), wire), []);
});

test('validator: customers: unique ids, status active|suspended only (pending only in the full shape)', () => {
  assertRejected(edited((b) => b.customers.push({ ...b.customers[0] })), /repeats customer cus_123/);
  const pending = edited((b) => (b.customers[0].status = 'pending'));
  assertRejected(pending, /status.*active or suspended/);
  assert.deepEqual(snapshotProblems(pending, { ...wire, fullShape: true }), []);
  assert.deepEqual(snapshotProblems(edited((b) => (b.customers[0].status = 'suspended')), wire), []);
  assertRejected(edited((b) => (b.customers[0].status = 'Active')), /status/);
  assertRejected(edited((b) => delete b.customers[0].status), /status/);
});

test('validator: usage_policy_id and policy_valid_until both present or both null/absent', () => {
  assert.deepEqual(snapshotProblems(edited((b) => { b.customers[0].usage_policy_id = null; b.customers[0].policy_valid_until = null; }), wire), []);
  assert.deepEqual(snapshotProblems(edited((b) => { delete b.customers[0].usage_policy_id; delete b.customers[0].policy_valid_until; }), wire), []);
  assertRejected(edited((b) => (b.customers[0].usage_policy_id = null)), /both present or both null/);
  assertRejected(edited((b) => delete b.customers[0].policy_valid_until), /both present or both null/);
  assertRejected(edited((b) => (b.customers[0].usage_policy_id = 'pol_1')), /usage_policy_id/);
});

test('validator: effective is required: rps and price ints, monthly_quota int or null/absent, billing_model str, source a string that may be empty', () => {
  assertRejected(edited((b) => delete b.customers[0].effective), /effective.*required/);
  assertRejected(edited((b) => (b.customers[0].effective = null)), /effective.*required/);
  assertRejected(edited((b) => (b.customers[0].effective.rps = -1)), /effective\/rps/);
  assertRejected(edited((b) => delete b.customers[0].effective.price_per_request_micro), /price_per_request_micro/);
  assert.deepEqual(snapshotProblems(edited((b) => (b.customers[0].effective.monthly_quota = null)), wire), []);
  assert.deepEqual(snapshotProblems(edited((b) => delete b.customers[0].effective.monthly_quota), wire), []);
  assert.deepEqual(snapshotProblems(edited((b) => (b.customers[0].effective.monthly_quota = 0)), wire), []);
  assertRejected(edited((b) => (b.customers[0].effective.monthly_quota = '100')), /monthly_quota/);
  assert.deepEqual(snapshotProblems(edited((b) => (b.customers[0].effective.source = '')), wire), []);
  assertRejected(edited((b) => (b.customers[0].effective.source = null)), /source/);
  assert.deepEqual(snapshotProblems(edited((b) => (b.customers[0].effective.billing_model = 'metered')), wire), []);
});

test('validator: keys: id uuid, customer_id names a customer of the snapshot, key_hash 64 lowercase hex and unique', () => {
  assertRejected(edited((b) => (b.keys[0].customer_id = 'cus_other')), /not a customer of this snapshot/);
  assertRejected(edited((b) => (b.keys[0].key_hash = b.keys[0].key_hash.toUpperCase())), /key_hash/);
  assertRejected(edited((b) => (b.keys[0].key_hash = b.keys[0].key_hash.slice(1))), /key_hash/);
  assertRejected(edited((b) => b.keys.push({ ...b.keys[0], id: '8d9f3c1a-2b4e-4f60-8a1b-c2d3e4f5a6b7' })), /repeats a key_hash/);
  assertRejected(edited((b) => (b.keys[0] = null)), /keys\/0/);
});

test('validator: unknown fields are ignored; the spec SnapshotBody adds tenant_name, balance_seq and a matching nested allowance', () => {
  assert.deepEqual(snapshotProblems(edited((b) => { b.tenant_name = 'x'; b.extra = { any: [1.5, null] }; b.customers[0].balance_seq = 3.5; b.keys[0].extra = true; }), wire), []);
  const full = edited((b) => {
    b.tenant_name = 'Weather API';
    b.customers[0].balance_seq = 7;
    b.platform_monthly_allowance = { limit: 1000000, used: 125000, remaining: 875000, period_start: '2026-08-01T00:00:00Z', period_end: '2026-09-01T00:00:00Z', hard_cap: true };
  });
  assert.deepEqual(snapshotProblems(full, { clientNow }), []);
  assertRejected(edited((b) => (b.tenant_name = 'x')), /platform_monthly_allowance/, { clientNow });
  const mismatch = JSON.parse(full);
  mismatch.platform_monthly_allowance.used = 1;
  assertRejected(JSON.stringify(mismatch), /allowance\/used.*must equal/, { clientNow });
});

test('validator: a repeated object key or text that is not JSON is refused', () => {
  assertRejected(EXAMPLE.replace('"tenant_id": "t_42",', '"tenant_id": "t_42", "tenant_id": "t_43",'), /appears more than once/);
  assertRejected('{"generated_at": ', /invalid JSON/);
  assertRejected('[]', /JSON object/);
  assertRejected('null', /JSON object/);
});

test('validator: verify answers (section 3)', () => {
  assert.ok(verifyProblems('{}').some((p) => /valid/.test(p)));
  assert.ok(verifyProblems('{"valid": "false"}').some((p) => /valid/.test(p)));
  assert.ok(verifyProblems('{"valid": false, "key_id": null}').some((p) => /exactly/.test(p)));
  const body = JSON.parse(VERIFY_EXAMPLE);
  const variants: [(b: any) => void, RegExp][] = [
    [(b) => (b.key_id = 'k1'), /key_id/],
    [(b) => delete b.billable_status_codes, /billable_status_codes/],
    [(b) => (b.billable_status_codes = null), /billable_status_codes/],
    [(b) => (b.customer.status = 'pending'), /status/],
    [(b) => delete b.customer.effective, /effective/],
    [(b) => (b.customer.usage_policy_id = '5b0e8c9a-3f4d-4c2b-8a77-1d2e3f405162'), /both present/],
  ];
  for (const [change, pattern] of variants) {
    const copy = structuredClone(body);
    change(copy);
    const problems = verifyProblems(JSON.stringify(copy), { clientNow, spec: false });
    assert.ok(problems.some((p) => pattern.test(p)), `${pattern}: ${JSON.stringify(problems)}`);
  }
});

test('validator: usage answers (section 4): one entry per item, known keys and statuses', () => {
  const items = [{ idempotency_key: 'a' }, { idempotency_key: 'b' }];
  assert.deepEqual(usageAnswerProblems('{"results": [{"idempotency_key": "b", "status": "duplicate"}, {"idempotency_key": "a", "status": "accepted", "extra": 1}]}', items), []);
  const malformed = [
    '{"results": {}}',
    '{"results": [{"idempotency_key": "a", "status": "accepted"}]}',
    '{"results": [{"idempotency_key": "a", "status": "accepted"}, {"idempotency_key": "a", "status": "accepted"}]}',
    '{"results": [{"idempotency_key": "a", "status": "accepted"}, {"idempotency_key": "c", "status": "accepted"}]}',
    '{"results": [{"idempotency_key": "a", "status": "accepted"}, {"idempotency_key": "b", "status": "ok"}]}',
    '{"results": [{"idempotency_key": "a", "status": "accepted"}, {"idempotency_key": "b", "status": "rejected", "detail": 5}]}',
    '[]',
  ];
  for (const text of malformed) assert.notDeepEqual(usageAnswerProblems(text, items), [], text);
});
