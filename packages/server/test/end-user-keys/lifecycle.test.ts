// The lifecycle of an end-user key (spec 3), seen at introspection and in the person's list, with
// the clock moved across every bound: revocation, expiry, rolling with 0, 1 or 24 hours of grace
// (never more than two secrets), and the conditions that make a key inactive without deleting it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR, SECOND } from '../../src/platform/clock.js';
import { accountApi, assertActive, assertInactive, assertKeyError, catalogueWithoutFreeKeys, createKey, freshToken, introspectKey, keyHolder, patchKeySettings, setPlatformPlan } from '../support/end-user-keys.js';
import { atInstant } from '../support/issuer-flows.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { suspend } from '../support/pages.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Key Lifecycle API', { PLATFORM_PLANS_FILE: catalogueWithoutFreeKeys() });
  await setPlatformPlan(f, 'growth');
  await patchKeySettings(f, { enabled: true });
});
after(() => f.t.close());

const now = () => f.t.clock.now().getTime();

test('revoked: inactive at its next check and gone from the list at once', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f);
  await assertActive(f, secret);
  assert.equal((await holder.api.revoke(key.id)).status, 204);
  assertInactive(await introspectKey(f, secret), 'revoked');
  assert.deepEqual((await holder.api.list()).body.keys, []);
});

test('revoke all: every key inactive at once', async () => {
  const holder = await keyHolder(f);
  const keys = [await createKey(holder.api, f, { name: 'a' }), await createKey(holder.api, f, { name: 'b' })];
  assert.equal((await holder.api.revokeAll()).status, 204);
  for (const { secret } of keys) assertInactive(await introspectKey(f, secret));
});

test('expired: active until its exp, inactive from it on, still listed as expired, and cannot be rolled', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f, { expires_in_days: 1 });
  const exp = new Date(key.expires_at as string).getTime();
  await atInstant(f.t, exp - SECOND, () => assertActive(f, secret, 'a second before'));
  await atInstant(f.t, exp, async () => {
    assertInactive(await introspectKey(f, secret), 'at exp');
    // A day on, the person signs in again (the first token expired); a roll needs that anyway.
    const api = accountApi(f, await freshToken(f, holder.person.id));
    const listed = (await api.list()).body.keys;
    assert.deepEqual(listed.map((k: { id: string; status: string }) => [k.id, k.status]), [[key.id, 'expired']]);
    assertKeyError(await api.roll(key.id), 409, 'key_expired');
    assert.equal((await api.rename(key.id, { name: 'old' })).status, 200, 'renaming still works');
  });
});

test('roll with 0 hours: the old secret ends at once, the new one works', async () => {
  const holder = await keyHolder(f);
  const { key, secret: first } = await createKey(holder.api, f);
  const rolled = await holder.api.roll(key.id, { old_secret_lasts_hours: 0 });
  assert.equal(rolled.status, 200, rolled.text);
  assertInactive(await introspectKey(f, first), 'the old secret');
  const body = await assertActive(f, rolled.body.secret, 'the new secret');
  assert.equal(body.key_id, key.id, 'same key, same settings');
  assert.equal(body.scope, 'read:weather');
  assert.ok(!('previous_secret_expires_at' in rolled.body.key));
});

for (const hours of [1, 24]) {
  test(`roll with ${hours} hours: the old secret works until then, not a second after`, async () => {
    const holder = await keyHolder(f);
    const { key, secret: first } = await createKey(holder.api, f);
    const rolled = await holder.api.roll(key.id, { old_secret_lasts_hours: hours });
    assert.equal(rolled.status, 200, rolled.text);
    const end = new Date(rolled.body.key.previous_secret_expires_at).getTime();
    assert.ok(Math.abs(end - now() - hours * HOUR) < 5 * SECOND, 'the grace is as chosen');
    await atInstant(f.t, end - SECOND, async () => {
      await assertActive(f, first, 'old, a second before');
      await assertActive(f, rolled.body.secret, 'new');
    });
    await atInstant(f.t, end, async () => {
      assertInactive(await introspectKey(f, first), 'old, at the end of its grace');
      await assertActive(f, rolled.body.secret, 'new');
      const listed = await accountApi(f, await freshToken(f, holder.person.id)).list();
      assert.ok(!('previous_secret_expires_at' in listed.body.keys[0]), 'the list stops showing the old secret');
    });
  });
}

test('never more than two secrets: rolling again ends every older secret at once', async () => {
  const holder = await keyHolder(f);
  const { key, secret: a } = await createKey(holder.api, f);
  const b = (await holder.api.roll(key.id, { old_secret_lasts_hours: 24 })).body.secret;
  await assertActive(f, a, 'a in its grace');
  const c = (await holder.api.roll(key.id, { old_secret_lasts_hours: 24 })).body.secret;
  assertInactive(await introspectKey(f, a), 'a, two rolls ago');
  await assertActive(f, b, 'b in its grace');
  await assertActive(f, c, 'c');
  const d = (await holder.api.roll(key.id, { old_secret_lasts_hours: 0 })).body.secret;
  assertInactive(await introspectKey(f, b), 'b');
  assertInactive(await introspectKey(f, c), 'c, rolled with no grace');
  await assertActive(f, d, 'd');
});

test('a suspended person: their keys answer inactive and are kept; reactivated, the keys work again', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  await suspend(f, holder.person.id);
  assertInactive(await introspectKey(f, secret), 'suspended');
  // Spec 3: a suspended person's tokens are inactive too.
  assertKeyError(await holder.api.list(), 401, 'invalid_token');
  const back = await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${holder.person.id}`, { status: 'active' });
  assert.equal(back.status, 200, back.text);
  await assertActive(f, secret, 'reactivated');
});

test('a paused service: keys inactive and kept; the person can still list, rename and revoke, not create or roll', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f);
  const spare = await createKey(holder.api, f, { name: 'spare' });
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/suspend`, { reason: 'maintenance' })).status, 200);
  try {
    assertInactive(await introspectKey(f, secret), 'paused');
    const list = await holder.api.list();
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(list.body.keys.map((k: { status: string }) => k.status), ['inactive', 'inactive']);
    assert.equal((await holder.api.rename(key.id, { name: 'paused' })).status, 200);
    assert.equal((await holder.api.revoke(spare.key.id)).status, 204);
    assertKeyError(await holder.api.create({ name: 'no', resources: [f.server.resource], permissions: [] }), 403, 'access_denied');
    assertKeyError(await holder.api.roll(key.id), 403, 'access_denied');
  } finally {
    assert.equal((await f.owner.client.post(`/apis/${f.apiId}/resume`)).status, 200);
  }
  await assertActive(f, secret, 'resumed');
});

test('keys turned off: inactive and kept; turned on again, the same keys work', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  await patchKeySettings(f, { enabled: false });
  try {
    assertInactive(await introspectKey(f, secret), 'keys off');
    assert.equal((await holder.api.list()).body.keys.length, 1);
  } finally {
    await patchKeySettings(f, { enabled: true });
  }
  await assertActive(f, secret, 'keys on again');
});

test('a platform plan without keys: inactive and kept; a plan with keys brings them back', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  await setPlatformPlan(f, 'free');
  try {
    assertInactive(await introspectKey(f, secret), 'free lacks keys here');
    assert.equal((await holder.api.list()).body.keys[0].status, 'inactive');
    assertKeyError(await holder.api.create({ name: 'no', resources: [f.server.resource], permissions: [] }), 403, 'access_denied');
  } finally {
    await setPlatformPlan(f, 'growth');
  }
  await assertActive(f, secret, 'growth');
});

test('longest lifetime changes apply to new keys only', async () => {
  const holder = await keyHolder(f);
  const { key } = await createKey(holder.api, f, { expires_in_days: 300 });
  await patchKeySettings(f, { max_lifetime_days: 30 });
  try {
    assertKeyError(await holder.api.create({ name: 'long', resources: [f.server.resource], permissions: [], expires_in_days: 31 }), 422, 'invalid_request', 'expires_in_days');
    assert.equal((await holder.api.create({ name: 'short', resources: [f.server.resource], permissions: [], expires_in_days: 30 })).status, 201);
    const kept = (await holder.api.list()).body.keys.find((k: { id: string }) => k.id === key.id);
    assert.equal(new Date(kept.expires_at).getTime() - new Date(kept.created_at).getTime(), 300 * DAY);
  } finally {
    await patchKeySettings(f, { max_lifetime_days: 365 });
  }
});
