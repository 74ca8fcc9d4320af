// The audit log: one event per change with actor, target, summary and address, never a secret;
// newest first, paged with next_before (spec 2.1 AuditBody/AuditOut, spec 6, DESIGN 9).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestClient } from '../support/client.js';
import { PASSWORD, signUp, uniqueEmail, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer } from '../support/money.js';
import { addMember, auditEvents, createKey, errorLocations, eventsWrittenBy, sendInvite, type AuditEvent } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Otto Owner' });
});
after(() => t.close());

const AUDIT_FIELDS = ['action', 'actor_id', 'actor_name', 'actor_type', 'created_at', 'details', 'id', 'ip', 'summary', 'target_id', 'target_type'];

/** The one event a change wrote, checked against what it should say. */
function theOneEvent(events: AuditEvent[], expected: Partial<AuditEvent>): AuditEvent {
  assert.equal(events.length, 1, `one event, got ${events.map((e) => e.action).join(', ') || 'none'}`);
  const [event] = events as [AuditEvent];
  assert.deepEqual(Object.keys(event).sort(), AUDIT_FIELDS);
  assert.match(event.id, /^aud_/);
  assert.equal(event.ip, '127.0.0.1');
  assert.ok(!Number.isNaN(Date.parse(event.created_at)));
  assert.ok(event.summary.length > 0);
  for (const [field, value] of Object.entries(expected)) assert.deepEqual(event[field as keyof AuditEvent], value, field);
  return event;
}

async function newWorkspace(name: string): Promise<string> {
  const created = await owner.client.post('/workspaces', { name });
  assert.equal(created.status, 200);
  return created.body.id;
}

/** Every page of the log, following next_before to the end. */
async function wholeLog(client: TestClient, ws: string, limit: number): Promise<{ events: AuditEvent[]; pages: number; text: string }> {
  const events: AuditEvent[] = [];
  let text = '';
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await client.get(`/workspaces/${ws}/audit?limit=${limit}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200, page.text);
    events.push(...page.body.events);
    text += page.text;
    cursor = page.body.next_before;
    pages++;
  } while (cursor);
  return { events, pages, text };
}

/** Adds `count` events to a workspace's log, cheaply: renames. */
async function fillLog(ws: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) assert.equal((await owner.client.patch(`/workspaces/${ws}`, { name: `Filler ${i}` })).status, 200);
}

test('each change writes exactly one event naming actor, target, summary and address', async () => {
  const secrets: string[] = [PASSWORD];
  const created = await owner.client.post('/workspaces', { name: 'Audited' });
  const ws: string = created.body.id;
  theOneEvent(await auditEvents(owner.client, ws), {
    action: 'workspace.create', actor_type: 'user', actor_id: owner.userId, actor_name: 'Otto Owner', target_type: 'workspace', target_id: ws,
  });
  const log = (change: () => Promise<{ status: number }>, okStatus: number) =>
    eventsWrittenBy(owner.client, ws, async () => {
      const answer = await change();
      assert.equal(answer.status, okStatus);
      return answer;
    });

  const renamed = await log(() => owner.client.patch(`/workspaces/${ws}`, { name: 'Audited again' }), 200);
  theOneEvent(renamed.events, { action: 'workspace.rename', target_type: 'workspace', target_id: ws, details: { from: 'Audited', to: 'Audited again' } });

  // Invitations: sent, revoked, replaced, accepted by a new address and by an existing account.
  const newcomer = uniqueEmail('newcomer');
  const invited = await eventsWrittenBy(owner.client, ws, () => sendInvite(t, owner.client, ws, newcomer, 'editor'));
  secrets.push(invited.result.token);
  const invite = theOneEvent(invited.events, { action: 'member.invite', actor_id: owner.userId, target_type: 'invite', target_id: invited.result.id, details: { email: newcomer, role: 'editor' } });
  assert.match(invite.summary, new RegExp(newcomer.replace(/[.+]/g, '\\$&')));

  const replaced = await eventsWrittenBy(owner.client, ws, () => sendInvite(t, owner.client, ws, newcomer, 'viewer'));
  secrets.push(replaced.result.token);
  theOneEvent(replaced.events, { action: 'member.invite', target_id: replaced.result.id, details: { email: newcomer, role: 'viewer' } });

  const revoked = await log(() => owner.client.delete(`/workspaces/${ws}/invites/${replaced.result.id}`), 204);
  theOneEvent(revoked.events, { action: 'invite.revoke', target_type: 'invite', target_id: replaced.result.id, details: { email: newcomer } });

  const again = await sendInvite(t, owner.client, ws, newcomer, 'viewer');
  secrets.push(again.token);
  const newcomerClient = t.client();
  const acceptPassword = 'newcomer secret pass';
  secrets.push(acceptPassword);
  const accepted = await log(() => newcomerClient.post(`/invites/${again.token}/accept`, { name: 'Nina Newcomer', password: acceptPassword }), 200);
  const newcomerId = (await newcomerClient.get('/me')).body.user.id;
  theOneEvent(accepted.events, {
    action: 'invite.accept', actor_type: 'user', actor_id: newcomerId, actor_name: 'Nina Newcomer', target_type: 'user', target_id: newcomerId, details: { invite_id: again.id, role: 'viewer' },
  });
  secrets.push(...newcomerClient.cookies.values());

  const existing = await signUp(t, { name: 'Ezra Existing' });
  secrets.push(...existing.client.cookies.values());
  const existingInvite = await sendInvite(t, owner.client, ws, existing.email, 'editor');
  secrets.push(existingInvite.token);
  const joined = await log(() => existing.client.post(`/invites/${existingInvite.token}/accept`, {}), 200);
  theOneEvent(joined.events, { action: 'invite.accept', actor_id: existing.userId, target_id: existing.userId, details: { invite_id: existingInvite.id, role: 'editor' } });

  // Roles and membership.
  const promoted = await log(() => owner.client.put(`/workspaces/${ws}/members/${newcomerId}/role`, { role: 'admin' }), 200);
  theOneEvent(promoted.events, { action: 'member.role_change', target_type: 'user', target_id: newcomerId, details: { from: 'viewer', to: 'admin' } });

  const removed = await log(() => newcomerClient.delete(`/workspaces/${ws}/members/${existing.userId}`), 204);
  theOneEvent(removed.events, { action: 'member.remove', actor_id: newcomerId, target_type: 'user', target_id: existing.userId, details: { role: 'editor' } });

  const left = await log(() => newcomerClient.delete(`/workspaces/${ws}/members/${newcomerId}`), 204);
  theOneEvent(left.events, { action: 'member.leave', actor_id: newcomerId, target_id: newcomerId, details: { role: 'admin' } });

  // Workspace keys, and a key as the actor of a change.
  const keyMade = await eventsWrittenBy(owner.client, ws, () => createKey(t, owner.client, ws, 'admin', 'Audit bot'));
  const key = keyMade.result;
  secrets.push(key.key);
  const keyEvent = theOneEvent(keyMade.events, { action: 'workspace_key.create', actor_id: owner.userId, target_type: 'workspace_key', target_id: key.id });
  const prefix = (await owner.client.get(`/workspaces/${ws}/keys`)).body.keys.find((k: { id: string }) => k.id === key.id).prefix;
  assert.deepEqual(keyEvent.details, { key_id: key.id, prefix, role: 'admin' });

  const byKeyEmail = uniqueEmail('by-key');
  const byKey = await eventsWrittenBy(owner.client, ws, () => sendInvite(t, key.client, ws, byKeyEmail, 'viewer'));
  secrets.push(byKey.result.token);
  theOneEvent(byKey.events, { action: 'member.invite', actor_type: 'key', actor_id: key.id, actor_name: 'Audit bot', target_id: byKey.result.id });

  const keyRevoked = await log(() => owner.client.delete(`/workspaces/${ws}/keys/${key.id}`), 204);
  theOneEvent(keyRevoked.events, { action: 'workspace_key.revoke', target_type: 'workspace_key', target_id: key.id, details: { key_id: key.id, prefix } });

  // No key, token, password or session appears anywhere in what the log shows.
  const { text } = await wholeLog(owner.client, ws, 200);
  secrets.push(...owner.client.cookies.values());
  for (const secret of secrets) assert.ok(!text.includes(secret), `the audit log shows a secret (${secret.slice(0, 6)}…)`);
  assert.ok(!text.includes(key.key.slice(prefix.length)), 'nor the secret part of a key');
});

test('refused changes write nothing', async () => {
  const ws = await newWorkspace('Quiet');
  const viewer = await addMember(t, owner.client, ws, 'viewer');
  const { events } = await eventsWrittenBy(owner.client, ws, async () => {
    assert.equal((await viewer.client.patch(`/workspaces/${ws}`, { name: 'No' })).status, 403);
    assert.equal((await owner.client.patch(`/workspaces/${ws}`, { name: '' })).status, 422);
    assert.equal((await owner.client.put(`/workspaces/${ws}/members/${owner.userId}/role`, { role: 'viewer' })).status, 409);
    assert.equal((await owner.client.delete(`/workspaces/${ws}/members/${owner.userId}`)).status, 409);
    assert.equal((await owner.client.post(`/workspaces/${ws}/invites`, { email: viewer.email, role: 'admin' })).status, 409);
    assert.equal((await owner.client.delete(`/workspaces/${ws}/invites/inv_missing0000000000000`)).status, 404);
    assert.equal((await owner.client.delete(`/workspaces/${ws}/keys/wsk_missing0000000000000`)).status, 404);
    assert.equal((await viewer.client.post(`/workspaces/${ws}/keys`, { name: 'No' })).status, 403);
  });
  assert.deepEqual(events, []);
});

test('events are listed newest first', async () => {
  const ws = await newWorkspace('Ordered');
  await fillLog(ws, 12);
  const events = await auditEvents(owner.client, ws);
  assert.equal(events.length, 13);
  assert.deepEqual(events.map((e) => e.action), [...Array(12).fill('workspace.rename'), 'workspace.create']);
  assert.deepEqual(events.map((e) => e.details.to).slice(0, 12), Array.from({ length: 12 }, (_, i) => `Filler ${11 - i}`));
  for (let i = 1; i < events.length; i++) assert.ok(events[i - 1]!.created_at >= events[i]!.created_at);
});

test('limit is 1 to 200: 0 and 201 are 422, 1 and 200 give that many; the default is 50', async () => {
  const ws = await newWorkspace('Bounded');
  await fillLog(ws, 205);
  for (const limit of ['0', '201', '-1', 'abc', '1.5']) {
    const refused = await owner.client.get(`/workspaces/${ws}/audit?limit=${limit}`);
    assert.equal(refused.status, 422, limit);
    assert.deepEqual(errorLocations(refused.body), ['query.limit']);
  }
  for (const [query, count] of [['limit=1', 1], ['limit=200', 200], ['', 50]] as const) {
    const page = await owner.client.get(`/workspaces/${ws}/audit?${query}`);
    assert.equal(page.status, 200, query);
    assert.equal(page.body.events.length, count, query);
    assert.equal(typeof page.body.next_before, 'string', query);
  }
  const all = await wholeLog(owner.client, ws, 200);
  assert.equal(all.events.length, 206);
  assert.equal(all.pages, 2);
});

test('next_before pages through without gaps or repeats while new events are added', async () => {
  const ws = await newWorkspace('Paged');
  await fillLog(ws, 30);
  const snapshot = (await auditEvents(owner.client, ws)).map((e) => e.id);
  assert.equal(snapshot.length, 31);

  const seen: string[] = [];
  let cursor: string | undefined;
  let page = 0;
  do {
    const answer = await owner.client.get(`/workspaces/${ws}/audit?limit=7${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(answer.status, 200, answer.text);
    assert.ok(answer.body.events.length <= 7);
    seen.push(...answer.body.events.map((e: AuditEvent) => e.id));
    cursor = answer.body.next_before;
    page++;
    // Newer events arrive between pages; they belong before the first page, not in the middle.
    await fillLog(ws, 2);
  } while (cursor);
  assert.equal(page, 5);
  assert.deepEqual(seen, snapshot);


  // A cursor comes only while something older is left.
  const count = (await auditEvents(owner.client, ws)).length;
  assert.equal((await owner.client.get(`/workspaces/${ws}/audit?limit=${count}`)).body.next_before, undefined);
  const short = await owner.client.get(`/workspaces/${ws}/audit?limit=${count - 1}`);
  assert.equal(typeof short.body.next_before, 'string');
  const rest = await owner.client.get(`/workspaces/${ws}/audit?limit=${count - 1}&before=${encodeURIComponent(short.body.next_before)}`);
  assert.equal(rest.body.events.length, 1);
  assert.equal(rest.body.next_before, undefined);
});

test('a cursor the API did not give is 422 naming query.before', async () => {
  const ws = await newWorkspace('Cursors');
  await fillLog(ws, 3);
  const given = (await owner.client.get(`/workspaces/${ws}/audit?limit=1`)).body.next_before as string;
  assert.equal((await owner.client.get(`/workspaces/${ws}/audit?before=${encodeURIComponent(given)}`)).status, 200);

  const encode = (text: string) => Buffer.from(text).toString('base64url');
  const bad = [
    'junk',
    '!!!!',
    encode('yesterday|aud_x'),
    encode('2026-01-01T00:00:00.000Z|'),
    encode('2026-01-01T00:00:00.000Z|aud_x|more'),
    encode('-271821-04-20T00:00:00.000Z|aud_x'),
    encode('+275760-09-13T00:00:00.000Z|aud_x'),
    encode('2026-01-01T00:00:00.000Z|aud_\u0000x'),
    encode("2026-01-01T00:00:00.000Z|aud_x' or '1'='1"),
    'c'.repeat(201),
  ];
  for (const cursor of bad) {
    const refused = await owner.client.get(`/workspaces/${ws}/audit?before=${encodeURIComponent(cursor)}`);
    assert.equal(refused.status, 422, `${cursor}: ${refused.text}`);
    assert.deepEqual(errorLocations(refused.body), ['query.before']);
  }
});

test('viewers, viewer keys and every member role can read the log; others cannot', async () => {
  const ws = await newWorkspace('Readers');
  const readers = [
    (await addMember(t, owner.client, ws, 'viewer')).client,
    (await addMember(t, owner.client, ws, 'editor')).client,
    (await addMember(t, owner.client, ws, 'admin')).client,
    (await createKey(t, owner.client, ws, 'viewer')).client,
  ];
  for (const reader of readers) {
    const page = await reader.get(`/workspaces/${ws}/audit`);
    assert.equal(page.status, 200);
    assert.ok(page.body.events.some((e: AuditEvent) => e.action === 'workspace.create'));
  }
  const stranger = await signUp(t, { name: 'Stranger' });
  assert.equal((await stranger.client.get(`/workspaces/${ws}/audit`)).status, 404);
  assert.equal((await t.client().get(`/workspaces/${ws}/audit`)).status, 401);
});

test('api_id narrows the log to one API; an API with no events gives an empty page', async () => {
  const ws = await newWorkspace('Filtered');
  const page = await owner.client.get(`/workspaces/${ws}/audit?api_id=api_none`);
  assert.equal(page.status, 200);
  assert.deepEqual(page.body, { events: [] });
  const tooLong = await owner.client.get(`/workspaces/${ws}/audit?api_id=${'a'.repeat(65)}`);
  assert.equal(tooLong.status, 422);
  assert.deepEqual(errorLocations(tooLong.body), ['query.api_id']);
});

/** Every event of a filtered log (pages of `limit`), as `action` names, newest first. */
async function filtered(client: TestClient, ws: string, query: string, limit = 200): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.get(`/workspaces/${ws}/audit?${query}&limit=${limit}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200, `${query}: ${page.text}`);
    events.push(...page.body.events);
    cursor = page.body.next_before;
  } while (cursor);
  return events;
}

test('action narrows the log to one action or to a family of them (member = member.…), pages included', async () => {
  const ws = await newWorkspace('Actions');
  await fillLog(ws, 3);
  const invited = await sendInvite(t, owner.client, ws, uniqueEmail('family'), 'viewer');
  assert.equal((await owner.client.delete(`/workspaces/${ws}/invites/${invited.id}`)).status, 204);
  await createKey(t, owner.client, ws, 'viewer');
  const everything = await auditEvents(owner.client, ws);
  const actions = (query: string) => filtered(owner.client, ws, query).then((events) => events.map((e) => e.action));

  assert.deepEqual(await actions('action=workspace.rename'), ['workspace.rename', 'workspace.rename', 'workspace.rename']);
  // A family is the part before the dot: `workspace` is workspace.create and .rename, never the
  // workspace_key family, and `_` in a family is a character, not LIKE's wildcard.
  assert.deepEqual(await actions('action=workspace'), ['workspace.rename', 'workspace.rename', 'workspace.rename', 'workspace.create']);
  assert.deepEqual(await actions('action=workspace_key'), ['workspace_key.create']);
  assert.deepEqual(await actions('action=workspacexkey'), []);
  assert.deepEqual(await actions('action=invite'), ['invite.revoke']);
  assert.deepEqual(await actions('action=member'), ['member.invite']);
  assert.deepEqual(await actions('action=member.invit'), [], 'not a prefix of an action name');
  assert.deepEqual(await actions('action=no_such.action'), []);
  // The filtered events are the log's own, in its order, and next_before pages through them.
  const renames = everything.filter((e) => e.action.startsWith('workspace.'));
  assert.deepEqual(await filtered(owner.client, ws, 'action=workspace', 1), renames);
  // With another filter: both apply.
  assert.deepEqual(await actions(`action=workspace&actor_id=${owner.userId}`), ['workspace.rename', 'workspace.rename', 'workspace.rename', 'workspace.create']);
});

test('actor_id narrows the log to what one person or key did', async () => {
  const ws = await newWorkspace('Actors');
  const admin = await addMember(t, owner.client, ws, 'admin');
  const key = await createKey(t, owner.client, ws, 'admin', 'Robot');
  assert.equal((await admin.client.patch(`/workspaces/${ws}`, { name: 'Actors by admin' })).status, 200);
  await sendInvite(t, key.client, ws, uniqueEmail('by-robot'), 'viewer');
  assert.equal((await key.client.patch(`/workspaces/${ws}`, { name: 'Actors by robot' })).status, 200);

  const byAdmin = await filtered(owner.client, ws, `actor_id=${admin.userId}`);
  assert.deepEqual(byAdmin.map((e) => e.action), ['workspace.rename', 'invite.accept']);
  assert.ok(byAdmin.every((e) => e.actor_id === admin.userId));
  const byKey = await filtered(owner.client, ws, `actor_id=${key.id}`, 1);
  assert.deepEqual(byKey.map((e) => [e.action, e.actor_type, e.actor_name]), [['workspace.rename', 'key', 'Robot'], ['member.invite', 'key', 'Robot']]);
  assert.deepEqual(
    (await filtered(owner.client, ws, `actor_id=${owner.userId}`)).map((e) => e.action),
    ['workspace_key.create', 'member.invite', 'workspace.create'],
  );
  assert.deepEqual(await filtered(owner.client, ws, 'actor_id=usr_nobody'), []);
});

test('customer_id narrows the log to one customer; another workspace\'s customer shows nothing', async () => {
  const api = await createApi(t, { name: 'Audited API' }, owner);
  const acme = await createCustomer(t, api, 'Acme');
  const globex = await createCustomer(t, api, 'Globex');
  assert.equal((await owner.client.post(`/apis/${api.apiId}/customers/${acme.id}/credit`, { amount_micro: 5_000_000, note: 'Goodwill' })).status, 200);
  assert.equal((await owner.client.post(`/apis/${api.apiId}/customers/${globex.id}/credit`, { amount_micro: 1_000_000, note: 'Trial' })).status, 200);

  const ofAcme = await filtered(owner.client, owner.workspaceId, `customer_id=${acme.id}`);
  assert.deepEqual(ofAcme.map((e) => e.action), ['customer.credit', 'customer.create']);
  assert.ok(ofAcme.every((e) => e.customer_id === acme.id && e.customer_name === 'Acme' && e.api_id === api.apiId));
  assert.deepEqual((await filtered(owner.client, owner.workspaceId, `customer_id=${globex.id}&action=customer.credit`)).map((e) => e.details), [{ amount_micro: 1_000_000 }]);
  assert.deepEqual(await filtered(owner.client, owner.workspaceId, `customer_id=${acme.id}&action=workspace`), []);

  // The filter reads this workspace's log only: the same customer id seen from elsewhere is empty.
  const other = await newWorkspace('Elsewhere');
  assert.deepEqual(await filtered(owner.client, other, `customer_id=${acme.id}`), []);
  const stranger = await signUp(t, { name: 'Nosy' });
  assert.equal((await stranger.client.get(`/workspaces/${owner.workspaceId}/audit?customer_id=${acme.id}`)).status, 404);
});

test('filters are bounded: bad or over-long values are 422 naming the field, 64 characters pass', async () => {
  const ws = await newWorkspace('Filter bounds');
  const before = await auditEvents(owner.client, ws);
  const refusals: [string, string][] = [
    ['action', ''],
    ['action', 'Member'],
    ['action', 'member.'],
    ['action', '.invite'],
    ['action', 'member.invite.again'],
    ['action', 'member%'],
    ['action', 'member.*'],
    ['action', '1member'],
    ['action', `a${'b'.repeat(64)}`],
    ['actor_id', ''],
    ['actor_id', 'usr x'],
    ['actor_id', "usr_x' or '1'='1"],
    ['actor_id', 'u'.repeat(65)],
    ['customer_id', ''],
    ['customer_id', 'cus_%'],
    ['customer_id', 'c'.repeat(65)],
  ];
  for (const [field, value] of refusals) {
    const refused = await owner.client.get(`/workspaces/${ws}/audit?${field}=${encodeURIComponent(value)}`);
    assert.equal(refused.status, 422, `${field}=${value}: ${refused.text}`);
    assert.deepEqual(errorLocations(refused.body), [`query.${field}`], `${field}=${value}`);
  }
  for (const query of [`action=a${'b'.repeat(63)}`, `actor_id=${'u'.repeat(64)}`, `customer_id=${'c'.repeat(64)}`, 'action=a', 'action=a.b', 'actor_id=domain-checks']) {
    const page = await owner.client.get(`/workspaces/${ws}/audit?${query}`);
    assert.equal(page.status, 200, `${query}: ${page.text}`);
    assert.deepEqual(page.body, { events: [] }, query);
  }
  // Reading, refused or not, wrote nothing.
  assert.deepEqual(await auditEvents(owner.client, ws), before);
});
