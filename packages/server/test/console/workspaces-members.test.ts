// Members and roles: changing roles, the owner role, the last owner, leaving and removing
// (spec 2.4 RoleInBody/MemberOut, spec 5.2, DESIGN 6: "A workspace always keeps one owner").
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import type { TestClient } from '../support/client.js';
import { addMember, createKey, errorLocations, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Rhea Owner' });
});
after(() => t.close());

async function newWorkspace(name: string): Promise<string> {
  const created = await owner.client.post('/workspaces', { name });
  assert.equal(created.status, 200);
  return created.body.id;
}

async function rolesIn(ws: string, reader: TestClient = owner.client): Promise<Record<string, string>> {
  const members = await reader.get(`/workspaces/${ws}/members`);
  assert.equal(members.status, 200, members.text);
  return Object.fromEntries(members.body.members.map((m: { user_id: string; role: string }) => [m.user_id, m.role]));
}

const setRole = (client: TestClient, ws: string, userId: string, role: string) => client.put(`/workspaces/${ws}/members/${userId}/role`, { role });
const remove = (client: TestClient, ws: string, userId: string) => client.delete(`/workspaces/${ws}/members/${userId}`);

test('changing a role takes admin or owner; the answer is the member', async () => {
  const ws = await newWorkspace('Role changes');
  const admin = await addMember(t, owner.client, ws, 'admin');
  const editor = await addMember(t, owner.client, ws, 'editor');
  const viewer = await addMember(t, owner.client, ws, 'viewer');

  assert.equal((await setRole(editor.client, ws, viewer.userId, 'editor')).status, 403);
  assert.equal((await setRole(viewer.client, ws, viewer.userId, 'admin')).status, 403, 'nobody raises their own role');
  assert.equal((await setRole(viewer.client, ws, editor.userId, 'viewer')).status, 403);

  const joinedAt = (await owner.client.get(`/workspaces/${ws}/members`)).body.members.find((m: { user_id: string }) => m.user_id === viewer.userId).joined_at;
  const changed = await setRole(admin.client, ws, viewer.userId, 'editor');
  assert.equal(changed.status, 200, changed.text);
  assert.deepEqual(changed.body, { user_id: viewer.userId, email: viewer.email, name: 'Member viewer', role: 'editor', two_factor: false, joined_at: joinedAt });
  assert.equal((await rolesIn(ws))[viewer.userId], 'editor');
  const me = await viewer.client.get('/me');
  assert.equal(me.body.workspaces.find((w: { id: string }) => w.id === ws).role, 'editor');

  for (const role of ['superuser', '', 'Owner']) {
    const refused = await setRole(owner.client, ws, viewer.userId, role);
    assert.equal(refused.status, 422, role);
    assert.deepEqual(errorLocations(refused.body), ['body.role']);
  }
  assert.equal((await setRole(owner.client, ws, 'usr_notAMember000000000', 'viewer')).status, 404);
  assert.equal((await setRole(owner.client, ws, owner.userId, 'owner')).status, 200, 'an owner may restate their own role');
});

test('only an owner grants or takes the owner role', async () => {
  const ws = await newWorkspace('Owner role');
  const admin = await addMember(t, owner.client, ws, 'admin');
  const editor = await addMember(t, owner.client, ws, 'editor');
  const adminKey = await createKey(t, owner.client, ws, 'admin');

  assert.equal((await setRole(admin.client, ws, editor.userId, 'owner')).status, 403);
  assert.equal((await setRole(admin.client, ws, admin.userId, 'owner')).status, 403);
  assert.equal((await setRole(admin.client, ws, owner.userId, 'admin')).status, 403);
  assert.equal((await setRole(adminKey.client, ws, editor.userId, 'owner')).status, 403);
  assert.equal((await setRole(adminKey.client, ws, owner.userId, 'viewer')).status, 403);
  assert.equal((await rolesIn(ws))[owner.userId], 'owner');

  const granted = await setRole(owner.client, ws, admin.userId, 'owner');
  assert.equal(granted.status, 200);
  assert.equal(granted.body.role, 'owner');
  // The new owner may now take the role from the first one.
  const taken = await setRole(admin.client, ws, owner.userId, 'admin');
  assert.equal(taken.status, 200);
  const roles = await rolesIn(ws, admin.client);
  assert.equal(roles[owner.userId], 'admin');
  assert.equal(roles[admin.userId], 'owner');
});

test('the last owner can neither be demoted nor leave (409), and admins cannot remove an owner (403)', async () => {
  const ws = await newWorkspace('Last owner');
  const admin = await addMember(t, owner.client, ws, 'admin');
  for (const role of ['admin', 'editor', 'viewer']) {
    const refused = await setRole(owner.client, ws, owner.userId, role);
    assert.equal(refused.status, 409, role);
    assert.equal(refused.body.status, 409);
  }
  assert.equal((await remove(owner.client, ws, owner.userId)).status, 409, 'the last owner cannot leave');
  // Admins cannot touch an owner at all.
  assert.equal((await remove(admin.client, ws, owner.userId)).status, 403);
  assert.equal((await rolesIn(ws))[owner.userId], 'owner');
});

test('with two owners one can be demoted, and then the other is the last', async () => {
  const ws = await newWorkspace('Two owners');
  const second = await addMember(t, owner.client, ws, 'admin');
  assert.equal((await setRole(owner.client, ws, second.userId, 'owner')).status, 200);

  const demoted = await setRole(second.client, ws, second.userId, 'editor');
  assert.equal(demoted.status, 200);
  assert.equal(demoted.body.role, 'editor');
  assert.equal((await setRole(owner.client, ws, owner.userId, 'admin')).status, 409);
});

test('with two owners one can leave, or be removed by the other', async () => {
  const ws = await newWorkspace('Owners leaving');
  const second = await addMember(t, owner.client, ws, 'admin');
  const third = await addMember(t, owner.client, ws, 'admin');
  assert.equal((await setRole(owner.client, ws, second.userId, 'owner')).status, 200);
  assert.equal((await remove(second.client, ws, second.userId)).status, 204, 'one of two owners leaves');
  assert.equal((await remove(owner.client, ws, owner.userId)).status, 409, 'now the last one');

  assert.equal((await setRole(owner.client, ws, third.userId, 'owner')).status, 200);
  assert.equal((await remove(owner.client, ws, third.userId)).status, 204, 'an owner removes another owner');
  assert.deepEqual(Object.values(await rolesIn(ws)), ['owner']);
});

test('two owners demoting each other at the same time leave exactly one owner', async () => {
  const ws = await newWorkspace('Race');
  const second = await addMember(t, owner.client, ws, 'admin');
  assert.equal((await setRole(owner.client, ws, second.userId, 'owner')).status, 200);

  const answers = await Promise.all([setRole(owner.client, ws, second.userId, 'admin'), setRole(second.client, ws, owner.userId, 'admin')]);
  const statuses = answers.map((a) => a.status).sort();
  assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses ${statuses}`);
  // The loser either saw one owner left (409) or had already lost the owner role itself (403).
  assert.ok([403, 409].includes(statuses.find((s) => s !== 200)!), `statuses ${statuses}`);
  assert.equal(Object.values(await rolesIn(ws)).filter((r) => r === 'owner').length, 1);
});

test('anyone may leave; afterwards the workspace is 404 to them and gone from /me', async () => {
  const ws = await newWorkspace('Leaving');
  for (const role of ['viewer', 'editor', 'admin'] as const) {
    const member = await addMember(t, owner.client, ws, role);
    const left = await remove(member.client, ws, member.userId);
    assert.equal(left.status, 204, role);
    assert.equal((await member.client.get(`/workspaces/${ws}`)).status, 404);
    assert.deepEqual((await member.client.get('/me')).body.workspaces, []);
    assert.equal((await rolesIn(ws))[member.userId], undefined);
  }
});

test('admins remove non-owners; editors and viewers remove nobody but themselves', async () => {
  const ws = await newWorkspace('Removals');
  const admin = await addMember(t, owner.client, ws, 'admin');
  const otherAdmin = await addMember(t, owner.client, ws, 'admin', 'other-admin');
  const editor = await addMember(t, owner.client, ws, 'editor');
  const viewer = await addMember(t, owner.client, ws, 'viewer');

  assert.equal((await remove(editor.client, ws, viewer.userId)).status, 403);
  assert.equal((await remove(viewer.client, ws, editor.userId)).status, 403);
  assert.equal((await remove(viewer.client, ws, owner.userId)).status, 403);

  for (const target of [viewer, editor, otherAdmin]) {
    assert.equal((await remove(admin.client, ws, target.userId)).status, 204);
    // A removed member's session still works, but the workspace is not theirs any more.
    assert.equal((await target.client.get(`/workspaces/${ws}`)).status, 404);
    assert.equal((await target.client.get(`/workspaces/${ws}/members`)).status, 404);
    assert.equal((await target.client.get(`/workspaces/${ws}/audit`)).status, 404);
    assert.equal((await target.client.patch(`/workspaces/${ws}`, { name: 'Revenge' })).status, 404);
    assert.equal((await target.client.get('/me')).status, 200);
  }
  assert.equal((await remove(admin.client, ws, viewer.userId)).status, 404, 'already removed');
  assert.deepEqual(new Set(Object.keys(await rolesIn(ws))), new Set([owner.userId, admin.userId]));
});

test('a workspace key removes with its role: an admin key removes a viewer, an editor key cannot', async () => {
  const ws = await newWorkspace('Key removals');
  const viewer = await addMember(t, owner.client, ws, 'viewer');
  const editorKey = await createKey(t, owner.client, ws, 'editor');
  const adminKey = await createKey(t, owner.client, ws, 'admin');
  assert.equal((await remove(editorKey.client, ws, viewer.userId)).status, 403);
  assert.equal((await remove(adminKey.client, ws, owner.userId)).status, 403, 'a key is never an owner');
  assert.equal((await remove(adminKey.client, ws, viewer.userId)).status, 204);
  assert.equal((await viewer.client.get(`/workspaces/${ws}`)).status, 404);
});

test('members of another workspace cannot be reached through this one', async () => {
  const ws = await newWorkspace('Mine');
  const other = await signUp(t, { name: 'Other Owner' });
  const theirMember: Member = await addMember(t, other.client, other.workspaceId, 'viewer');
  assert.equal((await setRole(owner.client, ws, theirMember.userId, 'editor')).status, 404);
  assert.equal((await remove(owner.client, ws, theirMember.userId)).status, 404);
  assert.equal((await setRole(owner.client, other.workspaceId, theirMember.userId, 'editor')).status, 404);
  assert.equal((await remove(owner.client, other.workspaceId, theirMember.userId)).status, 404);
  assert.equal((await rolesIn(other.workspaceId, other.client))[theirMember.userId], 'viewer');
});
