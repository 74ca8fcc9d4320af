// The streamed snapshot (issue 27 item 3; docs/decisions.md, "The snapshot streams"): over several
// batches of customers and keys, its bytes are the whole build's (the way it was served before),
// in both shapes, with archived customers, revoked keys and a live key of an archived customer
// left out as before; its ETag answers 304 until a change, and it carries sync_cursor.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { SNAPSHOT_BATCH } from '../../src/sdk-sync/snapshot-stream.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, sdkRequest } from '../support/money.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const withoutStamp = (text: string) => text.replace(/^\{"generated_at":"[^"]+",/, '{');

test('snapshot stream: the bytes of the whole build over several batches, in both shapes; 304 until a change', async () => {
  const f = await createApi(t, { name: 'Streamed' }, owner);
  const db = t.database.db;
  // One through the console first (the free plan's limit counts customers).
  const keyed = await createCustomer(t, f, 'Through The Console');
  await createKey(f, keyed.id);
  const n = 2 * SNAPSHOT_BATCH + 7;
  const now = t.clock.now();
  // Straight into the tables, as the bench does: more customers than a batch, twice.
  await sql`insert into customers (id, api_id, name, email, status, created_at, updated_at, balance_micro)
    select 'cus_s' || lpad(g::text, 6, '0'), ${f.apiId}, 'Customer ' || g, 'c' || g || '@stream.test', case when g % 97 = 0 then 'pending' else 'active' end, ${now}, ${now}, g * 1000 - 50000
    from generate_series(1, ${n}) g`.execute(db);
  await sql`insert into usage_policies (id, api_id, customer_id, price_per_request_micro, rps, monthly_quota, billing_model, source, billable_status_codes, created_at)
    select gen_random_uuid(), ${f.apiId}, id, 1000, 10, case when id like '%3' then 500 else null end, 'payg', 'payg', '{200}', ${now} from customers where api_id = ${f.apiId} and id like 'cus_s%' and id not like '%5'`.execute(db);
  await sql`update customers c set usage_policy_id = u.id from usage_policies u where u.customer_id = c.id and c.api_id = ${f.apiId}`.execute(db);
  await sql`insert into customer_keys (id, api_id, customer_id, name, prefix, key_hash, created_at, revoked_at)
    select gen_random_uuid(), ${f.apiId}, c.id, 'key ' || k, 'test_', encode(sha256((c.id || ':' || k)::bytea), 'hex'), ${now}, case when k = 2 and c.id like '%7' then ${now}::timestamptz else null end
    from customers c cross join generate_series(1, 2) k where c.api_id = ${f.apiId} and c.id like 'cus_s%'`.execute(db);
  // An archived customer whose key was left live: neither is in the snapshot, as before.
  await sql`update customers set archived_at = ${now} where id = 'cus_s000011'`.execute(db);
  const api = (await t.services.apis.findById(db, f.apiId))!;

  for (const shape of ['', '?shape=full']) {
    const streamed = await sdkRequest(t, f.secret, 'GET', `/sdk/v1/snapshot${shape}`);
    assert.equal(streamed.status, 200);
    const whole = await t.services.snapshots.build(api, shape !== '');
    assert.equal(withoutStamp(streamed.text), withoutStamp(whole.json), `the same bytes${shape}`);
    const body = JSON.parse(streamed.text) as { customers: unknown[]; keys: unknown[]; sync_cursor: string };
    assert.equal(body.customers.length, n - 1 + 1, 'all but the archived one, and the console one');
    assert.ok(body.keys.length > 2 * SNAPSHOT_BATCH, 'keys span batches too');
    assert.match(body.sync_cursor, /^[1-9][0-9]*$/);
  }

  const first = await sdkRequest(t, f.secret, 'GET', '/sdk/v1/snapshot');
  const etag = first.headers.get('etag')!;
  const unchanged = await sdkRequest(t, f.secret, 'GET', '/sdk/v1/snapshot', undefined, { headers: { 'if-none-match': etag } });
  assert.equal(unchanged.status, 304);
  await sql`update customers set balance_micro = balance_micro + 1, balance_seq = balance_seq + 1 where id = 'cus_s000042'`.execute(db);
  const changed = await sdkRequest(t, f.secret, 'GET', '/sdk/v1/snapshot', undefined, { headers: { 'if-none-match': etag } });
  assert.equal(changed.status, 200, 'a balance moved: a new ETag and the body');
  assert.notEqual(changed.headers.get('etag'), etag);
  assert.equal(withoutStamp(changed.text), withoutStamp((await t.services.snapshots.build(api, false)).json));
});
