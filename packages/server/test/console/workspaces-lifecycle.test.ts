// Workspaces: create, get, rename, delete, and the list on /me (spec 2.4 NameInBody, DESIGN 6).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { inviteTokenIn } from '../support/mailbox.js';
import { addMember, auditEvents, createKey, errorLocations } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Wanda Owner' });
});
after(() => t.close());

test('a workspace name is 1 to 100 characters: 0 and 101 are refused, 1 and 100 accepted', async () => {
  for (const name of ['', 'x'.repeat(101)]) {
    const refused = await owner.client.post('/workspaces', { name });
    assert.equal(refused.status, 422, `${name.length} characters`);
    assert.deepEqual(errorLocations(refused.body), ['body.name']);
  }
  const missing = await owner.client.post('/workspaces', {});
  assert.equal(missing.status, 422);
  assert.deepEqual(errorLocations(missing.body), ['body.name']);

  for (const name of ['x', 'y'.repeat(100)]) {
    const created = await owner.client.post('/workspaces', { name });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.name, name);
    assert.equal(created.body.role, 'owner');
    assert.match(created.body.id, /^ws_/);
    assert.ok(!Number.isNaN(Date.parse(created.body.created_at)));
  }
});

test('a name of only spaces is refused, and names are stored trimmed', async () => {
  const blank = await owner.client.post('/workspaces', { name: '   ' });
  assert.equal(blank.status, 422, blank.text);
  assert.deepEqual(errorLocations(blank.body), ['body.name']);

  const spaced = await owner.client.post('/workspaces', { name: '  Spaced out  ' });
  assert.equal(spaced.status, 200);
  assert.equal(spaced.body.name, 'Spaced out');
});

test('create needs a signed-in person: none is 401, a workspace key is 403', async () => {
  assert.equal((await t.client().post('/workspaces', { name: 'Nobody' })).status, 401);
  const key = await createKey(t, owner.client, owner.workspaceId, 'admin');
  const byKey = await key.client.post('/workspaces', { name: 'By key' });
  assert.equal(byKey.status, 403);
});

test('get answers the workspace with the caller role; outsiders and unknown ids get 404', async () => {
  const created = await owner.client.post('/workspaces', { name: 'Readable' });
  const ws = created.body.id;
  const asOwner = await owner.client.get(`/workspaces/${ws}`);
  assert.equal(asOwner.status, 200);
  assert.deepEqual(asOwner.body, created.body);

  const viewer = await addMember(t, owner.client, ws, 'viewer');
  const asViewer = await viewer.client.get(`/workspaces/${ws}`);
  assert.equal(asViewer.status, 200);
  assert.equal(asViewer.body.role, 'viewer');
  assert.equal(asViewer.body.name, 'Readable');

  // A member of one workspace is an outsider to the others.
  assert.equal((await viewer.client.get(`/workspaces/${owner.workspaceId}`)).status, 404);
  assert.equal((await owner.client.get('/workspaces/ws_doesNotExist000000000')).status, 404);
  assert.equal((await t.client().get(`/workspaces/${ws}`)).status, 401);
});

test('rename takes admin or owner; editors and viewers get 403; 1..100 both sides', async () => {
  const ws = (await owner.client.post('/workspaces', { name: 'Before' })).body.id;
  const admin = await addMember(t, owner.client, ws, 'admin');
  const editor = await addMember(t, owner.client, ws, 'editor');
  const viewer = await addMember(t, owner.client, ws, 'viewer');

  for (const member of [editor, viewer]) {
    const refused = await member.client.patch(`/workspaces/${ws}`, { name: 'Not allowed' });
    assert.equal(refused.status, 403);
  }
  assert.equal((await owner.client.get(`/workspaces/${ws}`)).body.name, 'Before');

  const byAdmin = await admin.client.patch(`/workspaces/${ws}`, { name: 'By admin' });
  assert.equal(byAdmin.status, 200, byAdmin.text);
  assert.equal(byAdmin.body.name, 'By admin');
  assert.equal(byAdmin.body.role, 'admin');

  for (const name of ['', 'z'.repeat(101), '  ']) {
    const refused = await owner.client.patch(`/workspaces/${ws}`, { name });
    assert.equal(refused.status, 422, JSON.stringify(name));
    assert.deepEqual(errorLocations(refused.body), ['body.name']);
  }
  for (const name of ['z', 'z'.repeat(100)]) {
    const renamed = await owner.client.patch(`/workspaces/${ws}`, { name });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, name);
    assert.equal(renamed.body.role, 'owner');
  }
  const me = await viewer.client.get('/me');
  assert.equal(me.body.workspaces.find((w: { id: string }) => w.id === ws).name, 'z'.repeat(100));
});

test('delete takes the owner: admins, editors, viewers and an admin key get 403; afterwards everything is 404', async () => {
  const ws = (await owner.client.post('/workspaces', { name: 'Doomed' })).body.id;
  const admin = await addMember(t, owner.client, ws, 'admin');
  const editor = await addMember(t, owner.client, ws, 'editor');
  const viewer = await addMember(t, owner.client, ws, 'viewer');
  const adminKey = await createKey(t, owner.client, ws, 'admin');

  for (const caller of [admin.client, editor.client, viewer.client, adminKey.client]) {
    assert.equal((await caller.delete(`/workspaces/${ws}`)).status, 403);
  }
  assert.equal((await owner.client.get(`/workspaces/${ws}`)).status, 200);

  const deleted = await owner.client.delete(`/workspaces/${ws}`);
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');

  for (const caller of [owner.client, admin.client]) {
    assert.equal((await caller.get(`/workspaces/${ws}`)).status, 404);
    assert.equal((await caller.get(`/workspaces/${ws}/members`)).status, 404);
    assert.equal((await caller.get(`/workspaces/${ws}/audit`)).status, 404);
  }
  assert.equal((await owner.client.delete(`/workspaces/${ws}`)).status, 404);
  // The workspace's keys went with it.
  assert.equal((await adminKey.client.get(`/workspaces/${ws}`)).status, 401);
  const me = await admin.client.get('/me');
  assert.equal(me.status, 200);
  assert.deepEqual(me.body.workspaces, []);
  // The owner keeps their other workspaces.
  const ownerMe = await owner.client.get('/me');
  assert.ok(ownerMe.body.workspaces.some((w: { id: string }) => w.id === owner.workspaceId));
  assert.ok(!ownerMe.body.workspaces.some((w: { id: string }) => w.id === ws));
});

test('/me lists every workspace of the person with their role in each', async () => {
  const person = await signUp(t, { name: 'Multi Role' });
  const asAdmin = (await owner.client.post('/workspaces', { name: 'Where admin' })).body.id;
  const asViewer = (await owner.client.post('/workspaces', { name: 'Where viewer' })).body.id;
  for (const [ws, role] of [[asAdmin, 'admin'], [asViewer, 'viewer']] as const) {
    t.mail.take(person.email);
    const sent = await owner.client.post(`/workspaces/${ws}/invites`, { email: person.email, role });
    assert.equal(sent.status, 200);
    // The subject is fixed text (issue 26); the workspace's name is in the body.
    const mail = await t.mail.waitFor(person.email, /^You are invited to a workspace on Gatehouse$/);
    assert.match(mail.text, role === 'admin' ? /Where admin/ : /Where viewer/);
    const token = inviteTokenIn(mail);
    assert.equal((await person.client.post(`/invites/${token}/accept`, {})).status, 200);
  }
  const own = (await person.client.post('/workspaces', { name: 'Second own' })).body.id;

  const me = await person.client.get('/me');
  assert.equal(me.status, 200);
  const roles = Object.fromEntries(me.body.workspaces.map((w: { id: string; role: string }) => [w.id, w.role]));
  assert.deepEqual(roles, { [person.workspaceId]: 'owner', [asAdmin]: 'admin', [asViewer]: 'viewer', [own]: 'owner' });
  for (const w of me.body.workspaces) assert.deepEqual(Object.keys(w).sort(), ['created_at', 'id', 'name', 'role']);
});

test('creating and renaming each write one audit event in that workspace', async () => {
  const created = await owner.client.post('/workspaces', { name: 'Audited' });
  const ws = created.body.id;
  const [creation] = await auditEvents(owner.client, ws);
  assert.equal(creation!.action, 'workspace.create');
  assert.equal(creation!.target_type, 'workspace');
  assert.equal(creation!.target_id, ws);
  assert.equal(creation!.actor_id, owner.userId);

  assert.equal((await owner.client.patch(`/workspaces/${ws}`, { name: 'Audited twice' })).status, 200);
  const events = await auditEvents(owner.client, ws);
  assert.deepEqual(events.map((e) => e.action), ['workspace.rename', 'workspace.create']);
  assert.deepEqual(events[0]!.details, { from: 'Audited', to: 'Audited twice' });
});
