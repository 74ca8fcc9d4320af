// Roles of a sign-in service (DESIGN 8): every field bound on both sides, permissions that must
// exist on a server of this API (422 naming the item), unique names (409), replacing and deleting,
// roles, isolation and audit.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import { signUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, type ApiFixture } from '../support/money.js';
import { createPerson, expectStatus, startWithSignin } from '../support/signin.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
/** Five servers of 100 permissions each: p0..p99. */
let serverIds: string[];
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithSignin('Roles API'));
  serverIds = [];
  for (let s = 0; s < 5; s++) {
    const server = await editor.client.post(`/apis/${api.apiId}/signin/servers`, {
      name: `Server ${s}`,
      resource_url: `https://s${s}.example.com/`,
      permissions: Array.from({ length: 100 }, (_, i) => ({ name: `p${i}` })),
    });
    serverIds.push(expectStatus(server, 200).id);
  }
});
after(() => t.close());

const ROLE_OUT = ['created_at', 'description', 'id', 'name', 'people', 'permissions'];
const roles = (on = api) => `/apis/${on.apiId}/signin/roles`;
let serial = 0;
const create = (body: Record<string, unknown>, client = editor.client, on = api) => client.post(roles(on), { name: `Role ${++serial}`, ...body });
const patch = (id: string, body: Record<string, unknown>, client = editor.client) => client.patch(`${roles()}/${id}`, body);
const list = async (on = api) => expectStatus(await viewer.client.get(roles(on)), 200).roles as Record<string, any>[];
const find = async (id: string) => (await list()).find((r) => r.id === id)!;
const grant = (server: number, permission: number) => ({ server_id: serverIds[server]!, permission: `p${permission}` });
// The answer's order follows the database's collation, which differs between PGlite and PostgreSQL.
const inOrder = (items: { server_id: string; permission: string }[]) => [...items].sort((a, b) => (`${a.server_id} ${a.permission}` < `${b.server_id} ${b.permission}` ? -1 : 1));
const grants = (count: number) => Array.from({ length: count }, (_, i) => grant(Math.floor(i / 100), i % 100));

test('a role answers every RoleOut field; the list is by name', async () => {
  const created = expectStatus(await create({ name: '  Analysts  ', description: 'Read data', permissions: [grant(0, 1), grant(1, 2)] }), 200);
  assert.deepEqual(Object.keys(created).sort(), ROLE_OUT);
  assert.match(created.id, /^rol_/);
  assert.deepEqual(
    { ...created, id: undefined, created_at: undefined, permissions: inOrder(created.permissions) },
    { id: undefined, created_at: undefined, name: 'Analysts', description: 'Read data', permissions: inOrder([grant(0, 1), grant(1, 2)]), people: 0 },
  );
  const fresh = await createApi(t, { name: 'Sorted Roles' }, owner);
  for (const name of ['Charlie', 'Alpha', 'Bravo']) expectStatus(await create({ name }, editor.client, fresh), 200);
  assert.deepEqual((await list(fresh)).map((r) => r.name), ['Alpha', 'Bravo', 'Charlie']);
  const [event] = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.deepEqual([event!.action, event!.target_id], ['signin_role.create', created.id]);
});

// Names are unique per API, so updates take other accepted values than creations.
// A function: the permissions name servers made before the tests run.
const bounds = (): { field: string; accepted: unknown[]; updated?: unknown[]; refused: unknown[] }[] => [
  { field: 'name', accepted: ['R', 'r'.repeat(64)], updated: ['S', 's'.repeat(64)], refused: ['', '   ', 'r'.repeat(65), 3, null] },
  { field: 'description', accepted: ['', 'd'.repeat(300)], refused: ['d'.repeat(301), null] },
  { field: 'permissions', accepted: [[], grants(500)], refused: [[...grants(500), { server_id: 'srv_x', permission: 'p0' }], 'p0', null] },
];
const shown = (field: string, role: Record<string, any>) => (field === 'permissions' ? role.permissions.length : role[field]);
const sent = (field: string, value: unknown) => (field === 'permissions' ? (value as unknown[]).length : value);

for (const field of ['name', 'description', 'permissions']) {
  test(`role ${field}: bounds accepted on create and update, past them refused at body.${field}, nothing changed`, async () => {
    const { accepted, updated = accepted, refused } = bounds().find((b) => b.field === field)!;
    for (const value of accepted) {
      const created = expectStatus(await create({ [field]: value }), 200, `${field}=${JSON.stringify(value).slice(0, 80)}`);
      assert.deepEqual(shown(field, created), sent(field, value));
    }
    const count = (await list()).length;
    for (const value of refused) assertRefusedAt(await create({ [field]: value }), `body.${field}`);
    assert.equal((await list()).length, count, 'a refused creation makes nothing');
    const role = expectStatus(await create({}), 200);
    for (const value of updated) {
      const changed = expectStatus(await patch(role.id, { [field]: value }), 200, `PATCH ${field}`);
      assert.deepEqual(shown(field, changed), sent(field, value));
    }
    const kept = await find(role.id);
    for (const value of refused) {
      assertRefusedAt(await patch(role.id, { [field]: value }), `body.${field}`);
      assert.deepEqual(await find(role.id), kept, `PATCH ${field} changed nothing`);
    }
  });
}

test('every permission must exist on a server of this API: 422 naming each item, nothing changed', async () => {
  const other = await createApi(t, { name: 'Other Roles API' }, owner);
  const foreign = expectStatus(await editor.client.post(`/apis/${other.apiId}/signin/servers`, { name: 'Foreign', resource_url: 'https://foreign.example.com/', permissions: [{ name: 'p0' }] }), 200);
  const count = (await list()).length;
  const answer = await create({ permissions: [grant(0, 0), { server_id: serverIds[0], permission: 'nope' }, grant(1, 1), { server_id: foreign.id, permission: 'p0' }, { server_id: 'srv_unknown', permission: 'p0' }] });
  assert.equal(answer.status, 422, answer.text);
  assert.deepEqual(answer.body.errors.map((e: { location: string }) => e.location), ['body.permissions.1', 'body.permissions.3', 'body.permissions.4']);
  assert.equal((await list()).length, count);
  assertRefusedAt(await create({ permissions: [grant(0, 0), grant(0, 0)] }), 'body.permissions');
  assertRefusedAt(await create({ permissions: [{ server_id: serverIds[0] }] }), 'body.permissions.0.permission');
  assertRefusedAt(await create({ permissions: [{ ...grant(0, 0), extra: 1 }] }), 'body.permissions.0.extra');
  const role = expectStatus(await create({ permissions: [grant(2, 2)] }), 200);
  assertRefusedAt(await patch(role.id, { permissions: [grant(2, 3), { server_id: foreign.id, permission: 'p0' }] }), 'body.permissions.1');
  assert.deepEqual((await find(role.id)).permissions, [grant(2, 2)]);
});

test('role names are unique per API (409, trimmed), free on another API; a race answers 409, never 500', async () => {
  expectStatus(await create({ name: 'Support' }), 200);
  for (const name of ['Support', '  Support ']) {
    const again = await create({ name });
    assert.equal(again.status, 409, again.text);
    assert.equal(again.body.type, 'urn:gatehouse:problem:role_name_taken');
    assert.equal(again.body.errors[0].location, 'body.name');
  }
  const other = expectStatus(await create({ name: 'Billing' }), 200);
  assert.equal((await patch(other.id, { name: 'Support' })).status, 409);
  assert.equal((await find(other.id)).name, 'Billing');
  const elsewhere = await createApi(t, { name: 'Elsewhere Roles' }, owner);
  expectStatus(await create({ name: 'Support' }, editor.client, elsewhere), 200);
  const answers = await Promise.all([create({ name: 'Racer' }), create({ name: 'Racer' }, owner.client)]);
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409]);
});

test('an update replaces the permission list when given and is audited; an empty one writes nothing', async () => {
  const role = expectStatus(await create({ name: 'Editors', permissions: [grant(0, 0), grant(0, 1)] }), 200);
  const changed = expectStatus(await patch(role.id, { description: 'Edit things', permissions: [grant(0, 1), grant(3, 9)] }), 200);
  assert.deepEqual(inOrder(changed.permissions), inOrder([grant(0, 1), grant(3, 9)]));
  assert.equal(changed.name, 'Editors');
  const events = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.equal(events[0]!.action, 'signin_role.update');
  expectStatus(await patch(role.id, { name: 'Editors' }), 200);
  expectStatus(await patch(role.id, {}), 200);
  const after = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.equal(after.filter((e) => e.target_id === role.id && e.action === 'signin_role.update').length, 2, 'a rename to the same name is one event; an empty change none');
});

test('deleting a role answers 204 and the people holding it lose it', async () => {
  const role = expectStatus(await create({ name: 'Temporary', permissions: [grant(0, 0)] }), 200);
  const person = await createPerson(t, api.apiId);
  expectStatus(await editor.client.put(`/apis/${api.apiId}/signin/people/${person.id}/roles`, { role_ids: [role.id] }), 200);
  assert.equal((await find(role.id)).people, 1);
  assert.equal((await viewer.client.delete(`${roles()}/${role.id}`)).status, 403);
  const deleted = await editor.client.delete(`${roles()}/${role.id}`);
  assert.equal(deleted.status, 204, deleted.text);
  assert.equal(await find(role.id), undefined);
  assert.equal((await editor.client.delete(`${roles()}/${role.id}`)).status, 404);
  assert.equal((await patch(role.id, { name: 'Back' })).status, 404);
  const held = expectStatus(await viewer.client.get(`/apis/${api.apiId}/signin/people/${person.id}`), 200);
  assert.deepEqual(held.roles, []);
  const [event] = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.deepEqual([event!.action, event!.details], ['signin_role.delete', { name: 'Temporary', people: 1 }]);
});

test('viewers cannot add or change roles; another workspace and another API find nothing', async () => {
  assert.equal((await create({}, viewer.client)).status, 403);
  const role = expectStatus(await create({ name: 'Guarded' }), 200);
  assert.equal((await patch(role.id, { name: 'Viewer' }, viewer.client)).status, 403);
  const outsider = await signUp(t, { name: 'Omar Outsider' });
  assert.equal((await outsider.client.get(roles())).status, 404);
  assert.equal((await create({}, outsider.client)).status, 404);
  assert.equal((await outsider.client.patch(`${roles()}/${role.id}`, { name: 'Mine' })).status, 404);
  assert.equal((await outsider.client.delete(`${roles()}/${role.id}`)).status, 404);
  const other = await createApi(t, { name: 'Elsewhere Roles 2' }, owner);
  assert.equal((await editor.client.patch(`${roles(other)}/${role.id}`, { name: 'Moved' })).status, 404);
  assert.equal((await editor.client.delete(`${roles(other)}/${role.id}`)).status, 404);
  assert.equal((await find(role.id)).name, 'Guarded');
});
