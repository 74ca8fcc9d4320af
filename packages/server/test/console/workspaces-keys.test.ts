// Workspace keys: created by admins, shown once, stored as SHA-256, used as Bearer with their role
// (spec 2.4 KeyInBody/KeyOut/NewKeyBody, spec 4.4 key format, DESIGN 6 and 9).
import { isWellFormedApiKey } from '@gatehouse/protocol';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { SECOND } from '../../src/platform/clock.js';
import { PASSWORD, signUp, uniqueEmail, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { addMember, createKey, errorLocations, type Member, type WorkspaceKey } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let ws: string;
let admin: Member;
let editor: Member;
let viewer: Member;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Kai Owner' });
  ws = owner.workspaceId;
  admin = await addMember(t, owner.client, ws, 'admin');
  editor = await addMember(t, owner.client, ws, 'editor');
  viewer = await addMember(t, owner.client, ws, 'viewer');
});
after(() => t.close());

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function listedKeys(reader = owner.client) {
  const listed = await reader.get(`/workspaces/${ws}/keys`);
  assert.equal(listed.status, 200, listed.text);
  return listed;
}

test('creating a key takes admin or owner; the key is shown once in the spec 4.4 format', async () => {
  for (const member of [editor, viewer]) {
    assert.equal((await member.client.post(`/workspaces/${ws}/keys`, { name: 'Nope' })).status, 403);
  }
  const created = await admin.client.post(`/workspaces/${ws}/keys`, { name: 'Deploy bot', role: 'viewer' });
  assert.equal(created.status, 200, created.text);
  const { key, ...rest } = created.body;
  assert.deepEqual(Object.keys(rest).sort(), ['created_at', 'id', 'name', 'prefix', 'role']);
  assert.match(rest.id, /^wsk_/);
  assert.equal(rest.name, 'Deploy bot');
  assert.equal(rest.role, 'viewer');
  assert.ok(isWellFormedApiKey(key), key);
  assert.match(key, /^ghw_[0-9A-Za-z]{46}$/);
  assert.ok(key.startsWith(rest.prefix));
  assert.ok(rest.prefix.length < key.length - 30, 'the prefix shows only the start');
});

test('a key name is 1 to 80 characters: 0, 81 and blanks are refused; 1 and 80 accepted', async () => {
  for (const name of ['', 'k'.repeat(81), '   ']) {
    const refused = await owner.client.post(`/workspaces/${ws}/keys`, { name });
    assert.equal(refused.status, 422, JSON.stringify(name));
    assert.deepEqual(errorLocations(refused.body), ['body.name']);
  }
  const missing = await owner.client.post(`/workspaces/${ws}/keys`, { role: 'admin' });
  assert.equal(missing.status, 422);
  assert.deepEqual(errorLocations(missing.body), ['body.name']);
  for (const name of ['k', 'k'.repeat(80)]) {
    const created = await owner.client.post(`/workspaces/${ws}/keys`, { name });
    assert.equal(created.status, 200, created.text);
    assert.equal(created.body.name, name);
  }
});

test('the role defaults to editor and is admin, editor or viewer, never owner', async () => {
  const defaulted = await owner.client.post(`/workspaces/${ws}/keys`, { name: 'Default role' });
  assert.equal(defaulted.body.role, 'editor');
  for (const role of ['admin', 'editor', 'viewer']) {
    assert.equal((await owner.client.post(`/workspaces/${ws}/keys`, { name: role, role })).body.role, role);
  }
  for (const role of ['owner', 'root']) {
    const refused = await owner.client.post(`/workspaces/${ws}/keys`, { name: 'Too much', role });
    assert.equal(refused.status, 422);
    assert.deepEqual(errorLocations(refused.body), ['body.role']);
  }
});

test('the list shows every key without the key itself, to viewers too', async () => {
  const created = await createKey(t, owner.client, ws, 'editor', 'Listed');
  for (const reader of [owner.client, admin.client, viewer.client, created.client]) {
    const listed = await listedKeys(reader);
    assert.ok(!listed.text.includes(created.key), 'the key never appears in the list');
    const entry = listed.body.keys.find((k: { id: string }) => k.id === created.id);
    assert.ok(entry);
    assert.equal(entry.name, 'Listed');
    assert.equal(entry.role, 'editor');
    assert.ok(created.key.startsWith(entry.prefix));
    for (const k of listed.body.keys) {
      assert.deepEqual(Object.keys(k).filter((f) => !['id', 'name', 'prefix', 'role', 'created_at', 'last_used_at'].includes(f)), []);
    }
  }
});

test('the database keeps only the SHA-256 of a key', async () => {
  const created = await createKey(t, owner.client, ws, 'viewer', 'Stored');
  const row = await t.services.db.selectFrom('workspace_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
  assert.equal(row.key_hash, sha256(created.key));
  assert.match(row.key_hash, /^[0-9a-f]{64}$/);
  const secretPart = created.key.slice(row.prefix.length);
  for (const [column, value] of Object.entries(row)) {
    const text = value instanceof Date ? value.toISOString() : String(value);
    assert.ok(!text.includes(created.key), `${column} holds the key`);
    assert.ok(!text.includes(secretPart), `${column} holds the secret part of the key`);
  }
  // Nor does anything else written alongside it.
  const events = await t.services.db.selectFrom('audit_events').selectAll().where('workspace_id', '=', ws).execute();
  assert.ok(!JSON.stringify(events).includes(secretPart));
});

test('a key acts with its role: a viewer key reads and gets 403 on changes', async () => {
  const key = await createKey(t, owner.client, ws, 'viewer');
  const read = await key.client.get(`/workspaces/${ws}`);
  assert.equal(read.status, 200);
  assert.equal(read.body.role, 'viewer');
  assert.equal((await key.client.get(`/workspaces/${ws}/members`)).status, 200);
  assert.equal((await key.client.get(`/workspaces/${ws}/audit`)).status, 200);
  assert.equal((await key.client.patch(`/workspaces/${ws}`, { name: 'Renamed by viewer' })).status, 403);
  assert.equal((await key.client.post(`/workspaces/${ws}/invites`, { email: uniqueEmail('vk'), role: 'viewer' })).status, 403);
  assert.equal((await key.client.post(`/workspaces/${ws}/keys`, { name: 'escalate', role: 'admin' })).status, 403);
  assert.equal((await key.client.delete(`/workspaces/${ws}/keys/${key.id}`)).status, 403);
});

test('an editor key cannot manage members; an admin key can invite, without a CSRF header', async () => {
  const editorKey = await createKey(t, owner.client, ws, 'editor');
  assert.equal((await editorKey.client.post(`/workspaces/${ws}/invites`, { email: uniqueEmail('ek'), role: 'viewer' })).status, 403);

  const adminKey = await createKey(t, owner.client, ws, 'admin', 'Onboarding bot');
  const email = uniqueEmail('by-key');
  const invited = await adminKey.client.post(`/workspaces/${ws}/invites`, { email, role: 'viewer' }, { noCsrfHeader: true });
  assert.equal(invited.status, 200, invited.text);
  const mail = await t.mail.waitFor(email, /You are invited to/);
  assert.match(mail.text, /^Onboarding bot invited you/);
  assert.equal((await adminKey.client.delete(`/workspaces/${ws}`)).status, 403, 'deleting the workspace takes an owner');
});

test('last_used_at appears after use and is written at most once a minute', async () => {
  const key = await createKey(t, owner.client, ws, 'viewer');
  const lastUsed = async () => (await listedKeys()).body.keys.find((k: { id: string }) => k.id === key.id).last_used_at as string | undefined;
  assert.equal(await lastUsed(), undefined);

  const from = t.clock.now().getTime();
  assert.equal((await key.client.get(`/workspaces/${ws}`)).status, 200);
  const to = t.clock.now().getTime();
  const first = await lastUsed();
  assert.ok(first);
  assert.ok(from <= Date.parse(first) && Date.parse(first) <= to, 'the time of the request');

  t.clock.advance(59 * SECOND);
  await key.client.get(`/workspaces/${ws}`);
  assert.equal(await lastUsed(), first, 'within the minute nothing is written');

  t.clock.advance(2 * SECOND);
  await key.client.get(`/workspaces/${ws}`);
  const second = await lastUsed();
  assert.ok(second && Date.parse(second) >= Date.parse(first) + 61 * SECOND, `${first} then ${second}`);
});

test('revoking takes admin or owner; a revoked key gets 401 and leaves the list', async () => {
  const key = await createKey(t, owner.client, ws, 'admin', 'Short lived');
  const viewerKey = await createKey(t, owner.client, ws, 'viewer');
  for (const caller of [editor.client, viewer.client, viewerKey.client]) {
    assert.equal((await caller.delete(`/workspaces/${ws}/keys/${key.id}`)).status, 403);
  }
  assert.equal((await key.client.get(`/workspaces/${ws}`)).status, 200);

  assert.equal((await admin.client.delete(`/workspaces/${ws}/keys/${key.id}`)).status, 204);
  for (const request of [() => key.client.get(`/workspaces/${ws}`), () => key.client.get(`/workspaces/${ws}/keys`), () => key.client.post(`/workspaces/${ws}/invites`, { email: uniqueEmail('late'), role: 'viewer' })]) {
    const answer = await request();
    assert.equal(answer.status, 401);
    assert.match(answer.headers.get('content-type') ?? '', /application\/problem\+json/);
  }
  assert.ok(!(await listedKeys()).body.keys.some((k: { id: string }) => k.id === key.id));
  assert.equal((await admin.client.delete(`/workspaces/${ws}/keys/${key.id}`)).status, 404, 'revoked already');
  assert.equal((await admin.client.delete(`/workspaces/${ws}/keys/wsk_unknown00000000000`)).status, 404);
});

test('a key of one workspace gets 404 for another, and its id cannot be revoked from there', async () => {
  const other = await signUp(t, { name: 'Other Owner' });
  const theirs: WorkspaceKey = await createKey(t, other.client, other.workspaceId, 'admin');
  for (const path of ['', '/members', '/keys', '/audit']) {
    assert.equal((await theirs.client.get(`/workspaces/${ws}${path}`)).status, 404, path);
  }
  assert.equal((await theirs.client.patch(`/workspaces/${ws}`, { name: 'Hijacked' })).status, 404);
  assert.equal((await theirs.client.post(`/workspaces/${ws}/keys`, { name: 'Planted' })).status, 404);
  assert.equal((await owner.client.delete(`/workspaces/${ws}/keys/${theirs.id}`)).status, 404);
  assert.equal((await theirs.client.get(`/workspaces/${other.workspaceId}`)).status, 200, 'still works at home');
});

test('a key cannot use the routes of a person (403)', async () => {
  const key = await createKey(t, owner.client, ws, 'admin');
  const attempts = [
    key.client.get('/me'),
    key.client.patch('/me', { name: 'Key person' }),
    key.client.post('/me/password', { current_password: PASSWORD, password: 'a new password' }),
    key.client.post('/me/2fa/setup'),
    key.client.post('/workspaces', { name: 'By key' }),
  ];
  for (const answer of await Promise.all(attempts)) assert.equal(answer.status, 403, answer.text);
});

test('a request with Authorization is judged by that header alone, whatever cookie comes with it', async () => {
  const revoked = await createKey(t, owner.client, ws, 'admin');
  assert.equal((await owner.client.delete(`/workspaces/${ws}/keys/${revoked.id}`)).status, 204);
  const viewerKey = await createKey(t, owner.client, ws, 'viewer');

  // owner.client carries a valid session cookie.
  for (const authorization of ['Bearer ghw_unknownKeyValue', `Bearer ${revoked.key}`, 'Basic b3duZXI6cGFzc3dvcmQ=', 'Bearer', '']) {
    for (const answer of [
      await owner.client.get('/me', { headers: { authorization } }),
      await owner.client.get(`/workspaces/${ws}`, { headers: { authorization } }),
      await owner.client.patch(`/workspaces/${ws}`, { name: 'Should not' }, { headers: { authorization } }),
    ]) {
      assert.equal(answer.status, 401, `${JSON.stringify(authorization)}: ${answer.text}`);
    }
  }
  // A valid key with the owner's cookie acts as the key, not as the owner.
  const asKey = await owner.client.get(`/workspaces/${ws}`, { headers: { authorization: `Bearer ${viewerKey.key}` } });
  assert.equal(asKey.body.role, 'viewer');
  assert.equal((await owner.client.patch(`/workspaces/${ws}`, { name: 'Should not' }, { headers: { authorization: `Bearer ${viewerKey.key}` } })).status, 403);
  assert.equal((await owner.client.get(`/workspaces/${ws}`)).body.name, 'Kai Owner');
});
