// Servers of a sign-in service (DESIGN 8; spec 2.7, 5.5): every field bound on both sides,
// reserved and repeated permission names, unique resource URLs, a permission list that replaces
// the old one (roles lose removed permissions and keep the rest), server credentials shown once and
// rotated with a 24-hour overlap, roles, isolation and audit without secrets.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findServerByClientId } from '../../src/issuer/registry/lookups.js';
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
  ({ t, owner, api, admin, editor, viewer } = await startWithSignin('Servers API'));
});
after(() => t.close());

const SERVER_OUT = ['client_id', 'created_at', 'id', 'name', 'permissions', 'requests_per_minute', 'resource_url'];
let serial = 0;
const url = () => `https://api${++serial}.example.com/`;
const servers = (on = api) => `/apis/${on.apiId}/signin/servers`;
const roles = (on = api) => `/apis/${on.apiId}/signin/roles`;
const create = (body: Record<string, unknown>, client = editor.client, on = api) => client.post(servers(on), { name: 'Server', resource_url: url(), ...body });
const patch = (id: string, body: Record<string, unknown>, client = editor.client) => client.patch(`${servers()}/${id}`, body);
const getServer = async (id: string) => expectStatus(await viewer.client.get(`${servers()}/${id}`), 200);
const perms = (...names: string[]) => names.map((name) => ({ name }));

test('a server answers every ServerOut field, an rs_ client id and its secret, once; the secret is stored as SHA-256', async () => {
  const created = expectStatus(await create({ name: '  Weather  ', resource_url: 'https://weather.example.com/v1', permissions: [{ name: 'forecast:read', description: 'Read forecasts' }, { name: 'alerts:write', sensitive: true }] }), 200);
  assert.deepEqual(Object.keys(created).sort(), [...SERVER_OUT, 'client_secret'].sort());
  assert.match(created.id, /^srv_/);
  assert.match(created.client_id, /^rs_[0-9A-Za-z]{20}$/);
  assert.match(created.client_secret, /^ghs_[0-9A-Za-z]{43}$/);
  assert.deepEqual(
    { name: created.name, resource_url: created.resource_url, permissions: created.permissions, requests_per_minute: created.requests_per_minute },
    {
      name: 'Weather',
      resource_url: 'https://weather.example.com/v1',
      permissions: [{ name: 'alerts:write', description: '', sensitive: true }, { name: 'forecast:read', description: 'Read forecasts', sensitive: false }],
      requests_per_minute: null,
    },
  );
  const stored = await findServerByClientId(t.services.db, api.apiId, created.client_id);
  assert.equal(stored!.secret_hash, sha256(created.client_secret));
  const read = await viewer.client.get(`${servers()}/${created.id}`);
  const listed = await viewer.client.get(servers());
  assert.deepEqual(Object.keys(read.body).sort(), SERVER_OUT);
  assert.ok(listed.body.servers.some((s: { id: string }) => s.id === created.id));
  assertNoSecretIn([read.text, listed.text], [created.client_secret, stored!.secret_hash]);
  const [event] = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.equal(event!.action, 'signin_server.create');
  assert.equal(event!.details.client_id_start, `${created.client_id.slice(0, 8)}…`);
  assertNoSecretIn([JSON.stringify(event)], [created.client_secret, stored!.secret_hash, created.client_id]);
});

const hundred = Array.from({ length: 100 }, (_, i) => ({ name: `p${i}` }));
const longUrl = (host: string, length: number) => `https://${host}/${'p'.repeat(length - `https://${host}/`.length)}`;
// Resource URLs are unique per API, so updates take other accepted values than creations.
const bounds: { field: string; accepted: unknown[]; updated?: unknown[]; refused: unknown[] }[] = [
  { field: 'name', accepted: ['S', 's'.repeat(100)], refused: ['', '  ', 's'.repeat(101), null] },
  {
    field: 'resource_url',
    accepted: ['https://mcp.example.com/mcp', 'http://localhost:8080/', longUrl('long.example.com', 2000)],
    updated: ['https://mcp2.example.com/mcp', 'http://127.0.0.1:8080/', longUrl('long2.example.com', 2000)],
    refused: ['', 'api.example.com', '/relative', 'ftp://api.example.com/', 'javascript:alert(1)', 'https://api.example.com/#frag', 'https://u:p@api.example.com/', longUrl('long3.example.com', 2001), 5, null],
  },
  { field: 'permissions', accepted: [[], hundred], refused: [[...hundred, { name: 'p100' }], 'read', null] },
  { field: 'requests_per_minute', accepted: [null, 1, 1_000_000], refused: [0, 1_000_001, 1.5, '60'] },
];
const shown = (field: string, value: unknown) => (field === 'permissions' ? (value as { name: string }[]).map((p) => p.name).sort() : value);
const stored = (field: string, server: Record<string, any>) => (field === 'permissions' ? server.permissions.map((p: { name: string }) => p.name).sort() : server[field]);

for (const { field, accepted, updated = accepted, refused } of bounds) {
  test(`server ${field}: bounds accepted on create and update, past them refused at body.${field}, nothing changed`, async () => {
    for (const value of accepted) {
      const created = expectStatus(await create({ [field]: value }), 200, `${field}=${JSON.stringify(value).slice(0, 80)}`);
      assert.deepEqual(stored(field, created), shown(field, value));
    }
    const count = (await viewer.client.get(servers())).body.servers.length;
    for (const value of refused) assertRefusedAt(await create({ [field]: value }), `body.${field}`);
    assert.equal((await viewer.client.get(servers())).body.servers.length, count, 'a refused creation makes nothing');
    const server = expectStatus(await create({}), 200);
    for (const value of updated) {
      const changed = expectStatus(await patch(server.id, { [field]: value }), 200, `PATCH ${field}=${JSON.stringify(value).slice(0, 80)}`);
      assert.deepEqual(stored(field, changed), shown(field, value));
    }
    const kept = await getServer(server.id);
    for (const value of refused) {
      assertRefusedAt(await patch(server.id, { [field]: value }), `body.${field}`);
      assert.deepEqual(await getServer(server.id), kept, `PATCH ${field}=${JSON.stringify(value).slice(0, 60)} changed nothing`);
    }
  });
}

test('permission names: the scope pattern, 64 characters, not reserved, each once; description up to 200', async () => {
  for (const name of ['a', 'A'.repeat(64), 'read:all', 'files/read', 'a.b_c-d', '0day']) {
    expectStatus(await create({ permissions: [{ name }] }), 200, name);
  }
  for (const name of ['', 'A'.repeat(65), '-read', ':read', 'has space', 'ünïcode', 'read*', 5]) {
    assertRefusedAt(await create({ permissions: [{ name: 'ok' }, { name }] }), 'body.permissions.1.name');
  }
  for (const reserved of ['openid', 'profile', 'email', 'offline_access', 'roles', 'phone', 'address', 'platform:api_keys']) {
    const answer = await create({ permissions: [{ name: reserved }] });
    assertRefusedAt(answer, 'body.permissions.0.name');
    assert.match(answer.body.errors[0].message, /reserved/);
  }
  assertRefusedAt(await create({ permissions: perms('read', 'write', 'read') }), 'body.permissions.2.name');
  expectStatus(await create({ permissions: [{ name: 'd', description: 'x'.repeat(200) }] }), 200);
  assertRefusedAt(await create({ permissions: [{ name: 'd', description: 'x'.repeat(201) }] }), 'body.permissions.0.description');
  assertRefusedAt(await create({ permissions: [{ name: 'd', sensitive: 'yes' }] }), 'body.permissions.0.sensitive');
  assertRefusedAt(await create({ permissions: [{ name: 'd', scope: 'x' }] }), 'body.permissions.0.scope');
  const server = expectStatus(await create({ permissions: perms('keep') }), 200);
  assertRefusedAt(await patch(server.id, { permissions: perms('keep', 'openid') }), 'body.permissions.1.name');
  assert.deepEqual((await getServer(server.id)).permissions.map((p: { name: string }) => p.name), ['keep']);
});

test('a resource URL is unique per API (409 naming it), free on another API; races answer 409, never 500', async () => {
  const taken = 'https://unique.example.com/api';
  expectStatus(await create({ resource_url: taken }), 200);
  const again = await create({ resource_url: taken });
  assert.equal(again.status, 409, again.text);
  assert.equal(again.body.type, 'urn:gatehouse:problem:resource_taken');
  assert.equal(again.body.errors[0].location, 'body.resource_url');
  const other = expectStatus(await create({}), 200);
  assert.equal((await patch(other.id, { resource_url: taken })).status, 409);
  assert.equal((await getServer(other.id)).resource_url, other.resource_url);
  const otherApi = await createApi(t, { name: 'Other Servers API' }, owner);
  expectStatus(await create({ resource_url: taken }, editor.client, otherApi), 200);
  const racing = 'https://race.example.com/';
  const answers = await Promise.all([create({ resource_url: racing }), create({ resource_url: racing }, owner.client), create({ resource_url: racing }, admin.client)]);
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409], answers.map((a) => a.text).join('\n'));
});

test('replacing the permission list: removed permissions leave roles, kept ones stay granted', async () => {
  const server = expectStatus(await create({ permissions: perms('read', 'write', 'delete') }), 200);
  const role = expectStatus(await editor.client.post(roles(), {
    name: `Role of ${server.id}`,
    permissions: ['read', 'write', 'delete'].map((permission) => ({ server_id: server.id, permission })),
  }), 200);
  const changed = expectStatus(await patch(server.id, { permissions: [{ name: 'read', description: 'Now described', sensitive: true }, { name: 'admin' }] }), 200);
  assert.deepEqual(changed.permissions, [{ name: 'admin', description: '', sensitive: false }, { name: 'read', description: 'Now described', sensitive: true }]);
  const held = (await viewer.client.get(roles())).body.roles.find((r: { id: string }) => r.id === role.id);
  assert.deepEqual(held.permissions, [{ server_id: server.id, permission: 'read' }]);
  const [event] = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.equal(event!.action, 'signin_server.update');
  assert.deepEqual([event!.details.permissions_added, event!.details.permissions_removed], [['admin'], ['delete', 'write']]);
  expectStatus(await patch(server.id, { name: 'Renamed only' }), 200);
  assert.deepEqual((await getServer(server.id)).permissions.map((p: { name: string }) => p.name), ['admin', 'read'], 'a change without a list keeps it');
  expectStatus(await patch(server.id, { permissions: [] }), 200);
  assert.deepEqual((await viewer.client.get(roles())).body.roles.find((r: { id: string }) => r.id === role.id).permissions, []);
});

test('rotating a server secret: admins only; the old secret works 24 hours more', async () => {
  const server = expectStatus(await create({}), 200);
  const rotate = (client = admin.client) => client.post(`${servers()}/${server.id}/secret/rotate`);
  assert.equal((await rotate(viewer.client)).status, 403);
  assert.equal((await rotate(editor.client)).status, 403);
  assert.equal((await findServerByClientId(t.services.db, api.apiId, server.client_id))!.secret_hash, sha256(server.client_secret));
  const before = t.clock.now().getTime();
  const rotated = expectStatus(await rotate(), 200);
  assert.deepEqual(Object.keys(rotated).sort(), [...SERVER_OUT, 'client_secret', 'previous_secret_valid_until'].sort());
  assert.equal(rotated.client_id, server.client_id, 'the client id stays');
  assert.notEqual(rotated.client_secret, server.client_secret);
  const validUntil = Date.parse(rotated.previous_secret_valid_until);
  assert.ok(validUntil >= before + DAY && validUntil < before + DAY + 60_000);
  const stored = (await findServerByClientId(t.services.db, api.apiId, server.client_id))!;
  assert.deepEqual([stored.secret_hash, stored.previous_secret_hash], [sha256(rotated.client_secret), sha256(server.client_secret)]);
  assert.equal((await getServer(server.id)).client_secret, undefined);
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.target_id === server.id);
  assert.deepEqual(events.map((e) => e.action), ['signin_server.secret_rotate', 'signin_server.create']);
  assertNoSecretIn([JSON.stringify(events)], [server.client_secret, rotated.client_secret, stored.secret_hash, stored.previous_secret_hash!, server.client_id]);
  t.clock.advance(DAY + 60_000);
  assert.equal((await getServer(server.id)).previous_secret_valid_until, undefined);
});

test('deleting a server answers 204 and takes its permissions out of every role', async () => {
  const server = expectStatus(await create({ permissions: perms('read') }), 200);
  const keep = expectStatus(await create({ permissions: perms('read') }), 200);
  const role = expectStatus(await editor.client.post(roles(), { name: `Deleted ${server.id}`, permissions: [{ server_id: server.id, permission: 'read' }, { server_id: keep.id, permission: 'read' }] }), 200);
  assert.equal((await viewer.client.delete(`${servers()}/${server.id}`)).status, 403);
  assert.equal((await editor.client.delete(`${servers()}/${server.id}`)).status, 204);
  assert.equal((await viewer.client.get(`${servers()}/${server.id}`)).status, 404);
  assert.equal((await editor.client.delete(`${servers()}/${server.id}`)).status, 404);
  assert.equal((await admin.client.post(`${servers()}/${server.id}/secret/rotate`)).status, 404);
  const held = (await viewer.client.get(roles())).body.roles.find((r: { id: string }) => r.id === role.id);
  assert.deepEqual(held.permissions, [{ server_id: keep.id, permission: 'read' }]);
});

test('viewers cannot add or change servers; another workspace and another API find nothing', async () => {
  assert.equal((await create({}, viewer.client)).status, 403);
  const server = expectStatus(await create({}), 200);
  assert.equal((await patch(server.id, { name: 'Viewer' }, viewer.client)).status, 403);
  const outsider = await signUp(t, { name: 'Oda Outsider' });
  assert.equal((await outsider.client.get(servers())).status, 404);
  assert.equal((await create({}, outsider.client)).status, 404);
  for (const [method, suffix] of [['GET', ''], ['PATCH', ''], ['DELETE', ''], ['POST', '/secret/rotate']] as const) {
    const answer = await outsider.client.request(method, `${servers()}/${server.id}${suffix}`, method === 'PATCH' ? { name: 'Mine' } : undefined);
    assert.equal(answer.status, 404, `${method} ${suffix}`);
  }
  const other = await createApi(t, { name: 'Elsewhere Servers' }, owner);
  assert.equal((await viewer.client.get(`${servers(other)}/${server.id}`)).status, 404);
  assert.equal((await editor.client.patch(`${servers(other)}/${server.id}`, { name: 'Moved' })).status, 404);
  assert.equal((await getServer(server.id)).name, 'Server');
});
