// The account API for end-user keys (spec 4.5, 7): who may call it, options, list, create, rename,
// roll, revoke one and all, the 422s naming their field, audit events and the new-key mail.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { isWellFormedApiKey } from '@gatehouse/protocol';
import { SECOND } from '../../src/platform/clock.js';
import { sha256Hex } from '../../src/platform/crypto.js';
import { accountApi, accountToken, assertKeyError, createKey, keyHolder, patchKeySettings } from '../support/end-user-keys.js';
import { atInstant, authorizeRaw, webTokens } from '../support/issuer-flows.js';
import { pkcePair, signedInPerson, startIssuer, type IssuerFixture } from '../support/issuer.js';
import { apiAuditEvents } from '../support/money.js';
import { assertNoSecretIn } from '../support/signin.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Keys API');
  await patchKeySettings(f, { enabled: true, prefix: 'wx' });
});
after(() => f.t.close());

test('create answers 201 with the key and its whole secret in the spec 4.4 format; only its hash is stored', async () => {
  const holder = await keyHolder(f);
  const created = await holder.api.create({ name: '  laptop  ', resources: [f.server.resource], permissions: ['read:weather'], expires_in_days: 30 });
  assert.equal(created.status, 201, created.text);
  assert.equal(created.headers.get('cache-control'), 'no-store');
  const { key, secret } = created.body;
  assert.match(secret, /^wx_[0-9A-Za-z]{46}$/);
  assert.ok(isWellFormedApiKey(secret), 'the checksum is right');
  assert.deepEqual(Object.keys(created.body).sort(), ['key', 'secret']);
  assert.deepEqual(
    { ...key, id: undefined, created_at: undefined, expires_at: undefined },
    { id: undefined, name: 'laptop', prefix: 'wx', start: secret.slice(0, 7), resources: [f.server.resource], permissions: ['read:weather'], status: 'active', created_at: undefined, expires_at: undefined, last_used_at: null, created_in: 'Weather Web' },
  );
  assert.match(key.id, /^key_[0-9A-Za-z]{20}$/);
  assert.equal(new Date(key.expires_at).getTime() - new Date(key.created_at).getTime(), 30 * 24 * 3600 * 1000);
  const row = await f.t.services.db.selectFrom('end_user_keys').selectAll().where('id', '=', key.id).executeTakeFirstOrThrow();
  assert.equal(row.secret_hash, sha256Hex(secret));
  assertNoSecretIn([JSON.stringify(row)], [secret, secret.slice(3)]);
  // The list never shows a secret again.
  const list = await holder.api.list();
  assert.equal(list.status, 200);
  assert.deepEqual(list.body.keys, [key]);
  assertNoSecretIn([list.text], [secret.slice(7)]);
});

test('the prefix setting applies to new keys only', async () => {
  const holder = await keyHolder(f);
  const before = await createKey(holder.api, f);
  await patchKeySettings(f, { prefix: 'gh2' });
  try {
    const after = await createKey(holder.api, f);
    assert.match(after.secret, /^gh2_/);
    const list = (await holder.api.list()).body.keys;
    assert.deepEqual(list.map((k: { prefix: string }) => k.prefix), ['gh2', 'wx'], 'newest first; the old key keeps its prefix');
    assert.equal(list[1].id, before.key.id);
  } finally {
    await patchKeySettings(f, { prefix: 'wx' });
  }
});

test('options list every server with the permissions the person may put on a key, and the lifetimes', async () => {
  const holder = await keyHolder(f);
  const options = await holder.api.options();
  assert.equal(options.status, 200, options.text);
  assert.deepEqual(options.body, {
    enabled: true,
    prefix: 'wx',
    servers: [{ resource: f.server.resource, name: 'Weather API server', permissions: [{ name: 'read:weather', description: 'Read forecasts', sensitive: false }] }],
    max_lifetime_days: 365,
    default_lifetime_days: 365,
    allow_no_expiry: false,
    max_servers_per_key: 10,
    max_permissions_per_key: 100,
  });
  // A sensitive permission the person holds appears only while the owner allows it.
  const writer = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, { name: 'writer', permissions: [{ server_id: f.server.id, permission: 'read:weather' }, { server_id: f.server.id, permission: 'write:weather' }] });
  const both = await keyHolder(f, { roles: [writer.body.id] });
  const names = async () => (await both.api.options()).body.servers[0].permissions.map((p: { name: string }) => p.name);
  assert.deepEqual(await names(), ['read:weather']);
  await patchKeySettings(f, { sensitive_permissions_allowed: true, max_lifetime_days: null });
  try {
    assert.deepEqual(await names(), ['read:weather', 'write:weather']);
    const open = (await both.api.options()).body;
    assert.deepEqual([open.max_lifetime_days, open.default_lifetime_days, open.allow_no_expiry], [3650, 365, true]);
  } finally {
    await patchKeySettings(f, { sensitive_permissions_allowed: false, max_lifetime_days: 365 });
  }
});

test('401 invalid_token: no token, a malformed or unknown one, an expired one, one for a server, one of another API', async () => {
  const { person, cookie } = await signedInPerson(f);
  const good = await accountToken(f, cookie, person.id);
  const forServer = (await webTokens(f, cookie, person.id)).access_token;
  const cases: [string, string | null, Record<string, string>?][] = [
    ['no Authorization', null],
    ['not Bearer', null, { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
    ['garbage', 'not-a-token'],
    ['a tampered token', good.slice(0, -4) + 'AAAA'],
    ['a token for a server (aud is the server and the issuer)', forServer],
  ];
  for (const [what, token, headers] of cases) {
    const answer = await accountApi(f, token).call('GET', '', undefined, headers);
    assertKeyError(answer, 401, 'invalid_token');
    assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer error="invalid_token"/, what);
  }
  // Expired: past the access token lifetime (3600 s), the same token is refused.
  const api = accountApi(f, good);
  assert.equal((await api.list()).status, 200);
  await atInstant(f.t, f.t.clock.now().getTime() + 3601 * SECOND, async () => assertKeyError(await api.list(), 401, 'invalid_token'));
  // Every route asks first who calls.
  for (const answer of [await accountApi(f, null).options(), await accountApi(f, null).create({}), await accountApi(f, null).rename('key_x', {}), await accountApi(f, null).roll('key_x', {}), await accountApi(f, null).revoke('key_x'), await accountApi(f, null).revokeAll()]) {
    assertKeyError(answer, 401, 'invalid_token');
  }
});

test('403 insufficient_scope with scope="platform:api_keys" for a token of the issuer without the scope', async () => {
  const { person, cookie } = await signedInPerson(f);
  const token = await accountToken(f, cookie, person.id, 'openid profile');
  const answer = await accountApi(f, token).list();
  assertKeyError(answer, 403, 'insufficient_scope');
  assert.equal(answer.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="platform:api_keys"');
});

test('only the owner\'s web apps get platform:api_keys, never with a resource', async () => {
  const { cookie } = await signedInPerson(f);
  const pkce = pkcePair();
  const base = { response_type: 'code', redirect_uri: f.spa.redirectUri, client_id: f.spa.clientId, state: 'st', code_challenge: pkce.challenge, code_challenge_method: 'S256' };
  const spa = await authorizeRaw(f, { ...base, scope: 'openid platform:api_keys' }, cookie);
  assert.equal(spa.location?.searchParams.get('error'), 'invalid_scope');
  const withResource = await authorizeRaw(f, { ...base, client_id: f.web.clientId, redirect_uri: f.web.redirectUri, scope: 'platform:api_keys', resource: f.server.resource }, cookie);
  assert.equal(withResource.location?.searchParams.get('error'), 'invalid_scope');
  // A web app the owner registered as not their own (own_app false) is a third party's (issue 26 item 8).
  const partner = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Partner dashboard', kind: 'web', redirect_uris: ['https://partner.example/cb'], own_app: false });
  assert.equal(partner.status, 200, partner.text);
  const third = await authorizeRaw(f, { ...base, client_id: partner.body.id, redirect_uri: 'https://partner.example/cb', scope: 'openid platform:api_keys' }, cookie);
  assert.equal(third.location?.searchParams.get('error'), 'invalid_scope');
  // The other side: the owner's own web app gets it (the consent screen, not an error).
  const own = await authorizeRaw(f, { ...base, client_id: f.web.clientId, redirect_uri: f.web.redirectUri, scope: 'openid platform:api_keys' }, cookie);
  assert.equal(own.status, 303);
  assert.equal(own.location?.searchParams.get('error'), null, own.location?.href);
  // Marked as the owner's own afterwards, the same app gets it too.
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}/signin/apps/${partner.body.id}`, { own_app: true })).status, 200);
  const now = await authorizeRaw(f, { ...base, client_id: partner.body.id, redirect_uri: 'https://partner.example/cb', scope: 'openid platform:api_keys' }, cookie);
  assert.equal(now.location?.searchParams.get('error'), null, now.location?.href);
});

test('401 insufficient_user_authentication with max_age="600" for create and roll after a sign-in older than 10 minutes', async () => {
  const holder = await keyHolder(f);
  const { key } = await createKey(holder.api, f);
  // The token's auth_time (whole seconds) is the sign-in the rule counts from.
  const authTime = JSON.parse(Buffer.from(holder.token.split('.')[1]!, 'base64url').toString()).auth_time * 1000;
  // Exactly 600 s after the sign-in: still fresh.
  await atInstant(f.t, authTime + 600 * SECOND, async () => {
    assert.equal((await holder.api.create({ name: 'at 600', resources: [f.server.resource], permissions: [] })).status, 201);
    assert.equal((await holder.api.roll(key.id)).status, 200);
  });
  await atInstant(f.t, authTime + 601 * SECOND, async () => {
    for (const answer of [await holder.api.create({ name: 'at 601', resources: [f.server.resource], permissions: [] }), await holder.api.roll(key.id)]) {
      assertKeyError(answer, 401, 'insufficient_user_authentication');
      assert.equal(answer.headers.get('www-authenticate'), 'Bearer error="insufficient_user_authentication", error_description="A sign-in within the last 10 minutes is required", max_age="600"');
    }
    // Everything else works on an older sign-in.
    assert.equal((await holder.api.list()).status, 200);
    assert.equal((await holder.api.options()).status, 200);
    assert.equal((await holder.api.rename(key.id, { name: 'renamed late' })).status, 200);
  });
});

test('create: 403 while keys are off; list, rename and revoke still work', async () => {
  const holder = await keyHolder(f);
  const { key } = await createKey(holder.api, f);
  await patchKeySettings(f, { enabled: false });
  try {
    assertKeyError(await holder.api.create({ name: 'off', resources: [f.server.resource], permissions: [] }), 403, 'access_denied');
    assertKeyError(await holder.api.roll(key.id), 403, 'access_denied');
    assert.equal((await holder.api.options()).body.enabled, false);
    const list = await holder.api.list();
    assert.deepEqual(list.body.keys.map((k: { status: string }) => k.status), ['inactive']);
    assert.equal((await holder.api.rename(key.id, { name: 'kept' })).body.name, 'kept');
    assert.equal((await holder.api.revoke(key.id)).status, 204);
  } finally {
    await patchKeySettings(f, { enabled: true });
  }
});

const name64 = 'n'.repeat(64);
test('422 naming the field: name, resources, permissions, expires_in_days, unknown fields; both sides of every bound', async () => {
  const holder = await keyHolder(f);
  const extra = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Radar', resource_url: 'https://radar.example/', permissions: [{ name: 'read:radar' }] });
  assert.equal(extra.status, 200, extra.text);
  const good = { name: 'ok', resources: [f.server.resource], permissions: ['read:weather'], expires_in_days: 30 };
  const refusedCases: [string, Record<string, unknown>][] = [
    ['name', { name: 'n'.repeat(65) }],
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: undefined }],
    ['resources', { resources: [] }],
    ['resources', { resources: ['https://unknown.example/'] }],
    ['resources', { resources: [f.server.resource, f.server.resource] }],
    ['resources', { resources: Array.from({ length: 11 }, (_, i) => `https://s${i}.example/`) }],
    ['resources', { resources: 'https://api.weather.example/' }],
    ['permissions', { permissions: ['write:weather'] }], // sensitive and not held
    ['permissions', { permissions: ['read:radar'] }], // exposed by a server the key does not name
    ['permissions', { permissions: ['read:nothing'] }],
    ['permissions', { permissions: Array.from({ length: 101 }, (_, i) => `p${i}`) }],
    ['expires_in_days', { expires_in_days: 0 }],
    ['expires_in_days', { expires_in_days: 366 }], // past the owner's 365
    ['expires_in_days', { expires_in_days: null }], // the owner set a limit
    ['expires_in_days', { expires_in_days: 1.5 }],
    ['expires_in_days', { expires_in_days: '30' }],
    ['owner', { owner: 'someone else' }],
  ];
  for (const [field, change] of refusedCases) {
    const answer = await holder.api.create({ ...good, ...change });
    assertKeyError(answer, 422, 'invalid_request', field);
  }
  // The other sides of the bounds.
  for (const change of [{ name: name64 }, { name: 'x' }, { expires_in_days: 365 }, { expires_in_days: 1 }, { permissions: [] }, { expires_in_days: undefined }]) {
    const answer = await holder.api.create({ ...good, ...change });
    assert.equal(answer.status, 201, `${JSON.stringify(change)}: ${answer.text}`);
  }
  const defaulted = (await holder.api.list()).body.keys[0];
  assert.equal(new Date(defaulted.expires_at).getTime() - new Date(defaulted.created_at).getTime(), 365 * 24 * 3600 * 1000, 'without expires_in_days, the longest lifetime');
  // No limit: up to 3650 days, or never; never past 3650.
  await patchKeySettings(f, { max_lifetime_days: null });
  try {
    const never = await holder.api.create({ ...good, expires_in_days: null });
    assert.equal(never.status, 201, never.text);
    assert.equal(never.body.key.expires_at, null);
    assert.equal((await holder.api.create({ ...good, expires_in_days: 3650 })).status, 201);
    assertKeyError(await holder.api.create({ ...good, expires_in_days: 3651 }), 422, 'invalid_request', 'expires_in_days');
  } finally {
    await patchKeySettings(f, { max_lifetime_days: 365 });
  }
  // Ten servers is the bound: a key may name every server of the service up to ten.
  const ten = [f.server.resource, 'https://radar.example/'];
  for (let i = 0; i < 8; i++) {
    const s = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: `S${i}`, resource_url: `https://s${i}.example/` });
    assert.equal(s.status, 200, s.text);
    ten.push(`https://s${i}.example/`);
  }
  const wide = await holder.api.create({ ...good, resources: ten });
  assert.equal(wide.status, 201, wide.text);
  assert.deepEqual(wide.body.key.resources, ten);
  // Rename: the same name bounds, at the field's own name.
  const id = wide.body.key.id;
  assert.equal((await holder.api.rename(id, { name: name64 })).body.name, name64);
  assertKeyError(await holder.api.rename(id, { name: 'n'.repeat(65) }), 422, 'invalid_request', 'name');
  assertKeyError(await holder.api.rename(id, { name: 'x', resources: [] }), 422, 'invalid_request', 'resources');
  assertKeyError(await holder.api.roll(id, { old_secret_lasts_hours: 2 }), 422, 'invalid_request', 'old_secret_lasts_hours');
  assertKeyError(await holder.api.roll(id, {}), 422, 'invalid_request', 'old_secret_lasts_hours');
  for (const s of ten.slice(2)) {
    const servers = (await f.owner.client.get(`/apis/${f.apiId}/signin/servers`)).body.servers as { id: string; resource_url: string }[];
    await f.owner.client.delete(`/apis/${f.apiId}/signin/servers/${servers.find((x) => x.resource_url === s)!.id}`);
  }
  await f.owner.client.delete(`/apis/${f.apiId}/signin/servers/${extra.body.id}`);
});

test('a sensitive permission goes on a key only while the owner allows it', async () => {
  const writer = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, { name: 'editor-role', permissions: [{ server_id: f.server.id, permission: 'write:weather' }] });
  const holder = await keyHolder(f, { roles: [writer.body.id] });
  const body = { name: 'w', resources: [f.server.resource], permissions: ['write:weather'] };
  assertKeyError(await holder.api.create(body), 422, 'invalid_request', 'permissions');
  await patchKeySettings(f, { sensitive_permissions_allowed: true });
  try {
    assert.equal((await holder.api.create(body)).status, 201);
  } finally {
    await patchKeySettings(f, { sensitive_permissions_allowed: false });
  }
});

test('rename answers the key; roll answers the key and a new secret; revoke answers 204 and the key leaves the list at once', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f);
  const renamed = await holder.api.rename(key.id, { name: ' desktop ' });
  assert.equal(renamed.status, 200, renamed.text);
  assert.deepEqual(renamed.body, { ...key, name: 'desktop' });
  const rolled = await holder.api.roll(key.id, { old_secret_lasts_hours: 24 });
  assert.equal(rolled.status, 200, rolled.text);
  assert.notEqual(rolled.body.secret, secret);
  assert.ok(isWellFormedApiKey(rolled.body.secret));
  assert.equal(rolled.body.key.start, rolled.body.secret.slice(0, 7));
  assert.equal(rolled.body.key.id, key.id);
  assert.equal(new Date(rolled.body.key.previous_secret_expires_at).getTime() - f.t.clock.now().getTime() <= 24 * 3600 * 1000, true);
  const revoked = await holder.api.revoke(key.id);
  assert.equal(revoked.status, 204);
  assert.equal(revoked.text, '');
  assert.deepEqual((await holder.api.list()).body.keys, []);
  // A revoked key is gone for every change.
  assertKeyError(await holder.api.revoke(key.id), 404, 'not_found');
  assertKeyError(await holder.api.rename(key.id, { name: 'x' }), 404, 'not_found');
  assertKeyError(await holder.api.roll(key.id), 404, 'not_found');
});

test('revoke all answers 204 and empties the list; another person\'s keys are not found and not touched', async () => {
  const alice = await keyHolder(f);
  const bob = await keyHolder(f);
  const a1 = await createKey(alice.api, f, { name: 'a1' });
  await createKey(alice.api, f, { name: 'a2' });
  const b1 = await createKey(bob.api, f, { name: 'b1' });
  for (const answer of [await alice.api.rename(b1.key.id, { name: 'mine' }), await alice.api.roll(b1.key.id), await alice.api.revoke(b1.key.id)]) assertKeyError(answer, 404, 'not_found');
  assert.equal((await alice.api.revokeAll()).status, 204);
  assert.deepEqual((await alice.api.list()).body.keys, []);
  assert.equal((await alice.api.revokeAll()).status, 204, 'nothing left to revoke');
  assert.deepEqual((await bob.api.list()).body.keys.map((k: { name: string }) => k.name), ['b1']);
  assertKeyError(await alice.api.rename(a1.key.id, { name: 'back' }), 404, 'not_found');
});

test('audit: create, roll and revoke show the key\'s id and start, never the key, and name the app', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f, { name: 'audited' });
  const rolled = (await holder.api.roll(key.id)).body;
  assert.equal((await holder.api.revoke(key.id)).status, 204);
  const other = await createKey(holder.api, f, { name: 'other' });
  assert.equal((await holder.api.revokeAll()).status, 204);
  const events = (await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId)).filter((e) => e.action.startsWith('end_user_key.') && [key.id, holder.person.id, other.key.id].includes(e.target_id));
  assert.deepEqual(events.map((e) => e.action), ['end_user_key.revoke_all', 'end_user_key.create', 'end_user_key.revoke', 'end_user_key.roll', 'end_user_key.create']);
  const [all, , revoke, roll, create] = events as any[];
  assert.equal(create.actor_type, 'person');
  assert.equal(create.actor_id, holder.person.id);
  assert.equal(create.summary, `${holder.person.email} created the API key audited (${key.start}…) in Weather Web`);
  assert.deepEqual([create.details.key_id, create.details.start, create.details.app.name], [key.id, key.start, 'Weather Web']);
  assert.deepEqual([roll.details.previous_start, roll.details.start], [key.start, rolled.key.start]);
  assert.equal(revoke.details.start, rolled.key.start);
  assert.deepEqual(all.details.keys, [{ id: other.key.id, start: other.key.start }]);
  assertNoSecretIn(events.map((e) => JSON.stringify(e)), [secret.slice(8), rolled.secret.slice(8), other.secret.slice(8)]);
});

test('a new key mails its owner where it was made, with a link to the keys page', async () => {
  const holder = await keyHolder(f);
  f.t.mail.take(holder.person.email);
  const { key } = await createKey(holder.api, f, { name: 'mailed' });
  const mail = await f.t.mail.waitFor(holder.person.email, /A new API key was created for your Keys API account/);
  assert.match(mail.text, new RegExp(`"mailed" \\(${key.start}…\\) was created for your Keys API account in Weather Web`));
  assert.ok(mail.text.includes(`${f.issuer}/api-keys`), mail.text);
});

test('the account API is not in the console: /api/v1 on the console host answers 404', async () => {
  const answer = await f.t.client().get('/v1/me/api-keys');
  assert.equal(answer.status, 404);
});

test('100 permissions on a key is the bound: 100 pass, the 101st is refused', async () => {
  const names = Array.from({ length: 101 }, (_, i) => `p:${String(i).padStart(3, '0')}`);
  const wide = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Wide', resource_url: 'https://wide.example/', permissions: names.slice(0, 100).map((name) => ({ name })) });
  assert.equal(wide.status, 200, wide.text);
  const role = await f.owner.client.post(`/apis/${f.apiId}/signin/roles`, { name: 'wide', permissions: names.slice(0, 100).map((permission) => ({ server_id: wide.body.id, permission })) });
  assert.equal(role.status, 200, role.text);
  const holder = await keyHolder(f, { roles: [role.body.id] });
  const body = { name: 'wide', resources: ['https://wide.example/'] };
  const hundred = await holder.api.create({ ...body, permissions: names.slice(0, 100) });
  assert.equal(hundred.status, 201, hundred.text);
  assert.equal(hundred.body.key.permissions.length, 100);
  assertKeyError(await holder.api.create({ ...body, permissions: names }), 422, 'invalid_request', 'permissions');
  assert.equal((await f.owner.client.delete(`/apis/${f.apiId}/signin/servers/${wide.body.id}`)).status, 204);
});
