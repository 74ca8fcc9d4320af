// Sign-in service settings and signing keys in the owner console (DESIGN 8): defaults, every bound
// on both sides, a refused change changes nothing, roles, another workspace's API, audit, and the
// signing key rotation that keeps the old key published (spec 4.3).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import type { SignedUp } from '../support/flows.js';
import { signUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, type ApiFixture } from '../support/money.js';
import { expectStatus, startWithSignin } from '../support/signin.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let admin: Member;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, admin, editor, viewer } = await startWithSignin('Settings API'));
});
after(() => t.close());

const SETTINGS_OUT = ['access_token_ttl_s', 'connected_apps', 'metadata_documents_unadvertised', 'refresh_token_ttl_s', 'sensitive_permissions_allowed', 'session_ttl_s', 'signups', 'updated_at'];
const path = (on = api) => `/apis/${on.apiId}/signin`;
const read = async (on = api) => expectStatus(await viewer.client.get(path(on)), 200);

test('a new API has the default sign-in settings', async () => {
  const fresh = await createApi(t, { name: 'Fresh Sign-in' }, owner);
  const settings = await read(fresh);
  assert.deepEqual(Object.keys(settings).sort(), SETTINGS_OUT);
  assert.deepEqual(
    { ...settings, updated_at: undefined },
    { access_token_ttl_s: 3600, refresh_token_ttl_s: 2_592_000, session_ttl_s: 1_209_600, signups: 'open', connected_apps: 'off', metadata_documents_unadvertised: false, sensitive_permissions_allowed: false, updated_at: undefined },
  );
});

const bounds: { field: string; accepted: unknown[]; refused: unknown[] }[] = [
  { field: 'access_token_ttl_s', accepted: [60, 86_400], refused: [59, 86_401, 600.5, '600', null] },
  { field: 'refresh_token_ttl_s', accepted: [3_600, 31_536_000], refused: [3_599, 31_536_001, null] },
  { field: 'session_ttl_s', accepted: [300, 31_536_000], refused: [299, 31_536_001, -1] },
  { field: 'signups', accepted: ['closed', 'open'], refused: ['invite', '', null] },
  { field: 'connected_apps', accepted: ['on', 'off'], refused: ['yes', true] },
  { field: 'sensitive_permissions_allowed', accepted: [true, false], refused: ['true', 1, null] },
  { field: 'metadata_documents_unadvertised', accepted: [true, false], refused: ['true', 1, null] },
];

for (const { field, accepted, refused } of bounds) {
  test(`sign-in setting ${field}: bounds accepted, values past them refused at body.${field} and nothing changes`, async () => {
    for (const value of accepted) {
      const changed = expectStatus(await editor.client.patch(path(), { [field]: value }), 200, `${field}=${JSON.stringify(value)}`);
      assert.deepEqual(changed[field], value);
      assert.deepEqual((await read())[field], value);
    }
    const kept = await read();
    for (const value of refused) {
      assertRefusedAt(await editor.client.patch(path(), { [field]: value }), `body.${field}`);
      assert.deepEqual(await read(), kept, `${field}=${JSON.stringify(value)} changed nothing`);
    }
  });
}

test('undeclared settings are refused; an empty change answers the settings and writes no audit event', async () => {
  assertRefusedAt(await editor.client.patch(path(), { issuer: 'https://evil.example' }), 'body.issuer');
  assertRefusedAt(await editor.client.patch(path(), { updated_at: new Date().toISOString() }), 'body.updated_at');
  const before = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).length;
  const same = expectStatus(await editor.client.patch(path(), {}), 200);
  assert.deepEqual(same, await read());
  const current = await read();
  expectStatus(await editor.client.patch(path(), { signups: current.signups }), 200);
  assert.equal((await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).length, before, 'no change, no event');
});

test('a change is audited with what changed from what', async () => {
  const fresh = await createApi(t, { name: 'Audited Sign-in' }, owner);
  expectStatus(await editor.client.patch(path(fresh), { access_token_ttl_s: 900, signups: 'closed', connected_apps: 'off' }), 200);
  const [event] = await apiAuditEvents(owner.client, owner.workspaceId, fresh.apiId);
  assert.equal(event!.action, 'signin.settings_update');
  assert.match(event!.summary, /access_token_ttl_s, signups/);
  assert.deepEqual(event!.details, { changes: { access_token_ttl_s: { from: 3600, to: 900 }, signups: { from: 'open', to: 'closed' } } });
});

test('viewers read but cannot change; another workspace gets 404 and changes nothing', async () => {
  const before = await read();
  const refused = await viewer.client.patch(path(), { signups: before.signups === 'open' ? 'closed' : 'open' });
  assert.equal(refused.status, 403, refused.text);
  assert.match(refused.headers.get('content-type') ?? '', /problem\+json/);
  const outsider = await signUp(t, { name: 'Otto Outsider' });
  assert.equal((await outsider.client.get(path())).status, 404);
  assert.equal((await outsider.client.patch(path(), { signups: 'closed' })).status, 404);
  assert.equal((await outsider.client.get(`${path()}/signing-keys`)).status, 404);
  assert.equal((await outsider.client.post(`${path()}/signing-keys/rotate`)).status, 404);
  assert.equal((await viewer.client.get(`/apis/api_doesnotexist/signin`)).status, 404);
  assert.deepEqual(await read(), before);
});

test('signing keys: rotating makes the first key; a second rotation retires it, published for the token lifetime plus 24 hours', async () => {
  const fresh = await createApi(t, { name: 'Keys API' }, owner);
  const keysPath = `${path(fresh)}/signing-keys`;
  assert.deepEqual(expectStatus(await viewer.client.get(keysPath), 200).keys, []);
  assert.equal((await viewer.client.post(`${keysPath}/rotate`)).status, 403, 'viewer');
  assert.equal((await editor.client.post(`${keysPath}/rotate`)).status, 403, 'editor');
  assert.deepEqual(expectStatus(await viewer.client.get(keysPath), 200).keys, [], 'refused rotations made nothing');

  const first = expectStatus(await admin.client.post(`${keysPath}/rotate`), 200).keys;
  assert.equal(first.length, 1);
  assert.deepEqual(Object.keys(first[0]).sort(), ['active', 'created_at', 'kid']);
  assert.equal(first[0].active, true);

  expectStatus(await editor.client.patch(path(fresh), { access_token_ttl_s: 600 }), 200);
  t.clock.advance(HOUR);
  const rotatedAt = t.clock.now();
  const second = expectStatus(await owner.client.post(`${keysPath}/rotate`), 200).keys;
  assert.equal(second.length, 2);
  assert.equal(second[0].active, true);
  assert.notEqual(second[0].kid, first[0].kid);
  assert.deepEqual(Object.keys(second[0]).sort(), ['active', 'created_at', 'kid'], 'the signing key has no retirement');
  const retired = second[1];
  assert.deepEqual({ ...retired, retired_at: undefined, published_until: undefined }, { kid: first[0].kid, active: false, created_at: first[0].created_at, retired_at: undefined, published_until: undefined });
  const retiredAt = Date.parse(retired.retired_at);
  assert.ok(retiredAt >= rotatedAt.getTime() && retiredAt < rotatedAt.getTime() + 60_000, 'retired at the rotation');
  assert.equal(Date.parse(retired.published_until) - retiredAt, 600_000 + DAY, 'published for the token lifetime plus 24 hours');
  assert.deepEqual(expectStatus(await viewer.client.get(keysPath), 200).keys, second);

  // The protocol's key set publishes both keys until then (spec 4.3).
  const jwks = await t.services.signingKeys.jwks(fresh.apiId, 600);
  assert.deepEqual(jwks.keys.map((k) => k.kid).sort(), [first[0].kid, second[0].kid].sort());
  const text = JSON.stringify(second);
  assert.ok(!/private|"d"|BEGIN/.test(text), 'no private key material');

  const events = (await apiAuditEvents(owner.client, owner.workspaceId, fresh.apiId)).filter((e) => e.action === 'signin.signing_key_rotate');
  assert.deepEqual(events.map((e) => e.target_id), [second[0].kid, first[0].kid]);
});

test('two rotations at once leave exactly one active key', async () => {
  const fresh = await createApi(t, { name: 'Racing Keys' }, owner);
  const keysPath = `${path(fresh)}/signing-keys`;
  const answers = await Promise.all([admin.client.post(`${keysPath}/rotate`), owner.client.post(`${keysPath}/rotate`)]);
  for (const answer of answers) assert.equal(answer.status, 200, answer.text);
  const keys = expectStatus(await viewer.client.get(keysPath), 200).keys;
  assert.equal(keys.length, 2);
  assert.equal(keys.filter((k: { active: boolean }) => k.active).length, 1);
});
