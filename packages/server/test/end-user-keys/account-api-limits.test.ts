// The limits of spec 8 on the account API, each on both sides of its bound with the clock moved:
// 25 active keys, 20 new keys a day, 20 requests a second per person with bursts of 60, and 1000
// changes an hour.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, MINUTE } from '../../src/platform/clock.js';
import { ACCOUNT_API_CHANGES } from '../../src/end-user-keys/limits.js';
import { accountApi, assertKeyError, createKey, freshToken, keyHolder, patchKeySettings, seedKeys } from '../support/end-user-keys.js';
import { holdClock, inBatches } from '../support/issuer-flows.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Key Limits API');
  await patchKeySettings(f, { enabled: true });
});
after(() => f.t.close());

test('20 new keys a day (the 21st: 429 with Retry-After until the oldest leaves the day), 25 active keys (the 26th: 409); expired and revoked keys are not active', async () => {
  const holder = await keyHolder(f);
  const first = await createKey(holder.api, f, { name: 'k1', expires_in_days: 1 });
  await seedKeys(f, holder.person.id, 18);
  await createKey(holder.api, f, { name: 'k20' });
  const twentyFirst = await holder.api.create({ name: 'k21', resources: [f.server.resource], permissions: [] });
  assertKeyError(twentyFirst, 429, 'temporarily_unavailable');
  const retryAfter = Number(twentyFirst.headers.get('retry-after'));
  assert.ok(retryAfter > DAY / 1000 - 3600 && retryAfter <= DAY / 1000, `Retry-After ${retryAfter} is until the first key of the day leaves it`);
  // A day later the first key has expired too: 19 active; 6 more make 25.
  f.t.clock.advance(DAY + MINUTE);
  const api = accountApi(f, await freshToken(f, holder.person.id));
  const listed = (await api.list()).body.keys as { id: string; status: string }[];
  assert.equal(listed.length, 20, 'an expired key stays listed');
  assert.equal(listed.find((k) => k.id === first.key.id)!.status, 'expired');
  await seedKeys(f, holder.person.id, 5);
  await createKey(api, f, { name: 'the 25th' });
  assertKeyError(await api.create({ name: 'k26', resources: [f.server.resource], permissions: [] }), 409, 'key_limit');
  // A revoked key frees its place.
  assert.equal((await api.revoke(listed[0]!.id)).status, 204);
  await createKey(api, f, { name: 'in its place' });
  assertKeyError(await api.create({ name: 'k26 again', resources: [f.server.resource], permissions: [] }), 409, 'key_limit');
});

test('20 requests a second per person with bursts up to 60: the 61st at once is 429, another person is not limited, time refills it', async () => {
  const alice = await keyHolder(f);
  const bob = await keyHolder(f);
  const clock = holdClock(f.t);
  try {
    const statuses = await inBatches(60, 10, () => alice.api.list().then((a) => a.status));
    assert.deepEqual(new Set(statuses), new Set([200]));
    const over = await alice.api.options();
    assertKeyError(over, 429, 'temporarily_unavailable');
    assert.equal(over.headers.get('retry-after'), '1');
    assert.equal((await bob.api.list()).status, 200);
    // 50 ms is one request's worth at 20 a second.
    clock.advance(50);
    assert.equal((await alice.api.list()).status, 200);
    assert.equal((await alice.api.list()).status, 429);
  } finally {
    clock.release();
  }
});

test('1000 changes an hour per person: the 1000th change passes, the 1001st is 429; reading is not a change', async () => {
  const holder = await keyHolder(f);
  const clock = holdClock(f.t);
  try {
    const { key } = await createKey(holder.api, f);
    // With the creation, 999 changes spent as the account API spends them (its own bucket,
    // keyed by API and person), time held still.
    for (let i = 0; i < 998; i++) assert.ok((await f.t.services.tokenBuckets.take(ACCOUNT_API_CHANGES, `${f.apiId}:${holder.person.id}`)).allowed);
    assert.equal((await holder.api.rename(key.id, { name: 'change 1000' })).status, 200);
    const over = await holder.api.rename(key.id, { name: 'change 1001' });
    assertKeyError(over, 429, 'temporarily_unavailable');
    assert.ok(Number(over.headers.get('retry-after')) >= 1);
    assertKeyError(await holder.api.revoke(key.id), 429, 'temporarily_unavailable');
    assert.equal((await holder.api.list()).status, 200, 'reading is not a change');
    // The hour's allowance comes back at 1000 an hour: one change per 3.6 s.
    clock.advance(3600);
    assert.equal((await holder.api.rename(key.id, { name: 'refilled' })).status, 200);
  } finally {
    clock.release();
  }
});
