// The owner's applications of a sign-in service (DESIGN 8): every field bound on both sides,
// redirect URI rules per kind, web secrets shown once and rotated with a 24-hour overlap, public
// clients without a secret, roles, another workspace's API, and audit events without secrets.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findApp } from '../../src/issuer/registry/lookups.js';
import { DAY } from '../../src/platform/clock.js';
import type { SignedUp } from '../support/flows.js';
import { signUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, sha256, type ApiFixture } from '../support/money.js';
import { assertNoSecretIn, expectStatus, startWithSignin } from '../support/signin.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let admin: Member;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, admin, editor, viewer } = await startWithSignin('Apps API'));
});
after(() => t.close());

const APP_OUT = ['blocked', 'created_at', 'has_secret', 'id', 'kind', 'name', 'origin', 'own_app', 'post_logout_redirect_uris', 'redirect_uris', 'refresh_tokens'];
const SECRET = /^ghs_[0-9A-Za-z]{43}$/;
const apps = (on = api) => `/apis/${on.apiId}/signin/apps`;
const web = { name: 'Web app', kind: 'web', redirect_uris: ['https://app.example.com/callback'] };
const create = (body: Record<string, unknown>, client = editor.client, on = api) => client.post(apps(on), body);
const patch = (id: string, body: Record<string, unknown>, client = editor.client) => client.patch(`${apps()}/${id}`, body);
const getApp = async (id: string) => expectStatus(await viewer.client.get(`${apps()}/${id}`), 200);

test('a web app answers every AppOut field and its client secret, once; the secret is stored as SHA-256', async () => {
  const created = expectStatus(await create({ ...web, name: '  Dashboard  ' }), 200);
  assert.deepEqual(Object.keys(created).sort(), [...APP_OUT, 'client_secret'].sort());
  assert.match(created.id, /^app_[0-9A-Za-z]{20}$/);
  assert.match(created.client_secret, SECRET);
  assert.deepEqual(
    { ...created, id: undefined, created_at: undefined, client_secret: undefined },
    { id: undefined, created_at: undefined, client_secret: undefined, name: 'Dashboard', kind: 'web', origin: 'owner', redirect_uris: web.redirect_uris, post_logout_redirect_uris: [], refresh_tokens: false, own_app: false, blocked: false, has_secret: true },
  );
  const stored = await findApp(t.services.db, api.apiId, created.id);
  assert.equal(stored!.secret_hash, sha256(created.client_secret));
  const read = await viewer.client.get(`${apps()}/${created.id}`);
  const listed = await viewer.client.get(apps());
  assert.deepEqual(Object.keys(read.body).sort(), APP_OUT);
  assert.ok(listed.body.apps.some((a: { id: string }) => a.id === created.id));
  assertNoSecretIn([read.text, listed.text], [created.client_secret, stored!.secret_hash!]);
});

test('single-page and native apps are public clients: no secret, and rotation answers 409', async () => {
  for (const [kind, uri] of [['spa', 'https://spa.example.com/cb'], ['native', 'com.example.app:/callback']] as const) {
    const created = expectStatus(await create({ name: `${kind} app`, kind, redirect_uris: [uri] }), 200);
    assert.deepEqual(Object.keys(created).sort(), APP_OUT, `${kind}: no client_secret`);
    assert.equal(created.has_secret, false);
    assert.equal((await findApp(t.services.db, api.apiId, created.id))!.secret_hash, null);
    const rotated = await admin.client.post(`${apps()}/${created.id}/secret/rotate`);
    assert.equal(rotated.status, 409, rotated.text);
    assert.equal(rotated.body.type, 'urn:gatehouse:problem:no_client_secret');
    assert.match(rotated.body.detail, /public client/);
    assert.deepEqual(await getApp(created.id), created, 'nothing changed');
  }
});

const bounds: { field: string; accepted: unknown[]; refused: unknown[] }[] = [
  { field: 'name', accepted: ['A', 'a'.repeat(100)], refused: ['', '   ', 'a'.repeat(101), 5, null] },
  {
    field: 'redirect_uris',
    accepted: [['https://a.example.com/cb'], Array.from({ length: 20 }, (_, i) => `https://a.example.com/cb${i}`), [`https://a.example.com/${'p'.repeat(2000 - 'https://a.example.com/'.length)}`]],
    refused: [[], Array.from({ length: 21 }, (_, i) => `https://a.example.com/cb${i}`), [`https://a.example.com/${'p'.repeat(2001 - 'https://a.example.com/'.length)}`], ['https://a.example.com/cb', 'https://a.example.com/cb'], 'https://a.example.com/cb', [''], null],
  },
  {
    field: 'post_logout_redirect_uris',
    accepted: [[], Array.from({ length: 20 }, (_, i) => `https://a.example.com/bye${i}`)],
    refused: [Array.from({ length: 21 }, (_, i) => `https://a.example.com/bye${i}`), ['https://a.example.com/bye#x'], ['http://a.example.com/bye'], [7]],
  },
  { field: 'refresh_tokens', accepted: [true, false], refused: ['true', 1, null] },
  { field: 'own_app', accepted: [true, false], refused: ['no', 0] },
];

for (const { field, accepted, refused } of bounds) {
  test(`app ${field}: bounds accepted on create and update, past them refused at body.${field}, nothing changed`, async () => {
    for (const value of accepted) {
      const created = expectStatus(await create({ ...web, [field]: value }), 200, `${field}=${JSON.stringify(value).slice(0, 80)}`);
      assert.deepEqual(created[field], field === 'name' ? (value as string).trim() : value);
    }
    const before = (await viewer.client.get(apps())).body.apps.length;
    for (const value of refused) assertRefusedAt(await create({ ...web, [field]: value }), `body.${field}`);
    assert.equal((await viewer.client.get(apps())).body.apps.length, before, 'a refused creation makes nothing');
    const app = expectStatus(await create(web), 200);
    for (const value of accepted) expectStatus(await patch(app.id, { [field]: value }), 200, `PATCH ${field}`);
    const kept = await getApp(app.id);
    for (const value of refused) {
      if (field === 'redirect_uris' && value === null) continue;
      assertRefusedAt(await patch(app.id, { [field]: value }), `body.${field}`);
      assert.deepEqual(await getApp(app.id), kept, `PATCH ${field}=${JSON.stringify(value).slice(0, 80)} changed nothing`);
    }
  });
}

test('kind is web, spa or native, and is fixed at creation', async () => {
  for (const kind of ['server', '', null, 'WEB']) assertRefusedAt(await create({ ...web, kind }), 'body.kind');
  const { kind: _kind, ...noKind } = web;
  assertRefusedAt(await create(noKind), 'body.kind');
  const app = expectStatus(await create(web), 200);
  assertRefusedAt(await patch(app.id, { kind: 'spa' }), 'body.kind');
  assertRefusedAt(await patch(app.id, { client_secret: 'ghs_x' }), 'body.client_secret');
  assertRefusedAt(await patch(app.id, { blocked: true }), 'body.blocked');
  assert.equal((await getApp(app.id)).kind, 'web');
});

// Redirect URIs per kind (spec 4.2, RFC 8252 7, RFC 9700 2.1); sign-out URIs follow the same rules.
const uriRules: Record<'web' | 'spa' | 'native', { accepted: string[]; refused: string[] }> = {
  web: {
    accepted: ['https://app.example.com/cb', 'https://app.example.com/cb?tenant=1', 'http://localhost:3000/cb', 'http://127.0.0.1/cb', 'http://[::1]:8080/cb', 'https://localhost/cb'],
    refused: [
      'http://app.example.com/cb', 'https://app.example.com/cb#frag', 'https://app.example.com/cb#', '/relative/cb', 'app.example.com/cb',
      'javascript:alert(1)', 'JAVASCRIPT:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'mailto:a@example.com', 'vbscript:msgbox(1)',
      'com.example.app:/cb', 'http://localhost.evil.example/cb', 'http://127.0.0.2/cb', 'https://user:pw@app.example.com/cb', 'ftp://files.example.com/cb', ' https://app.example.com/cb',
    ],
  },
  spa: {
    accepted: ['https://spa.example.com/', 'http://localhost:5173/callback'],
    refused: ['http://spa.example.com/', 'com.example.spa:/cb', 'javascript:void(0)', 'https://spa.example.com/#/cb'],
  },
  native: {
    accepted: ['com.example.app:/callback', 'com.example.app://oauth/callback', 'http://127.0.0.1:51234/cb', 'http://localhost/cb', 'http://[::1]/cb', 'https://app.example.com/universal-link'],
    refused: ['myapp://callback', 'javascript:alert(1)', 'data:,x', 'file:///tmp/cb', 'mailto:x@example.com', 'vbscript:x', 'http://app.example.com/cb', 'com.example.app:/cb#x', 'com.example.app'],
  },
};

for (const [kind, { accepted, refused }] of Object.entries(uriRules)) {
  test(`redirect URIs of a ${kind} app: allowed forms accepted, others refused naming the item`, async () => {
    const ok = expectStatus(await create({ name: `${kind} uris`, kind, redirect_uris: accepted, post_logout_redirect_uris: accepted }), 200);
    assert.deepEqual(ok.redirect_uris, accepted, 'stored exactly as given');
    for (const uri of refused) {
      const answer = await create({ name: `${kind} refused`, kind, redirect_uris: [accepted[0], uri] });
      assertRefusedAt(answer, 'body.redirect_uris.1');
      assertRefusedAt(await create({ name: `${kind} refused`, kind, redirect_uris: [accepted[0]], post_logout_redirect_uris: [uri] }), 'body.post_logout_redirect_uris.0');
      assertRefusedAt(await patch(ok.id, { redirect_uris: [uri] }), 'body.redirect_uris.0');
    }
    const { client_secret: _secret, ...shown } = ok;
    assert.deepEqual(await getApp(ok.id), shown, 'refused changes left the app as it was');
  });
}

test('an update changes only what it names, is audited, and an empty one writes nothing', async () => {
  const app = expectStatus(await create({ ...web, refresh_tokens: true, own_app: true, post_logout_redirect_uris: ['https://app.example.com/bye'] }), 200);
  const changed = expectStatus(await patch(app.id, { name: 'Renamed', redirect_uris: ['https://new.example.com/cb'] }), 200);
  const { client_secret: _secret, ...shown } = app;
  assert.deepEqual({ ...changed, name: undefined, redirect_uris: undefined }, { ...shown, name: undefined, redirect_uris: undefined });
  const events = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.equal(events[0]!.action, 'signin_app.update');
  assert.equal(events[0]!.target_id, app.id);
  assert.deepEqual(events[0]!.details, { changes: { name: { from: 'Web app', to: 'Renamed' }, redirect_uris: { from: web.redirect_uris, to: ['https://new.example.com/cb'] } } });
  expectStatus(await patch(app.id, {}), 200);
  expectStatus(await patch(app.id, { name: 'Renamed', own_app: true }), 200);
  assert.equal((await apiAuditEvents(owner.client, owner.workspaceId, api.apiId))[0]!.id, events[0]!.id, 'no change, no event');
});

test('rotating a web secret: admins only; the new secret is shown once, the old one works 24 hours more', async () => {
  const app = expectStatus(await create(web), 200);
  const rotate = (client = admin.client) => client.post(`${apps()}/${app.id}/secret/rotate`);
  assert.equal((await rotate(viewer.client)).status, 403);
  assert.equal((await rotate(editor.client)).status, 403);
  assert.equal((await findApp(t.services.db, api.apiId, app.id))!.secret_hash, sha256(app.client_secret), 'refused rotations changed nothing');
  const before = t.clock.now().getTime();
  const rotated = expectStatus(await rotate(), 200);
  assert.match(rotated.client_secret, SECRET);
  assert.notEqual(rotated.client_secret, app.client_secret);
  const validUntil = Date.parse(rotated.previous_secret_valid_until);
  assert.ok(validUntil >= before + DAY && validUntil < before + DAY + 60_000, rotated.previous_secret_valid_until);
  const stored = (await findApp(t.services.db, api.apiId, app.id))!;
  assert.deepEqual([stored.secret_hash, stored.previous_secret_hash], [sha256(rotated.client_secret), sha256(app.client_secret)]);
  const read = await viewer.client.get(`${apps()}/${app.id}`);
  assert.equal(read.body.previous_secret_valid_until, rotated.previous_secret_valid_until);
  assert.equal(read.body.client_secret, undefined);
  t.clock.advance(DAY + 60_000);
  assert.equal((await getApp(app.id)).previous_secret_valid_until, undefined, 'shown only while the old secret works');
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.target_id === app.id);
  assert.deepEqual(events.map((e) => e.action), ['signin_app.secret_rotate', 'signin_app.create']);
  assertNoSecretIn([JSON.stringify(events)], [app.client_secret, rotated.client_secret, stored.secret_hash!, stored.previous_secret_hash!]);
});

test('deleting an app answers 204; it is gone, and deleting it again is 404', async () => {
  const app = expectStatus(await create(web), 200);
  assert.equal((await viewer.client.delete(`${apps()}/${app.id}`)).status, 403);
  const deleted = await editor.client.delete(`${apps()}/${app.id}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal((await viewer.client.get(`${apps()}/${app.id}`)).status, 404);
  assert.equal((await editor.client.delete(`${apps()}/${app.id}`)).status, 404);
  assert.equal((await patch(app.id, { name: 'Back' })).status, 404);
  assert.equal((await admin.client.post(`${apps()}/${app.id}/secret/rotate`)).status, 404);
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.target_id === app.id);
  assert.deepEqual(events.map((e) => e.action), ['signin_app.delete', 'signin_app.create']);
});

test('viewers cannot create or change apps; another workspace and another API find nothing', async () => {
  assert.equal((await create(web, viewer.client)).status, 403);
  const app = expectStatus(await create(web), 200);
  assert.equal((await patch(app.id, { name: 'Viewer' }, viewer.client)).status, 403);
  const outsider = await signUp(t, { name: 'Olaf Outsider' });
  assert.equal((await outsider.client.get(apps())).status, 404);
  assert.equal((await create(web, outsider.client)).status, 404);
  assert.equal((await outsider.client.get(`${apps()}/${app.id}`)).status, 404);
  assert.equal((await outsider.client.patch(`${apps()}/${app.id}`, { name: 'Mine' })).status, 404);
  assert.equal((await outsider.client.delete(`${apps()}/${app.id}`)).status, 404);
  assert.equal((await outsider.client.post(`${apps()}/${app.id}/secret/rotate`)).status, 404);
  const other = await createApi(t, { name: 'Other Apps API' }, owner);
  assert.equal((await viewer.client.get(`${apps(other)}/${app.id}`)).status, 404, 'an app of another API is not found under this one');
  assert.equal((await editor.client.patch(`${apps(other)}/${app.id}`, { name: 'Moved' })).status, 404);
  assert.deepEqual((await viewer.client.get(apps(other))).body.apps, []);
  assert.equal((await getApp(app.id)).name, 'Web app');
});

test('apps people connected (registered, metadata documents) are not listed among the owner\'s apps', async () => {
  const fresh = await createApi(t, { name: 'Connected Apps API' }, owner);
  const now = t.clock.now();
  await t.services.db.insertInto('oauth_apps').values({
    id: 'app_registeredregistered1', api_id: fresh.apiId, name: 'Registered', kind: 'native', origin: 'registered', redirect_uris: ['http://127.0.0.1/cb'],
    secret_hash: null, previous_secret_hash: null, previous_secret_valid_until: null, last_used_at: null, created_at: now, updated_at: now,
  }).execute();
  assert.deepEqual((await viewer.client.get(apps(fresh))).body.apps, []);
  assert.equal((await viewer.client.get(`${apps(fresh)}/app_registeredregistered1`)).status, 404);
  assert.equal((await editor.client.delete(`${apps(fresh)}/app_registeredregistered1`)).status, 404);
});
