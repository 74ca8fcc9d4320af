// A person's sessions in the owner console (DESIGN 8): the live ones listed newest first (ended
// and expired ones left out), one ended by an editor (its access tokens then answer inactive,
// the person's other session lives on), audited; viewers read but do not end; another person's
// session, an ended one and another API's person are 404.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { introspect, webTokens } from '../support/issuer-flows.js';
import { signedInPerson, startIssuer, type IssuerFixture } from '../support/issuer.js';
import { apiAuditEvents, createApi } from '../support/money.js';
import { createPerson, expectStatus, startPersonSession } from '../support/signin.js';
import { addMember, type Member } from '../support/workspaces.js';

let f: IssuerFixture;
let viewer: Member;
before(async () => {
  f = await startIssuer('Sessions API');
  viewer = await addMember(f.t, f.owner.client, f.owner.workspaceId, 'viewer');
});
after(() => f.t.close());

const sessionsOf = (personId: string, apiId = f.apiId) => `/apis/${apiId}/signin/people/${personId}/sessions`;

test('live sessions are listed newest first with how they signed in; ended and expired ones are not', async () => {
  const person = await createPerson(f.t, f.apiId);
  assert.deepEqual(expectStatus(await viewer.client.get(sessionsOf(person.id)), 200), { sessions: [] });
  const older = await startPersonSession(f.t, f.apiId, person.id);
  f.t.clock.advance(1000);
  const newer = await startPersonSession(f.t, f.apiId, person.id, 7200);
  const short = await startPersonSession(f.t, f.apiId, person.id, 60);
  f.t.clock.advance(61_000);
  const listed = expectStatus(await viewer.client.get(sessionsOf(person.id)), 200).sessions as Record<string, unknown>[];
  assert.deepEqual(listed.map((s) => s.id), [newer.id, older.id], 'the expired one is left out');
  assert.deepEqual(Object.keys(listed[0]!).sort(), ['amr', 'auth_time', 'created_at', 'expires_at', 'id']);
  assert.deepEqual(listed[0]!.amr, ['pwd']);
  assert.equal(listed[0]!.expires_at, newer.expiresAt.toISOString());
  assert.ok(!JSON.stringify(listed).includes(newer.token), 'no session token');
  assert.equal(short.id.startsWith('sid'), true);
});

test('ending one session signs that browser out: its tokens answer inactive, the other session lives on; audited', async () => {
  const { person, session, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id, { scope: 'openid read:weather' });
  assert.equal((await introspect(f, tokens.access_token)).body.active, true);
  const other = await startPersonSession(f.t, f.apiId, person.id);

  assert.equal((await viewer.client.delete(`${sessionsOf(person.id)}/${session.id}`)).status, 403, 'viewers do not end sessions');
  const ended = await f.owner.client.delete(`${sessionsOf(person.id)}/${session.id}`);
  assert.equal(ended.status, 204, ended.text);
  assert.deepEqual((await introspect(f, tokens.access_token)).body, { active: false });
  const left = expectStatus(await viewer.client.get(sessionsOf(person.id)), 200).sessions as { id: string }[];
  assert.deepEqual(left.map((s) => s.id), [other.id]);
  const [event] = await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId);
  assert.deepEqual([event!.action, event!.target_id, event!.details], ['signin_person.session_end', person.id, { session_id: session.id }]);

  // Ended already: 404, and no second event.
  assert.equal((await f.owner.client.delete(`${sessionsOf(person.id)}/${session.id}`)).status, 404);
  assert.equal((await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId))[0]!.id, event!.id);
});

test("another person's session, an unknown person and another API's person are 404", async () => {
  const a = await createPerson(f.t, f.apiId);
  const b = await createPerson(f.t, f.apiId);
  const bSession = await startPersonSession(f.t, f.apiId, b.id);
  assert.equal((await f.owner.client.delete(`${sessionsOf(a.id)}/${bSession.id}`)).status, 404);
  assert.equal((await f.owner.client.get(sessionsOf('per_none'))).status, 404);
  const elsewhere = await createApi(f.t, { name: 'Elsewhere' }, f.owner);
  assert.equal((await f.owner.client.get(sessionsOf(b.id, elsewhere.apiId))).status, 404);
  assert.equal((await f.owner.client.delete(`${sessionsOf(b.id, elsewhere.apiId)}/${bSession.id}`)).status, 404);
  assert.deepEqual((expectStatus(await viewer.client.get(sessionsOf(b.id)), 200).sessions as { id: string }[]).map((s) => s.id), [bSession.id], 'still live');
});
