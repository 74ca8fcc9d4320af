// Apps people connect, both kinds (spec 4.1, 4.3, 7; issue 14 item 3): access tokens of at most
// 600 s, the consent screen (unverified, the host they came from) and its limit, last use, the
// console's list with block and unblock (audited), the 30-day cleanup job, and discovery's fields
// while the setting and the platform plan allow them.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { DAY, HOUR, SECOND } from '../../src/platform/clock.js';
import { connectedAppsCleanupJob } from '../../src/jobs/connected-apps-cleanup.js';
import {
  assertRegistrationError, connectedCode, exchangePublic, freshPath, jwtClaims, metadataDocument, probeClient, publicTokenRequest, register, registerApp, startConnected, startDocumentServer, type DocumentServer,
} from '../support/connected-apps.js';
import { assertErrorPageWithReturn, assertRedirectedError, authorizeRaw, exchangeCode, introspect, patchSettings, webCode } from '../support/issuer-flows.js';
import { pkcePair, signedInPerson, tenantFetch, type IssuerFixture } from '../support/issuer.js';
import { startPersonSession } from '../support/signin.js';
import { SHIPPED_PLATFORM_PLANS } from '../support/platform-plans.js';
import { TenantBrowser, errorIn } from '../support/tenant-client.js';

let f: IssuerFixture;
let docs: DocumentServer;
before(async () => {
  f = await startConnected('Connected API');
  docs = await startDocumentServer();
});
after(async () => {
  await docs.close();
  await f.t.close();
});

function servedDocument(name: string, extra: Record<string, unknown> = {}) {
  const path = freshPath(name);
  const url = docs.url(path);
  docs.serve(path, { body: metadataDocument(url, extra) });
  return url;
}

const discovery = async (fixture: IssuerFixture) => (await (await tenantFetch(fixture.issuer + '/.well-known/openid-configuration')).json()) as Record<string, unknown>;

test('access tokens of apps people connect last at most 600 s whatever the setting; the owner\'s apps keep the setting', async () => {
  const person = await signedInPerson(f);
  const registered = await registerApp(f);
  const metadataUrl = servedDocument('ttl');
  for (const clientId of [registered.client_id, metadataUrl]) {
    const tokens = await exchangePublic(f, clientId, await connectedCode(f, person.cookie, person.person.id, clientId));
    assert.equal(tokens.status, 200, tokens.text);
    assert.equal(tokens.body.expires_in, 600, clientId);
    const claims = jwtClaims(tokens.body.access_token);
    assert.equal(claims.exp - claims.iat, 600);
    assert.equal(jwtClaims(tokens.body.id_token).exp - claims.iat, 600, 'the ID token too');
  }
  const own = await webCode(f, person.cookie, person.person.id);
  const ownTokens = await exchangeCode(f, own.code, own.verifier);
  assert.equal(ownTokens.body.expires_in, 3600, "the owner's web app: the service setting");
  // Below 600 the setting rules for everyone.
  await patchSettings(f, { access_token_ttl_s: 300 });
  try {
    const short = await exchangePublic(f, registered.client_id, await connectedCode(f, person.cookie, person.person.id, registered.client_id));
    assert.equal(short.body.expires_in, 300);
  } finally {
    await patchSettings(f, { access_token_ttl_s: 3600 });
  }
});

test('the consent screen labels an app people connect unverified and shows the host it came from; allowing it gives a code', async () => {
  const person = await signedInPerson(f);
  const registered = await registerApp(f, { client_name: 'Night <Agent>', redirect_uris: ['https://agent.example/callback'] });
  const metadataUrl = servedDocument('consent', { client_name: 'Doc <Agent>' });
  await probeClient(f, metadataUrl);
  for (const [clientId, redirectUri, name, hostLine] of [
    [registered.client_id, 'https://agent.example/callback', 'Night <Agent>', 'It sends you back to agent.example'],
    [metadataUrl, 'http://127.0.0.1:50123/callback', 'Doc <Agent>', 'It identifies itself from 127.0.0.1'],
  ] as const) {
    const browser = new TenantBrowser(f.issuer);
    browser.cookies.set('gh_ps', person.session.token);
    const pkce = pkcePair();
    const page = await browser.authorize({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'openid read:weather', resource: f.server.resource, state: 'c', code_challenge: pkce.challenge, code_challenge_method: 'S256' });
    assert.equal(page.status, 200, page.html.slice(0, 300));
    assert.ok(page.html.includes('<span class="badge">unverified</span>'), 'labelled unverified');
    assert.ok(page.html.includes(name.replace('<', '&lt;').replace('>', '&gt;')), 'its own name, escaped');
    assert.match(errorIn(page.html) ?? '', /did not register this app/);
    const host = /<p class="note" id="app-host">([\s\S]*?)<\/p>/.exec(page.html)?.[1]?.replace(/<[^>]+>/g, '');
    assert.equal(host, hostLine);
    const done = await browser.submit(page, 'consent-allow');
    assert.ok(done.leftTo, 'back at the app');
    assert.equal(done.leftTo!.origin + done.leftTo!.pathname, redirectUri);
    assert.ok(done.leftTo!.searchParams.get('code'));
  }
  // The owner's own app shows neither.
  const browser = new TenantBrowser(f.issuer);
  browser.cookies.set('gh_ps', person.session.token);
  const pkce = pkcePair();
  const own = await browser.authorize({ response_type: 'code', client_id: f.spa.clientId, redirect_uri: f.spa.redirectUri, scope: 'openid', state: 'o', code_challenge: pkce.challenge, code_challenge_method: 'S256' });
  assert.ok(!own.html.includes('unverified'));
  assert.ok(!own.html.includes('id="app-host"'));
});

test('an app people connect may ask one person for consent 10 times a day; the 11th is access_denied; the owner\'s apps and other people are not counted', async () => {
  const person = await signedInPerson(f);
  const app = await registerApp(f, { redirect_uris: ['https://agent.example/callback'] });
  const ask = (clientId: string, redirectUri: string, cookie = person.cookie, state = 'ask') => {
    const pkce = pkcePair();
    return authorizeRaw(f, { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'openid', state, code_challenge: pkce.challenge, code_challenge_method: 'S256' }, cookie);
  };
  for (let i = 1; i <= 10; i++) {
    const answer = await ask(app.client_id, 'https://agent.example/callback');
    assert.equal(answer.status, 303);
    assert.match(answer.location!.pathname, /^\/interaction\//, `ask ${i} shows the consent screen`);
  }
  // The person never consented to it, so the refusal is our page with a link back (RFC 9700 4.11.2).
  assertErrorPageWithReturn(f, await ask(app.client_id, 'https://agent.example/callback', person.cookie, 'eleventh'), 'access_denied', 'eleventh', 'https://agent.example/callback');
  const other = await signedInPerson(f);
  assert.match((await ask(app.client_id, 'https://agent.example/callback', other.cookie)).location!.pathname, /^\/interaction\//, 'another person is asked');
  for (let i = 1; i <= 12; i++) assert.match((await ask(f.spa.clientId, f.spa.redirectUri)).location!.pathname, /^\/interaction\//, `the owner's app, ask ${i}`);
  // A day later the app may ask the same person again.
  f.t.clock.advance(DAY);
  const session = await startPersonSession(f.t, f.apiId, person.person.id);
  const later = await ask(app.client_id, 'https://agent.example/callback', `gh_ps=${session.token}`);
  assert.match(later.location!.pathname, /^\/interaction\//);
});

test('the console lists apps people connect (kind, name, client_id, host, created, last used, people), newest first with a cursor', async () => {
  const fresh = await startConnected('Listing API');
  try {
    const person = await signedInPerson(fresh);
    const registered = await registerApp(fresh, { client_name: 'Listed agent', redirect_uris: ['cursor://anysphere.cursor-retrieval/cb'] });
    const path = freshPath('listed');
    const url = docs.url(path);
    docs.serve(path, { body: metadataDocument(url, { client_name: 'Listed doc', grant_types: ['authorization_code', 'refresh_token'] }) });
    const before = fresh.t.clock.now();
    const tokens = await exchangePublic(fresh, url, await connectedCode(fresh, person.cookie, person.person.id, url));
    assert.equal(tokens.status, 200, tokens.text);
    const list = await fresh.owner.client.get(`/apis/${fresh.apiId}/signin/connected-apps`);
    assert.equal(list.status, 200, list.text);
    const [doc, reg] = list.body.apps;
    assert.deepEqual({ ...doc, created_at: undefined, last_used_at: undefined }, {
      client_id: url, kind: 'metadata', name: 'Listed doc', host: '127.0.0.1', application_type: 'native', redirect_uris: ['http://127.0.0.1/callback'], refresh_tokens: true, blocked: false, people: 1, created_at: undefined, last_used_at: undefined,
    });
    assert.ok(new Date(doc.last_used_at).getTime() >= before.getTime(), 'last used at the token endpoint');
    assert.deepEqual({ ...reg, created_at: undefined }, {
      client_id: registered.client_id, kind: 'registered', name: 'Listed agent', host: 'anysphere.cursor-retrieval', application_type: 'native', redirect_uris: ['cursor://anysphere.cursor-retrieval/cb'], refresh_tokens: false, blocked: false, people: 0, created_at: undefined,
    });
    assert.equal('last_used_at' in reg, false, 'never used');
    // The owner's apps are not listed here, nor these among the owner's apps.
    assert.equal(list.body.apps.length, 2);
    const ownerApps = (await fresh.owner.client.get(`/apis/${fresh.apiId}/signin/apps`)).body.apps.map((a: { id: string }) => a.id);
    assert.ok(!ownerApps.includes(registered.client_id) && !ownerApps.includes(url));
    const first = await fresh.owner.client.get(`/apis/${fresh.apiId}/signin/connected-apps?limit=1`);
    assert.deepEqual(first.body.apps.map((a: { client_id: string }) => a.client_id), [url]);
    const second = await fresh.owner.client.get(`/apis/${fresh.apiId}/signin/connected-apps?limit=1&cursor=${first.body.next_cursor}`);
    assert.deepEqual(second.body.apps.map((a: { client_id: string }) => a.client_id), [registered.client_id]);
    assert.equal(second.body.next_cursor, undefined);
    const badCursor = await fresh.owner.client.get(`/apis/${fresh.apiId}/signin/connected-apps?cursor=bm9wZQ`);
    assert.equal(badCursor.status, 422);
    // Last use is written once an hour at most, and again after.
    const usedAt = doc.last_used_at;
    await exchangePublic(fresh, url, await connectedCode(fresh, person.cookie, person.person.id, url));
    assert.equal((await fresh.owner.client.get(`/apis/${fresh.apiId}/signin/connected-apps?limit=1`)).body.apps[0].last_used_at, usedAt);
    fresh.t.clock.advance(HOUR + SECOND);
    const person2 = await signedInPerson(fresh);
    await exchangePublic(fresh, url, await connectedCode(fresh, person2.cookie, person2.person.id, url));
    const again = (await fresh.owner.client.get(`/apis/${fresh.apiId}/signin/connected-apps?limit=1`)).body.apps[0];
    assert.ok(again.last_used_at > usedAt);
    assert.equal(again.people, 2);
  } finally {
    await fresh.t.close();
  }
});

test('block: no sign-in, no tokens, every grant revoked; unblock lets it sign in again; both audited', async () => {
  const person = await signedInPerson(f);
  const app = await registerApp(f, { client_name: 'Blockable', grant_types: ['authorization_code', 'refresh_token'] });
  const tokens = await exchangePublic(f, app.client_id, await connectedCode(f, person.cookie, person.person.id, app.client_id, { scope: 'openid offline_access read:weather' }));
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal((await introspect(f, tokens.body.access_token)).body.active, true);
  const path = `/apis/${f.apiId}/signin/connected-apps`;
  assert.equal((await f.owner.client.post(`${path}/block`, { client_id: 'app_nosuchapp' })).status, 404);
  assert.equal((await f.owner.client.post(`${path}/block`, { client_id: f.spa.clientId })).status, 404, "the owner's apps are not connected apps");
  const blocked = await f.owner.client.post(`${path}/block`, { client_id: app.client_id });
  assert.equal(blocked.status, 200, blocked.text);
  assert.equal(blocked.body.blocked, true);
  assert.equal((await introspect(f, tokens.body.access_token)).body.active, false, 'its access token is inactive at once');
  const refreshed = await publicTokenRequest(f, app.client_id, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token });
  assert.equal(refreshed.status, 400);
  assert.equal(refreshed.body.error, 'unauthorized_client');
  const pkce = pkcePair();
  const asked = await authorizeRaw(f, { response_type: 'code', client_id: app.client_id, redirect_uri: 'http://127.0.0.1/callback', scope: 'openid', state: 'b', code_challenge: pkce.challenge, code_challenge_method: 'S256' }, person.cookie);
  assertRedirectedError(f, asked, 'unauthorized_client', 'b', 'http://127.0.0.1/callback');
  // Blocking twice changes nothing and writes nothing.
  assert.equal((await f.owner.client.post(`${path}/block`, { client_id: app.client_id })).status, 200);
  const unblocked = await f.owner.client.post(`${path}/unblock`, { client_id: app.client_id });
  assert.equal(unblocked.body.blocked, false);
  const again = await exchangePublic(f, app.client_id, await connectedCode(f, person.cookie, person.person.id, app.client_id));
  assert.equal(again.status, 200, again.text);
  assert.equal((await publicTokenRequest(f, app.client_id, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token })).body.error, 'invalid_grant', 'grants revoked by the block stay revoked');
  const events = (await f.owner.client.get(`/workspaces/${f.owner.workspaceId}/audit?limit=200`)).body.events.filter((e: { target_id: string }) => e.target_id === app.client_id);
  assert.deepEqual(events.map((e: { action: string }) => e.action), ['signin_connected_app.unblock', 'signin_connected_app.block']);
  assert.equal(events[1].target_id, app.client_id);
  assert.match(events[1].summary, /Blocked the connected app Blockable \(127\.0\.0\.1\)/);
  assert.deepEqual(events[1].details, { kind: 'registered', grants_revoked: 1 });
});

test('a blocked metadata document app stays blocked without a fetch', async () => {
  const url = servedDocument('blocked');
  assert.ok((await probeClient(f, url)).found);
  const hits = docs.hits(new URL(url).pathname);
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/signin/connected-apps/block`, { client_id: url })).status, 200);
  f.t.clock.advance(2 * DAY);
  const probe = await probeClient(f, url);
  assert.equal(probe.location?.searchParams.get('error'), 'unauthorized_client');
  assert.equal(docs.hits(new URL(url).pathname), hits, 'nothing fetched for a blocked app');
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/signin/connected-apps/unblock`, { client_id: url })).status, 200);
});

test('cleanup: apps unused 30 days are removed, unless blocked or a person still holds a working refresh token; 29 days is kept', async () => {
  const fresh = await startConnected('Cleanup API');
  try {
    const db = fresh.t.services.db;
    const person = await signedInPerson(fresh);
    const make = async (name: string, refresh = false) => (await registerApp(fresh, { client_name: name, ...(refresh ? { grant_types: ['authorization_code', 'refresh_token'] } : {}) })).client_id;
    const unused = await make('Unused 31 days');
    const recent = await make('Unused 29 days');
    const blocked = await make('Blocked');
    const holding = await make('Holding a refresh token', true);
    const spent = await make('Refresh token used up', true);
    const metadataUrl = docs.url(freshPath('cleanup'));
    docs.serve(new URL(metadataUrl).pathname, { body: metadataDocument(metadataUrl) });
    assert.ok((await probeClient(fresh, metadataUrl)).found);
    const held = await exchangePublic(fresh, holding, await connectedCode(fresh, person.cookie, person.person.id, holding, { scope: 'openid offline_access' }));
    assert.ok(held.body.refresh_token);
    const used = await exchangePublic(fresh, spent, await connectedCode(fresh, person.cookie, person.person.id, spent, { scope: 'openid offline_access' }));
    await publicTokenRequest(fresh, spent, { grant_type: 'refresh_token', refresh_token: used.body.refresh_token });
    assert.equal((await fresh.owner.client.post(`/apis/${fresh.apiId}/signin/connected-apps/block`, { client_id: blocked })).status, 200);
    // The spent app's chain is revoked by reuse: its last refresh token no longer works.
    await publicTokenRequest(fresh, spent, { grant_type: 'refresh_token', refresh_token: used.body.refresh_token });
    const now = fresh.t.clock.now();
    const ago = (days: number) => new Date(now.getTime() - days * DAY);
    const setLastUse = (id: string, at: Date) => db.updateTable('oauth_apps').set({ last_used_at: at, created_at: ago(40) }).where('api_id', '=', fresh.apiId).where('id', '=', id).execute();
    for (const id of [unused, blocked, holding, spent, metadataUrl]) await setLastUse(id, ago(31));
    await setLastUse(recent, ago(29));
    const ownerAppId = fresh.spa.clientId;
    await db.updateTable('oauth_apps').set({ created_at: ago(400) }).where('id', '=', ownerAppId).execute();

    await connectedAppsCleanupJob(fresh.t.services.clock).run(db);
    const left = (await db.selectFrom('oauth_apps').select('id').where('api_id', '=', fresh.apiId).execute()).map((r) => r.id);
    assert.ok(!left.includes(unused), 'unused 31 days: removed');
    assert.ok(!left.includes(metadataUrl), 'a metadata document app too');
    assert.ok(!left.includes(spent), 'a refresh token that no longer works keeps nothing');
    assert.ok(left.includes(recent), '29 days: kept');
    assert.ok(left.includes(blocked), 'blocked: kept');
    assert.ok(left.includes(holding), 'a working refresh token: kept');
    assert.ok(left.includes(ownerAppId), "the owner's apps are never cleaned up");
    assert.equal((await publicTokenRequest(fresh, holding, { grant_type: 'refresh_token', refresh_token: held.body.refresh_token })).status, 200, 'and it still works');
    // A removed metadata app comes back on its next use, fetched anew.
    assert.ok((await probeClient(fresh, metadataUrl)).found);
    // The job is on the scheduler.
    assert.ok((await fresh.t.services.scheduler.runOnce(connectedAppsCleanupJob(fresh.t.services.clock))));
  } finally {
    await fresh.t.close();
  }
});

test('discovery: registration_endpoint and client_id_metadata_document_supported only while the setting is on and the plan includes them', async () => {
  const on = await discovery(f);
  assert.equal(on.registration_endpoint, `${f.issuer}/oauth/register`);
  assert.equal(on.client_id_metadata_document_supported, true);
  await patchSettings(f, { connected_apps: 'off' });
  try {
    const off = await discovery(f);
    assert.equal('registration_endpoint' in off, false);
    assert.equal('client_id_metadata_document_supported' in off, false);
  } finally {
    await patchSettings(f, { connected_apps: 'on' });
  }
  // A catalogue whose free plan does not include them: the setting alone is not enough.
  const catalogue = JSON.parse(readFileSync(SHIPPED_PLATFORM_PLANS, 'utf8')) as { plans: { code: string; teams: boolean; connected_apps?: boolean }[] };
  for (const plan of catalogue.plans) if (plan.code === 'free') Object.assign(plan, { teams: true, connected_apps: false });
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'platform-plans.json');
  writeFileSync(file, JSON.stringify(catalogue));
  const withoutPlan = await startConnected('Planless API', { PLATFORM_PLANS_FILE: file });
  try {
    const doc = await discovery(withoutPlan);
    assert.equal('registration_endpoint' in doc, false);
    assert.equal('client_id_metadata_document_supported' in doc, false);
    assertRegistrationError(await register(withoutPlan, { client_name: 'x', redirect_uris: ['http://127.0.0.1/cb'] }), 403, 'access_denied');
    const url = servedDocument('planless');
    const probe = await probeClient(withoutPlan, url);
    assert.equal(probe.status, 400);
    assert.equal(docs.hits(new URL(url).pathname), 0);
    const plans = (await withoutPlan.owner.client.get('/platform/plans')).body.plans;
    assert.deepEqual(plans.map((p: { code: string; connected_apps: boolean }) => [p.code, p.connected_apps]), [['free', false], ['starter', true], ['growth', true], ['scale', true]]);
  } finally {
    await withoutPlan.t.close();
  }
});

test('MCP 2026-07-28: metadata_documents_unadvertised takes client_id_metadata_document_supported out of discovery, keeps registration, and documents still sign in; off again, advertised again', async () => {
  const known = servedDocument('advertised-before');
  const person = await signedInPerson(f);
  const first = await exchangePublic(f, known, await connectedCode(f, person.cookie, person.person.id, known));
  assert.equal(first.status, 200, first.text);
  const changed = await f.owner.client.patch(`/apis/${f.apiId}/signin`, { metadata_documents_unadvertised: true });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.metadata_documents_unadvertised, true);
  try {
    const doc = await discovery(f);
    assert.equal('client_id_metadata_document_supported' in doc, false);
    assert.equal(doc.registration_endpoint, `${f.issuer}/oauth/register`, 'registration is still offered: clients fall back to it');
    // A document already in use keeps working, and one sent anyway is still accepted.
    const again = await exchangePublic(f, known, await connectedCode(f, person.cookie, person.person.id, known));
    assert.equal(again.status, 200, again.text);
    const unseen = servedDocument('unadvertised-new');
    const fresh = await exchangePublic(f, unseen, await connectedCode(f, person.cookie, person.person.id, unseen));
    assert.equal(fresh.status, 200, fresh.text);
    assert.equal((await registerApp(f)).client_id.startsWith('app_'), true);
  } finally {
    await patchSettings(f, { metadata_documents_unadvertised: false });
  }
  assert.equal((await discovery(f)).client_id_metadata_document_supported, true);
});

test('MCP 2026-07-28: a refresh token of a public client (registered or metadata document) changes on every use, and the one used before is refused', async () => {
  const person = await signedInPerson(f);
  const registered = await registerApp(f, { grant_types: ['authorization_code', 'refresh_token'] });
  const document = servedDocument('rotating', { grant_types: ['authorization_code', 'refresh_token'] });
  for (const clientId of [registered.client_id, document]) {
    const got = await connectedCode(f, person.cookie, person.person.id, clientId, { scope: 'openid offline_access read:weather' });
    const tokens = await exchangePublic(f, clientId, got);
    assert.equal(tokens.status, 200, tokens.text);
    const seen = [tokens.body.refresh_token as string];
    for (let use = 0; use < 3; use++) {
      const next = await publicTokenRequest(f, clientId, { grant_type: 'refresh_token', refresh_token: seen.at(-1)!, resource: f.server.resource });
      assert.equal(next.status, 200, `${clientId} use ${use}: ${next.text}`);
      assert.match(next.body.refresh_token, /^ghr_/);
      assert.ok(!seen.includes(next.body.refresh_token), 'a new refresh token every time');
      seen.push(next.body.refresh_token);
    }
    const reused = await publicTokenRequest(f, clientId, { grant_type: 'refresh_token', refresh_token: seen[1]!, resource: f.server.resource });
    assert.equal(reused.status, 400, reused.text);
    assert.equal(reused.body.error, 'invalid_grant', 'a used refresh token is refused');
    // Reuse ends the chain (OAuth 2.1 4.3.1): the newest one is refused too.
    const newest = await publicTokenRequest(f, clientId, { grant_type: 'refresh_token', refresh_token: seen.at(-1)!, resource: f.server.resource });
    assert.equal(newest.body.error, 'invalid_grant');
  }
});

test('registration echoes client_id_issued_at, response_types and token_endpoint_auth_method even when the request names neither of the last two', async () => {
  const answer = await register(f, { client_name: 'Terse', redirect_uris: ['http://127.0.0.1/cb'] });
  assert.equal(answer.status, 201, answer.text);
  assert.equal(Number.isInteger(answer.body.client_id_issued_at), true);
  const now = Math.floor(f.t.clock.now().getTime() / 1000);
  assert.ok(Math.abs(answer.body.client_id_issued_at - now) <= 5, 'seconds since the epoch, now');
  assert.deepEqual(answer.body.response_types, ['code']);
  assert.equal(answer.body.token_endpoint_auth_method, 'none');
  assert.deepEqual(answer.body.grant_types, ['authorization_code']);
});

test('the registration endpoint exists only on tenant hosts, and an unknown host answers 404', async () => {
  const unknown = await tenantFetch(`http://no-such-api.localhost:${f.t.port}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(unknown.status, 404);
  const consoleHost = await fetch(`${f.t.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  assert.equal(consoleHost.status, 404, 'the console host has no sign-in service');
});
