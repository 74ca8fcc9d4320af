// Introspection of end-user keys by server credentials (spec 4.3): the answer's fields in the
// spec's order, aud as a string or an array, exp and requests_per_minute only when there is one,
// active only to the servers a key names, and a scope recomputed at every check.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { keyChecksum } from '@gatehouse/protocol';
import { assertActive, assertInactive, createKey, introspectKey, keyHolder, patchKeySettings } from '../support/end-user-keys.js';
import { introspect, webAuth } from '../support/issuer-flows.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
let radar: { id: string; clientId: string; secret: string; resource: string };
let tides: { id: string; clientId: string; secret: string; resource: string };
let allRoles: string;
before(async () => {
  f = await startIssuer('Introspected Keys API');
  await patchKeySettings(f, { enabled: true });
  const made = async (name: string, resource: string, extra: Record<string, unknown>) => {
    const answer = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name, resource_url: resource, ...extra });
    assert.equal(answer.status, 200, answer.text);
    return { id: answer.body.id, clientId: answer.body.client_id, secret: answer.body.client_secret, resource };
  };
  radar = await made('Radar', 'https://radar.example/', { permissions: [{ name: 'read:radar' }, { name: 'read:weather' }], requests_per_minute: 120 });
  tides = await made('Tides', 'https://tides.example/', { permissions: [{ name: 'read:tides' }] });
  const role = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, {
    name: 'everything',
    permissions: [
      { server_id: f.server.id, permission: 'read:weather' }, { server_id: f.server.id, permission: 'write:weather' },
      { server_id: radar.id, permission: 'read:radar' }, { server_id: radar.id, permission: 'read:weather' }, { server_id: tides.id, permission: 'read:tides' },
    ],
  });
  assert.equal(role.status, 200, role.text);
  allRoles = role.body.id;
});
after(() => f.t.close());

const seconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

test('an active key: exactly the fields of spec 4.3 in its order, aud a string for one server, Cache-Control max-age=30', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f);
  const answer = await introspectKey(f, secret);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.headers.get('cache-control'), 'max-age=30');
  assert.equal(
    answer.text,
    JSON.stringify({ active: true, token_use: 'api_key', key_id: key.id, sub: holder.person.id, scope: 'read:weather', aud: f.server.resource, iss: f.issuer, iat: seconds(key.created_at as string), exp: seconds(key.expires_at as string) }),
  );
});

test('a key naming several servers: aud is every server it names, in its order; requests_per_minute where the server sets one; inactive elsewhere', async () => {
  const holder = await keyHolder(f, { roles: [allRoles] });
  const { secret } = await createKey(holder.api, f, { resources: [radar.resource, f.server.resource], permissions: ['read:weather', 'read:radar'] });
  const atRadar = await assertActive(f, secret, 'radar', radar);
  assert.deepEqual(atRadar.aud, [radar.resource, f.server.resource]);
  assert.equal(atRadar.scope, 'read:weather read:radar', 'the permissions each server exposes, in the key\'s order');
  assert.equal((atRadar as unknown as { requests_per_minute: number }).requests_per_minute, 120);
  const atWeather = await assertActive(f, secret, 'weather');
  assert.equal(atWeather.scope, 'read:weather');
  assert.ok(!('requests_per_minute' in atWeather), 'no limit set, no field');
  // Tides is not named: exactly inactive, as for anything else.
  assertInactive(await introspectKey(f, secret, tides), 'a server the key does not name');
});

test('a key that never expires has no exp', async () => {
  await patchKeySettings(f, { max_lifetime_days: null });
  try {
    const holder = await keyHolder(f);
    const { secret } = await createKey(holder.api, f, { expires_in_days: null });
    const body = await assertActive(f, secret);
    assert.ok(!('exp' in body), JSON.stringify(body));
  } finally {
    await patchKeySettings(f, { max_lifetime_days: 365 });
  }
});

test('inactive: a web app asking, a wrong checksum, an unknown well-formed key, the wrong case', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  assertInactive(await introspect(f, secret, webAuth(f)), 'a web app with its own secret');
  const body = secret.slice(0, -6);
  const wrongChecksum = body + (keyChecksum(body) === '000000' ? '000001' : '000000');
  assertInactive(await introspectKey(f, wrongChecksum), 'wrong checksum');
  const other = 'key_' + 'A'.repeat(40);
  assertInactive(await introspectKey(f, other + keyChecksum(other)), 'unknown key');
  assertInactive(await introspectKey(f, secret.toUpperCase()), 'upper case');
});

test('the scope is recomputed at every check: a removed role, a permission the server stops exposing, sensitive ones turned off', async () => {
  const holder = await keyHolder(f, { roles: [allRoles] });
  await patchKeySettings(f, { sensitive_permissions_allowed: true });
  const { secret } = await createKey(holder.api, f, { permissions: ['read:weather', 'write:weather'] });
  assert.equal((await assertActive(f, secret)).scope, 'read:weather write:weather');
  // Spec 5.6: turning sensitive permissions off removes them at the next check.
  await patchKeySettings(f, { sensitive_permissions_allowed: false });
  assert.equal((await assertActive(f, secret)).scope, 'read:weather');
  await patchKeySettings(f, { sensitive_permissions_allowed: true });
  assert.equal((await assertActive(f, secret)).scope, 'read:weather write:weather');
  await patchKeySettings(f, { sensitive_permissions_allowed: false });
  // The person keeps only the reader role: write:weather is no longer theirs to hold.
  const reader = await f.owner.client.put(`/apis/${f.apiId}/signin/people/${holder.person.id}/roles`, { role_ids: [f.roleId] });
  assert.equal(reader.status, 200, reader.text);
  assert.equal((await assertActive(f, secret)).scope, 'read:weather');
  // Spec 3: every permission taken away leaves the key active with an empty scope.
  assert.equal((await f.owner.client.put(`/apis/${f.apiId}/signin/people/${holder.person.id}/roles`, { role_ids: [] })).status, 200);
  const empty = await assertActive(f, secret);
  assert.equal(empty.scope, '');
  // Roles back; then a server stops exposing a permission the key lists.
  assert.equal((await f.owner.client.put(`/apis/${f.apiId}/signin/people/${holder.person.id}/roles`, { role_ids: [allRoles] })).status, 200);
  const atRadar = await createKey(holder.api, f, { resources: [radar.resource], permissions: ['read:radar', 'read:weather'] });
  assert.equal((await assertActive(f, atRadar.secret, 'radar', radar)).scope, 'read:radar read:weather');
  const narrowed = await f.owner.client.patch(`/apis/${f.apiId}/signin/servers/${radar.id}`, { permissions: [{ name: 'read:weather' }] });
  assert.equal(narrowed.status, 200, narrowed.text);
  assert.equal((await assertActive(f, atRadar.secret, 'radar', radar)).scope, 'read:weather');
});

test('a deleted server drops out of aud and the key answers inactive to nobody else', async () => {
  const gone = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Gone', resource_url: 'https://gone.example/' });
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f, { resources: [f.server.resource, 'https://gone.example/'] });
  assert.deepEqual((await assertActive(f, secret)).aud, [f.server.resource, 'https://gone.example/']);
  assert.equal((await f.owner.client.delete(`/apis/${f.apiId}/signin/servers/${gone.body.id}`)).status, 204);
  assert.equal((await assertActive(f, secret)).aud, f.server.resource);
  assert.deepEqual((await holder.api.list()).body.keys.find((k: { id: string }) => k.id === key.id).resources, [f.server.resource]);
});

test('a check records when the key was last used', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f);
  assert.equal((await holder.api.list()).body.keys[0].last_used_at, null);
  await assertActive(f, secret);
  const used = (await holder.api.list()).body.keys.find((k: { id: string }) => k.id === key.id).last_used_at;
  assert.ok(used && Math.abs(new Date(used).getTime() - f.t.clock.now().getTime()) < 60_000, used);
});
