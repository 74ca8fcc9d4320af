// People of a sign-in service in the owner console (DESIGN 8): the list with cursor, search and
// status filter, one person with roles, suspension that ends live sessions (spec 3: suspended
// people's tokens answer inactive), reactivation, roles of this API only, isolation and audit.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR } from '../../src/platform/clock.js';
import type { SignedUp } from '../support/flows.js';
import { signUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, type ApiFixture } from '../support/money.js';
import { createPerson, expectStatus, findPersonSession, startPersonSession, startWithSignin } from '../support/signin.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithSignin('People API'));
});
after(() => t.close());

const PERSON_OUT = ['created_at', 'email', 'email_verified', 'id', 'name', 'roles', 'status'];
const people = (on = api) => `/apis/${on.apiId}/signin/people`;
const getPerson = async (id: string, on = api) => expectStatus(await viewer.client.get(`${people(on)}/${id}`), 200);
const setStatus = (id: string, status: unknown, client = editor.client) => client.patch(`${people()}/${id}`, { status });
const setRoles = (id: string, roleIds: unknown, client = editor.client, on = api) => client.put(`${people(on)}/${id}/roles`, { role_ids: roleIds });
let roleSerial = 0;
const newRole = async (on = api) => expectStatus(await editor.client.post(`/apis/${on.apiId}/signin/roles`, { name: `Role ${++roleSerial}` }), 200) as { id: string; name: string };

test('a person answers every PersonOut field and never a password hash', async () => {
  const person = await createPerson(t, api.apiId, { email: 'Ada@Example.com', name: 'Ada Lovelace' });
  await t.services.db.updateTable('people').set({ password_hash: '$argon2id$v=19$secret' }).where('id', '=', person.id).execute();
  const answer = await viewer.client.get(`${people()}/${person.id}`);
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(Object.keys(answer.body).sort(), PERSON_OUT);
  assert.deepEqual(answer.body, { id: person.id, email: 'ada@example.com', name: 'Ada Lovelace', email_verified: true, status: 'active', roles: [], created_at: person.created_at.toISOString() });
  assert.ok(!answer.text.includes('argon2'));
  await startPersonSession(t, api.apiId, person.id);
  const signedIn = await getPerson(person.id);
  assert.ok(signedIn.last_login_at, 'last_login_at appears after a sign-in');
  assert.ok(!(await viewer.client.get(people())).text.includes('argon2'));
});

test('the list pages newest first with a cursor; limit 1..200; a bad cursor is 422', async () => {
  const fresh = await createApi(t, { name: 'Paged People' }, owner);
  const made = [];
  for (let i = 0; i < 5; i++) made.push(await createPerson(t, fresh.apiId, { email: `p${i}@paged.test` }));
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = expectStatus(await viewer.client.get(`${people(fresh)}?limit=2${cursor ? `&cursor=${cursor}` : ''}`), 200);
    assert.ok(page.people.length <= 2);
    seen.push(...page.people.map((p: { id: string }) => p.id));
    cursor = page.next_cursor;
  } while (cursor);
  assert.deepEqual(seen, made.map((p) => p.id).reverse());
  for (const limit of [1, 200]) expectStatus(await viewer.client.get(`${people(fresh)}?limit=${limit}`), 200, `limit=${limit}`);
  for (const limit of [0, 201, 'x']) assertRefusedAt(await viewer.client.get(`${people(fresh)}?limit=${limit}`), 'query.limit');
  assertRefusedAt(await viewer.client.get(`${people(fresh)}?cursor=not-a-cursor`), 'query.cursor');
  assertRefusedAt(await viewer.client.get(`${people(fresh)}?cursor=${'c'.repeat(201)}`), 'query.cursor');
  assert.equal(expectStatus(await viewer.client.get(people(fresh)), 200).people.length, 5, 'the default page holds them all');
});

test('search matches part of an e-mail or name, case-insensitively and literally; status filters', async () => {
  const fresh = await createApi(t, { name: 'Searched People' }, owner);
  const grace = await createPerson(t, fresh.apiId, { email: 'grace@navy.test', name: 'Grace Hopper' });
  const alan = await createPerson(t, fresh.apiId, { email: 'alan@bletchley.test', name: 'Alan 100% Turing' });
  await createPerson(t, fresh.apiId, { email: 'ken@bell.test', name: 'Ken Thompson' });
  const search = async (query: string) => expectStatus(await viewer.client.get(`${people(fresh)}?${query}`), 200).people.map((p: { id: string }) => p.id);
  assert.deepEqual(await search('q=HOPPER'), [grace.id]);
  assert.deepEqual(await search('q=navy.test'), [grace.id]);
  assert.deepEqual(await search(`q=${encodeURIComponent('100%')}`), [alan.id]);
  assert.deepEqual(await search(`q=${encodeURIComponent('%')}`), [alan.id], '% is a character, not a wildcard');
  assert.deepEqual(await search('q=_'), [], '_ is a character, not a wildcard');
  assert.deepEqual(await search('q=nobody'), []);
  expectStatus(await editor.client.patch(`${people(fresh)}/${alan.id}`, { status: 'suspended' }), 200);
  assert.deepEqual(await search('status=suspended'), [alan.id]);
  assert.equal((await search('status=active')).length, 2);
  assertRefusedAt(await viewer.client.get(`${people(fresh)}?status=pending`), 'query.status');
  assertRefusedAt(await viewer.client.get(`${people(fresh)}?q=${'a'.repeat(255)}`), 'query.q');
  expectStatus(await viewer.client.get(`${people(fresh)}?q=${'a'.repeat(254)}`), 200);
});

test('suspending ends every live session of the person, no one else\'s; reactivating restores the status only', async () => {
  const person = await createPerson(t, api.apiId);
  const bystander = await createPerson(t, api.apiId);
  const first = await startPersonSession(t, api.apiId, person.id);
  const second = await startPersonSession(t, api.apiId, person.id);
  const short = await startPersonSession(t, api.apiId, person.id, 60);
  const other = await startPersonSession(t, api.apiId, bystander.id);
  t.clock.advance(120_000);
  const suspendedAt = t.clock.now();
  const suspended = expectStatus(await setStatus(person.id, 'suspended'), 200);
  assert.equal(suspended.status, 'suspended');
  for (const session of [first, second]) {
    const ended = (await findPersonSession(t, api.apiId, session.id))!.ended_at;
    assert.ok(ended && ended >= suspendedAt && ended.getTime() < suspendedAt.getTime() + 60_000, 'ended at the suspension');
  }
  assert.equal((await findPersonSession(t, api.apiId, short.id))!.ended_at, null, 'an expired session is left as it was');
  assert.equal((await findPersonSession(t, api.apiId, other.id))!.ended_at, null, "another person's session lives on");
  const [event] = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.deepEqual([event!.action, event!.target_id, event!.details], ['signin_person.suspend', person.id, { sessions_ended: 2 }]);

  expectStatus(await setStatus(person.id, 'suspended'), 200);
  assert.equal((await apiAuditEvents(owner.client, owner.workspaceId, api.apiId))[0]!.id, event!.id, 'suspending again changes nothing');
  t.clock.advance(HOUR);
  const reactivated = expectStatus(await setStatus(person.id, 'active'), 200);
  assert.equal(reactivated.status, 'active');
  assert.ok((await findPersonSession(t, api.apiId, first.id))!.ended_at, 'ended sessions stay ended');
  assert.equal((await apiAuditEvents(owner.client, owner.workspaceId, api.apiId))[0]!.action, 'signin_person.reactivate');
});

test('status is active or suspended; other changes are refused and change nothing', async () => {
  const person = await createPerson(t, api.apiId);
  for (const status of ['pending', 'deleted', '', null, true]) assertRefusedAt(await setStatus(person.id, status), 'body.status');
  assertRefusedAt(await editor.client.patch(`${people()}/${person.id}`, {}), 'body.status');
  assertRefusedAt(await editor.client.patch(`${people()}/${person.id}`, { status: 'active', email: 'x@y.test' }), 'body.email');
  assert.equal((await setStatus(person.id, 'suspended', viewer.client)).status, 403);
  assert.equal((await getPerson(person.id)).status, 'active');
});

test('roles: set, replaced and emptied; up to 100 roles of this API, each once; others named by their place', async () => {
  const person = await createPerson(t, api.apiId);
  const [a, b, c] = [await newRole(), await newRole(), await newRole()];
  const set = expectStatus(await setRoles(person.id, [b.id, a.id]), 200);
  const byId = (roles: { id: string; name: string }[]) => roles.map((r) => ({ id: r.id, name: r.name })).sort((x, y) => (x.id < y.id ? -1 : 1));
  assert.deepEqual(byId(set.roles), byId([a, b]));
  const [event] = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  assert.deepEqual([event!.action, event!.details], ['signin_person.roles', { added: [b.id, a.id], removed: [] }]);
  expectStatus(await setRoles(person.id, [c.id, a.id]), 200);
  assert.deepEqual((await getPerson(person.id)).roles.map((r: { id: string }) => r.id).sort(), [a.id, c.id].sort());
  expectStatus(await setRoles(person.id, [a.id, c.id]), 200);
  assert.equal((await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.target_id === person.id).length, 2, 'the same roles again: no event');
  expectStatus(await setRoles(person.id, []), 200);
  assert.deepEqual((await getPerson(person.id)).roles, []);

  const foreignApi = await createApi(t, { name: 'Foreign Roles' }, owner);
  const foreign = await newRole(foreignApi);
  const answer = await setRoles(person.id, [a.id, foreign.id, 'rol_unknown']);
  assert.equal(answer.status, 422, answer.text);
  assert.deepEqual(answer.body.errors.map((e: { location: string }) => e.location), ['body.role_ids.1', 'body.role_ids.2']);
  assertRefusedAt(await setRoles(person.id, [a.id, a.id]), 'body.role_ids');
  assertRefusedAt(await setRoles(person.id, 'rol_x'), 'body.role_ids');
  assertRefusedAt(await setRoles(person.id, ['r'.repeat(65)]), 'body.role_ids.0');
  assertRefusedAt(await editor.client.put(`${people()}/${person.id}/roles`, {}), 'body.role_ids');
  assert.deepEqual((await getPerson(person.id)).roles, [], 'refused changes changed nothing');

  const hundred = [a, b, c];
  while (hundred.length < 101) hundred.push(await newRole());
  assertRefusedAt(await setRoles(person.id, hundred.map((r) => r.id)), 'body.role_ids');
  assert.equal(expectStatus(await setRoles(person.id, hundred.slice(0, 100).map((r) => r.id)), 200).roles.length, 100);
  assert.equal((await setRoles(person.id, [], viewer.client)).status, 403);
  assert.equal((await getPerson(person.id)).roles.length, 100);
});

test('another workspace and another API find nobody', async () => {
  const person = await createPerson(t, api.apiId);
  const outsider = await signUp(t, { name: 'Orla Outsider' });
  assert.equal((await outsider.client.get(people())).status, 404);
  assert.equal((await outsider.client.get(`${people()}/${person.id}`)).status, 404);
  assert.equal((await outsider.client.patch(`${people()}/${person.id}`, { status: 'suspended' })).status, 404);
  assert.equal((await outsider.client.put(`${people()}/${person.id}/roles`, { role_ids: [] })).status, 404);
  const other = await createApi(t, { name: 'Elsewhere People' }, owner);
  assert.equal((await viewer.client.get(`${people(other)}/${person.id}`)).status, 404);
  assert.equal((await editor.client.patch(`${people(other)}/${person.id}`, { status: 'suspended' })).status, 404);
  assert.equal((await setRoles(person.id, [], editor.client, other)).status, 404);
  assert.equal((await viewer.client.get(`${people()}/per_unknown`)).status, 404);
  assert.deepEqual(expectStatus(await viewer.client.get(people(other)), 200).people, []);
  assert.equal((await getPerson(person.id)).status, 'active');
});
