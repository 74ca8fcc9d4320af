// Per-node caches and their invalidation (issue 16 item 1; docs/architecture.md "Per-node caches"):
// two app instances on one database, A where the owner and people act, B that only answers. Each
// kind of change made at A reaches B's caches through the change channel: on PostgreSQL, B has its
// own pool and its own listening connection, so only the NOTIFY can tell it; on PGlite the two share
// the one in-process database and its notifications. Before each change, a write behind the
// service's back (no notification) shows B answers from its cache, so what follows is the channel.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { buildApp } from '../../src/app.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { testDatabaseKind } from '../support/harness.js';
import { serverAuth, webAuth, webCode, webTokens } from '../support/issuer-flows.js';
import { basic, signedInPerson, startIssuer, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
let b: Awaited<ReturnType<typeof buildApp>>;
let bDatabase: DatabaseHandle;
let host: string;

before(async () => {
  f = await startIssuer('Two Nodes API');
  host = new URL(f.issuer).host;
  if (testDatabaseKind === 'postgres') {
    const schema = await currentSchema();
    bDatabase = await openDatabase({ url: f.t.databaseUrl!, schema, poolSize: 3 });
  } else bDatabase = f.t.database;
  b = await buildApp({ config: f.t.services.config, database: bDatabase, clock: f.t.clock, redis: null, logger: false });
  await b.app.ready();
  await until(() => b.services.changes.listening, 'B listens');
});
after(async () => {
  await b.app.close();
  if (bDatabase !== f.t.database) await bDatabase.close();
  await f.t.close();
});

/**
 * Polls until `check` holds. The bound is far above the 1 s the channel takes and far below the
 * caches' 30 s lifetime: passing proves the notification, not the lifetime, dropped the entry.
 */
async function until(check: () => boolean | Promise<boolean>, what: string, boundMs = 10_000) {
  const deadline = Date.now() + boundMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`not seen: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** A form POST to B's tenant host, as a load balancer would send it. */
async function atB(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  const answer = await b.app.inject({ method: 'POST', url: path, headers: { host, 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });
  return { status: answer.statusCode, body: answer.body ? JSON.parse(answer.body) : undefined, text: answer.body };
}

const activeAtB = async (token: string, headers: Record<string, string> = serverAuth(f)) => (await atB('/oauth/introspect', { token }, headers)).body.active === true;

/** A write behind the services' back: B keeps answering what it cached. */
async function quietly(status: 'active' | 'suspended', personId: string) {
  await sql`update people set status = ${status} where id = ${personId}`.execute(f.t.services.db);
}

const currentSchema = async () => (await sql<{ schema: string }>`select current_schema() as schema`.execute(f.t.services.db)).rows[0]!.schema;

test('a person suspended at A: their access token is inactive at B; reactivated, active again', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal(await activeAtB(tokens.access_token), true);
  // Unnotified, B answers from its cache.
  await quietly('suspended', person.id);
  assert.equal(await activeAtB(tokens.access_token), true, 'B answered from its cache');
  await quietly('active', person.id);
  const suspended = await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  await until(async () => !(await activeAtB(tokens.access_token)), 'suspension at B');
  await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'active' });
  // The suspension ended the session; the token was minted before, so it stays inactive.
  assert.equal(await activeAtB(tokens.access_token), false);
});

test('a grant revoked at A (its refresh token revoked by the app): the access token is inactive at B', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal(await activeAtB(tokens.access_token), true);
  const revoked = await f.t.app.inject({ method: 'POST', url: '/oauth/revoke', headers: { host, 'content-type': 'application/x-www-form-urlencoded', ...webAuth(f) }, payload: `token=${tokens.refresh_token}` });
  assert.equal(revoked.statusCode, 200, revoked.body);
  await until(async () => !(await activeAtB(tokens.access_token)), 'revocation at B');
});

test('a session ended (sign-out) at A: its access tokens are inactive at B', async () => {
  const { person, session, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal(await activeAtB(tokens.access_token), true);
  await f.t.services.personSessions.end(f.apiId, session.id);
  await until(async () => !(await activeAtB(tokens.access_token)), 'sign-out at B');
});

test("a server's secret rotated at A: B takes the new secret", async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal(await activeAtB(tokens.access_token), true, 'B cached the server with its old secret');
  const rotated = await f.owner.client.post(`/apis/${f.apiId}/signin/servers/${f.server.id}/secret/rotate`, {});
  assert.equal(rotated.status, 200, rotated.text);
  const fresh = { authorization: basic(f.server.clientId, rotated.body.client_secret) };
  await until(async () => (await atB('/oauth/introspect', { token: tokens.access_token }, fresh)).status === 200, 'new server secret at B');
  f.server.secret = rotated.body.client_secret;
});

test("an app's secret rotated at A: B takes the new secret at the token endpoint", async () => {
  // A refresh token nobody has: the app is authenticated first, then the token refused.
  const unknownRefresh = (headers: Record<string, string>) => atB('/oauth/token', { grant_type: 'refresh_token', refresh_token: 'ghr_unknown' }, headers);
  assert.equal((await unknownRefresh(webAuth(f))).body.error, 'invalid_grant', 'B cached the app with its old secret');
  const rotated = await f.owner.client.post(`/apis/${f.apiId}/signin/apps/${f.web.clientId}/secret/rotate`, {});
  assert.equal(rotated.status, 200, rotated.text);
  const fresh = { authorization: basic(f.web.clientId, rotated.body.client_secret) };
  await until(async () => (await unknownRefresh(fresh)).body.error === 'invalid_grant', 'new app secret at B');
  f.web.secret = rotated.body.client_secret;
});

test('the API suspended at A: access tokens are inactive at B; resumed, active again', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal(await activeAtB(tokens.access_token), true);
  const suspended = await f.owner.client.post(`/apis/${f.apiId}/suspend`, { reason: 'cache test' });
  assert.equal(suspended.status, 200, suspended.text);
  await until(async () => !(await activeAtB(tokens.access_token)), 'API suspension at B');
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/resume`, {})).status, 200);
  await until(() => activeAtB(tokens.access_token), 'API resumed at B');
});

test("sign-in settings changed at A: B's tokens follow the new access-token lifetime", async () => {
  const { person, cookie } = await signedInPerson(f);
  const exchangeAtB = async () => {
    const { code, verifier } = await webCode(f, cookie, person.id, { scope: 'openid' });
    return atB('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier }, webAuth(f));
  };
  assert.equal((await exchangeAtB()).body.expires_in, 3600);
  const patched = await f.owner.client.patch(`/apis/${f.apiId}/signin`, { access_token_ttl_s: 900 });
  assert.equal(patched.status, 200, patched.text);
  await until(async () => (await exchangeAtB()).body.expires_in === 900, 'settings at B');
});

test("the API renamed at A: B's pages carry the new name", async () => {
  const page = async () => (await b.app.inject({ method: 'GET', url: '/oauth/authorize', headers: { host } })).body;
  assert.match(await page(), /Two Nodes API/);
  const renamed = await f.owner.client.patch(`/apis/${f.apiId}`, { name: 'Renamed Nodes API' });
  assert.equal(renamed.status, 200, renamed.text);
  await until(async () => /Renamed Nodes API/.test(await page()), 'branding at B');
});

test('the signing key rotated at A: B publishes the new key and checks tokens it signs', async () => {
  const jwks = async () => JSON.parse((await b.app.inject({ method: 'GET', url: '/oauth/jwks', headers: { host } })).body).keys.map((k: { kid: string }) => k.kid);
  const before = await jwks();
  const rotated = await f.owner.client.post(`/apis/${f.apiId}/signin/signing-keys/rotate`, {});
  assert.equal(rotated.status, 200, rotated.text);
  await until(async () => (await jwks()).length === before.length + 1, 'new key at B');
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal(await activeAtB(tokens.access_token), true);
});

test('a change written by hand and notified reaches B; a node that stops listening answers from the database', async () => {
  const { person, cookie } = await signedInPerson(f);
  const tokens = await webTokens(f, cookie, person.id);
  assert.equal(await activeAtB(tokens.access_token), true);
  await quietly('suspended', person.id);
  await notifyChange(f.t.services.db, [changed.person(person.id)]);
  await until(async () => !(await activeAtB(tokens.access_token)), 'hand-written change at B');
  await quietly('active', person.id);
  await notifyChange(f.t.services.db, [changed.person(person.id)]);
  await until(() => activeAtB(tokens.access_token), 'reactivation at B');

  // Deaf, B keeps nothing: an unnotified change is seen at once.
  await b.services.changes.stop();
  await quietly('suspended', person.id);
  assert.equal(await activeAtB(tokens.access_token), false, 'a node not listening reads the database');
  await quietly('active', person.id);
  b.services.changes.start(bDatabase);
  await until(() => b.services.changes.listening, 'B listens again');
  assert.equal(await activeAtB(tokens.access_token), true);
});

test('PostgreSQL: a listening connection killed is noticed, and the node listens again', { skip: testDatabaseKind !== 'postgres' }, async () => {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    const schema = await currentSchema();
    // The listening connections of this schema (A's and B's) are named after it.
    const killed = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [`gatehouse_changes_${schema}`]);
    assert.ok(killed.rowCount! >= 1, 'a listening connection to kill');
    await until(() => !b.services.changes.listening, 'B noticed the loss');
    await until(() => b.services.changes.listening, 'B listens again');
    const { person, cookie } = await signedInPerson(f);
    const tokens = await webTokens(f, cookie, person.id);
    assert.equal(await activeAtB(tokens.access_token), true);
    const suspended = await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'suspended' });
    assert.equal(suspended.status, 200, suspended.text);
    await until(async () => !(await activeAtB(tokens.access_token)), 'suspension at B after reconnecting');
  } finally {
    await admin.end();
  }
});

// Last: it removes the fixture's API. The cascade of the workspace's foreign keys deletes its APIs
// without the apis capability's write paths, so the workspace's own delete names them.
test("a workspace deleted at A: its API's sign-in service is gone at B", async () => {
  const discoveryAtB = async () => (await b.app.inject({ method: 'GET', url: '/.well-known/openid-configuration', headers: { host } })).statusCode;
  assert.equal(await discoveryAtB(), 200, 'B cached the tenant');
  const deleted = await f.owner.client.delete(`/workspaces/${f.owner.workspaceId}`);
  assert.equal(deleted.status, 204, deleted.text);
  await until(async () => (await discoveryAtB()) === 404, 'the deletion at B');
});
