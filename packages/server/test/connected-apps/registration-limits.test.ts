// Spec 8's limits on registration, on both sides: 20 apps an hour per network, 200 per service
// (429 temporarily_unavailable, Retry-After 600), and 1000 registered apps per service with the
// replacement rule of spec 4.3. Apps are isolated per API. The token buckets run on the app's
// clock: the test holds it still to count, then moves it past the window.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { assertRegistrationError, connectedCode, exchangePublic, freshPath, metadataDocument, probeClient, publicTokenRequest, register, registerApp, startConnected, startDocumentServer } from '../support/connected-apps.js';
import { holdClock, inBatches, patchSettings } from '../support/issuer-flows.js';
import { signedInPerson, type IssuerFixture } from '../support/issuer.js';
import { createPerson } from '../support/signin.js';

let f: IssuerFixture;
before(async () => {
  f = await startConnected('Limits API');
});
after(() => f.t.close());

const from = (address: string) => ({ 'x-forwarded-for': address });
const app = (name = 'Limited') => ({ client_name: name, redirect_uris: ['http://127.0.0.1/cb'] });

test('20 registrations an hour per network: the 21st is 429 temporarily_unavailable with Retry-After 600; refusals spend nothing; an hour later 20 more', async () => {
  const clock = holdClock(f.t);
  try {
    const network = '203.0.113.7';
    // Refused metadata is not a registration and costs nothing.
    for (let i = 0; i < 5; i++) assertRegistrationError(await register(f, { client_name: 'x' }, from(network)), 400, 'invalid_redirect_uri');
    const first = await inBatches(20, 5, () => register(f, app(), from(network)));
    assert.deepEqual(first.map((a) => a.status), Array(20).fill(201));
    const over = await register(f, app(), from(network));
    assertRegistrationError(over, 429, 'temporarily_unavailable');
    assert.equal(over.headers.get('retry-after'), '600');
    // The same /64 is the same network; another address is not.
    assert.equal((await register(f, app(), from('203.0.113.8'))).status, 201);
    const v6 = await inBatches(20, 5, (i) => register(f, app(), from(`2001:db8:5:7::${(i + 1).toString(16)}`)));
    assert.deepEqual(v6.map((a) => a.status), Array(20).fill(201));
    assertRegistrationError(await register(f, app(), from('2001:db8:5:7:ffff::1')), 429, 'temporarily_unavailable', 'same /64');
    clock.advance(HOUR);
    const again = await inBatches(20, 5, () => register(f, app(), from(network)));
    assert.deepEqual(again.map((a) => a.status), Array(20).fill(201));
    assertRegistrationError(await register(f, app(), from(network)), 429, 'temporarily_unavailable');
  } finally {
    clock.release();
  }
});

test('200 registrations an hour per service: the 201st is 429 with Retry-After 600 whatever the network; another service is not counted', async () => {
  const fresh = await startConnected('Busy API');
  try {
    const clock = holdClock(fresh.t);
    try {
      // Ten networks of 20.
      const answers = await inBatches(200, 10, (i) => register(fresh, app(), from(`192.0.2.${Math.floor(i / 20) + 1}`)));
      assert.deepEqual(answers.map((a) => a.status), Array(200).fill(201));
      const over = await register(fresh, app(), from('192.0.2.200'));
      assertRegistrationError(over, 429, 'temporarily_unavailable');
      assert.equal(over.headers.get('retry-after'), '600');
      clock.advance(10 * MINUTE);
      // 200 an hour: ten minutes give back 33.
      const later = await inBatches(34, 2, (i) => register(fresh, app(), from(`192.0.2.${100 + Math.floor(i / 17)}`)));
      assert.deepEqual(later.map((a) => a.status).sort(), [...Array(33).fill(201), 429]);
    } finally {
      clock.release();
    }
  } finally {
    await fresh.t.close();
  }
});

test('1000 registered apps per service: the 1000th is made, the 1001st replaces the app unused longest that nobody connected, and 403 when none can go', async () => {
  const fresh = await startConnected('Crowded API');
  try {
    const db = fresh.t.services.db;
    const now = fresh.t.clock.now();
    const person = await createPerson(fresh.t, fresh.apiId);
    const old = (days: number) => new Date(now.getTime() - days * 24 * HOUR);
    const row = (id: string, lastUsed: Date | null, created: Date, blocked = false) => ({
      id, api_id: fresh.apiId, name: id, kind: 'native' as const, origin: 'registered' as const, redirect_uris: ['http://127.0.0.1/cb'], refresh_tokens: false, own_app: false,
      secret_hash: null, previous_secret_hash: null, previous_secret_valid_until: null, blocked, last_used_at: lastUsed, created_at: created, updated_at: created,
    });
    // The oldest three cannot or may go: connected (a consent), blocked, and then the first that may.
    const rows = [
      row('app_connected_oldest', old(20), old(40)),
      row('app_blocked_older', old(19), old(40), true),
      row('app_replaceable_old', null, old(18)),
      row('app_replaceable_next', old(17), old(30)),
      ...Array.from({ length: 995 }, (_, i) => row(`app_filler_${i}`, old(1), old(2))),
    ];
    assert.equal(rows.length, 999);
    await db.insertInto('oauth_apps').values(rows).execute();
    await db.insertInto('consents').values({ api_id: fresh.apiId, person_id: person.id, client_id: 'app_connected_oldest', resource: '', scopes: ['openid'], updated_at: now }).execute();
    const ids = async () => (await db.selectFrom('oauth_apps').select('id').where('api_id', '=', fresh.apiId).where('origin', '=', 'registered').execute()).map((r) => r.id);

    const thousandth = await register(fresh, app('Thousandth'));
    assert.equal(thousandth.status, 201, thousandth.text);
    assert.equal((await ids()).length, 1000, 'the 1000th is made and nothing is replaced');
    assert.ok((await ids()).includes('app_replaceable_old'));

    const next = await register(fresh, app('Replacing'));
    assert.equal(next.status, 201, next.text);
    const after = await ids();
    assert.equal(after.length, 1000);
    assert.ok(!after.includes('app_replaceable_old'), 'the app unused longest that nobody connected is gone (never used: counted from its creation)');
    assert.ok(after.includes('app_connected_oldest') && after.includes('app_blocked_older') && after.includes('app_replaceable_next'));
    assert.ok(after.includes(next.body.client_id));

    // A grant counts as connected too; then nothing can go.
    const everyone = after.filter((id) => id !== 'app_connected_oldest' && id !== 'app_blocked_older');
    await db.insertInto('consents').values(everyone.map((id) => ({ api_id: fresh.apiId, person_id: person.id, client_id: id, resource: '', scopes: ['openid'], updated_at: now }))).execute();
    const full = await register(fresh, app('No room'));
    assertRegistrationError(full, 403, 'access_denied');
    assert.equal((await ids()).length, 1000);
    // Owner apps and metadata apps are not registered apps: the owner can still add apps.
    const owned = await fresh.owner.client.post(`/apis/${fresh.apiId}/signin/apps`, { name: 'Still room', kind: 'spa', redirect_uris: ['https://owner.example/cb'] });
    assert.equal(owned.status, 200, owned.text);
  } finally {
    await fresh.t.close();
  }
});

test('metadata-document apps count among the 1000 (issue 26): a new one takes a place, replacing an app nobody connected, and is refused when none can go; registration counts them too', async () => {
  const fresh = await startConnected('Documents Cap API');
  const docs = await startDocumentServer();
  try {
    const db = fresh.t.services.db;
    const now = fresh.t.clock.now();
    const person = await createPerson(fresh.t, fresh.apiId);
    const old = (days: number) => new Date(now.getTime() - days * 24 * HOUR);
    const row = (id: string, created: Date) => ({
      id, api_id: fresh.apiId, name: id, kind: 'native' as const, origin: 'registered' as const, redirect_uris: ['http://127.0.0.1/cb'], refresh_tokens: false, own_app: false,
      secret_hash: null, previous_secret_hash: null, previous_secret_valid_until: null, blocked: false, last_used_at: null, created_at: created, updated_at: created,
    });
    const fillers = Array.from({ length: 998 }, (_, i) => `app_doc_filler_${i}`);
    await db.insertInto('oauth_apps').values([row('app_doc_replaceable', old(10)), ...fillers.map((id) => row(id, old(5)))]).execute();
    const connect = (ids: string[]) => db.insertInto('consents').values(ids.map((id) => ({ api_id: fresh.apiId, person_id: person.id, client_id: id, resource: '', scopes: ['openid'], updated_at: now }))).execute();
    await connect(fillers);
    const connected = async () => (await db.selectFrom('oauth_apps').select('id').where('api_id', '=', fresh.apiId).where('origin', 'in', ['registered', 'metadata']).execute()).map((r) => r.id);
    const document = (name: string) => {
      const path = freshPath(name);
      const url = docs.url(path);
      docs.serve(path, { body: metadataDocument(url) });
      return url;
    };

    const a = document('doc-a');
    assert.ok((await probeClient(fresh, a)).found, 'the 1000th app is a document app');
    assert.equal((await connected()).length, 1000);
    assert.ok((await connected()).includes('app_doc_replaceable'), 'nothing replaced to make the 1000th');
    const b = document('doc-b');
    assert.ok((await probeClient(fresh, b)).found);
    const afterB = await connected();
    assert.equal(afterB.length, 1000);
    assert.ok(!afterB.includes('app_doc_replaceable') && afterB.includes(a) && afterB.includes(b), 'the app unused longest that nobody connected made room');

    // Now every app is connected: a new document is refused, at authorize and at the token endpoint.
    await connect([a, b]);
    const c = document('doc-c');
    const probe = await probeClient(fresh, c);
    assert.equal(probe.status, 400);
    assert.equal(probe.location, null, 'an error page, never a redirect');
    assert.match(probe.html, /1000 apps people connect/);
    const token = await publicTokenRequest(fresh, c, { grant_type: 'authorization_code', code: 'x', code_verifier: 'y'.repeat(43), redirect_uri: 'http://127.0.0.1/callback' });
    assert.equal(token.status, 401, token.text);
    assert.equal(token.body.error, 'invalid_client');
    assert.equal((await connected()).length, 1000);
    assert.ok(!(await connected()).includes(c));
    assertRegistrationError(await register(fresh, app('No room for me')), 403, 'access_denied', 'document apps fill the service for registration too');
    // A document app already there is still served (its row is brought up to date, not counted again).
    fresh.t.clock.advance(2 * HOUR);
    assert.ok((await probeClient(fresh, a)).found, 'a known document app after its cache lifetime');
    assert.equal((await connected()).length, 1000);
  } finally {
    await docs.close();
    await fresh.t.close();
  }
});

test('isolation: an app registered at API A is unknown at API B (error page at authorize, invalid_client at the token endpoint)', async () => {
  const { t } = f;
  const b = (await f.owner.client.post(`/workspaces/${f.owner.workspaceId}/apis`, { name: 'Other API ' + randomBytes(3).toString('hex') })).body.api;
  const bFixture = { ...f, apiId: b.id, slug: b.slug, issuer: `http://${b.slug}.localhost:${t.port}` };
  assert.equal((await f.owner.client.patch(`/apis/${b.id}/signin`, { connected_apps: 'on' })).status, 200);
  const registered = await registerApp(f);
  assert.ok((await probeClient(f, registered.client_id)).found, 'known at A');
  const atB = await probeClient(bFixture, registered.client_id);
  assert.equal(atB.status, 400);
  assert.match(atB.html, /not known to this sign-in service/);
  const person = await signedInPerson(f);
  const got = await connectedCode(f, person.cookie, person.person.id, registered.client_id);
  const tokenAtB = await publicTokenRequest(bFixture, registered.client_id, { grant_type: 'authorization_code', code: got.code, code_verifier: got.verifier, redirect_uri: got.redirectUri });
  assert.equal(tokenAtB.status, 401);
  assert.equal(tokenAtB.body.error, 'invalid_client');
  assert.equal((await exchangePublic(f, registered.client_id, got)).status, 200, 'the code still works at A');
  const listedAtB = await f.owner.client.get(`/apis/${b.id}/signin/connected-apps`);
  assert.deepEqual(listedAtB.body.apps, []);
  const listedAtA = await f.owner.client.get(`/apis/${f.apiId}/signin/connected-apps?limit=200`);
  assert.ok(listedAtA.body.apps.some((a: { client_id: string }) => a.client_id === registered.client_id));
  await patchSettings(f, { connected_apps: 'on' });
});
