// Client ID metadata documents (spec 4.3), served over https by a server whose certificate comes
// from the test authority: the URL rules, the document rules on both sides of every bound, the
// cache lifetimes driven by the app's clock, errors never cached, and what a failure looks like at
// the authorization endpoint (an error page) and the token endpoint (invalid_client).
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { DAY, HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import {
  connectedCode, exchangePublic, freshPath, jwtClaims, metadataDocument, probeClient, publicTokenRequest, startConnected, startDocumentServer, type DocumentServer,
} from '../support/connected-apps.js';
import { holdClock, patchSettings } from '../support/issuer-flows.js';
import { signedInPerson, startIssuer, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
let docs: DocumentServer;
before(async () => {
  f = await startConnected('Documents API');
  docs = await startDocumentServer();
});
after(async () => {
  await docs.close();
  await f.t.close();
});
// Each test starts with the network's allowance of document fetches whole (30 a minute).
beforeEach(() => f.t.clock.advance(2 * MINUTE));

/** Serves a good document at a fresh path and answers its URL. */
function served(name: string, extra: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const path = freshPath(name);
  const url = docs.url(path);
  docs.serve(path, { body: metadataDocument(url, extra), headers });
  return { path, url };
}

async function assertRefused(url: string, pattern: RegExp, what = url) {
  const probe = await probeClient(f, url);
  assert.equal(probe.status, 400, `${what}: ${probe.status} ${probe.location}`);
  assert.equal(probe.location, null, 'never a redirect');
  assert.match(probe.html, pattern, what);
}

test('a metadata document app signs in: code + PKCE with resource, tokens for 600 s, the client_id is the URL in every token', async () => {
  const { url } = served('signin', { grant_types: ['authorization_code', 'refresh_token'] });
  const person = await signedInPerson(f);
  const got = await connectedCode(f, person.cookie, person.person.id, url, { scope: 'openid offline_access read:weather', redirectUri: 'http://127.0.0.1:51000/callback' });
  const tokens = await exchangePublic(f, url, got);
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal(tokens.body.expires_in, 600);
  const access = jwtClaims(tokens.body.access_token);
  assert.equal(access.client_id, url);
  assert.equal(access.exp - access.iat, 600);
  assert.deepEqual(access.aud, [f.server.resource, f.issuer]);
  assert.equal(jwtClaims(tokens.body.id_token).aud, url);
  assert.match(tokens.body.refresh_token, /^ghr_/, 'grant_types holds refresh_token');
  const refreshed = await publicTokenRequest(f, url, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token });
  assert.equal(refreshed.status, 200, refreshed.text);
});

test('URL rules: https with a path, no query, fragment, user name or dot segments, at most 2000 characters, in normal form; nothing is fetched for a bad one', async () => {
  const base = docs.origin;
  const bad: [string, RegExp][] = [
    [`http://127.0.0.1:${new URL(base).port}/client.json`, /https/],
    [base, /path/],
    [`${base}/`, /path/],
    [`${base}/client.json?v=1`, /query/],
    [`${base}/client.json?`, /query/],
    [`${base}/client.json#x`, /fragment/],
    [`${base}/client.json#`, /fragment/],
    [base.replace('https://', 'https://agent@') + '/client.json', /user name/],
    [base.replace('https://', 'https://agent:pw@') + '/client.json', /user name/],
    [`${base}/a/./client.json`, /segments/],
    [`${base}/a/../client.json`, /segments/],
    [`${base}/a/%2e%2e/client.json`, /segments/],
    [`${base}/a/%2E/client.json`, /segments/],
    [base.replace('127.0.0.1', '127.000.000.001') + '/client.json', /normal form/],
    [`${base}/${'p'.repeat(2001 - base.length - 1)}`, /longer than 2000/],
  ];
  for (const [url, pattern] of bad) await assertRefused(url, pattern, url.slice(0, 80));
  assert.equal(docs.hits('/client.json'), 0, 'no bad URL was fetched');
  // The longest URL allowed works.
  const longPath = '/' + 'p'.repeat(2000 - base.length - 1);
  const longUrl = base + longPath;
  assert.equal(longUrl.length, 2000);
  docs.serve(longPath, { body: metadataDocument(longUrl) });
  assert.ok((await probeClient(f, longUrl)).found);
});

test('the document: up to 5 KB (a byte more is refused), up to 20 redirect URIs (21 refused)', async () => {
  const sized = (bytes: number) => {
    const path = freshPath('sized');
    const url = docs.url(path);
    const base = JSON.stringify(metadataDocument(url, { client_uri: '' }));
    const body = base.replace('"client_uri":""', `"client_uri":"${'x'.repeat(bytes - base.length)}"`);
    assert.equal(Buffer.byteLength(body), bytes);
    docs.serve(path, { body });
    return url;
  };
  assert.ok((await probeClient(f, sized(5 * 1024))).found, '5120 bytes');
  await assertRefused(sized(5 * 1024 + 1), /larger than 5120 bytes/);
  const uris = (n: number) => Array.from({ length: n }, (_, i) => `http://127.0.0.1/cb${i}`);
  const twenty = served('twenty', { redirect_uris: uris(20) });
  assert.ok((await probeClient(f, twenty.url, 'http://127.0.0.1/cb19')).found);
  await assertRefused(served('twenty-one', { redirect_uris: uris(21) }).url, /at most 20/);
});

test('the document names itself: client_id exactly the URL, client_name and redirect_uris required, redirect URIs by the registration rules', async () => {
  const mismatch = freshPath('mismatch');
  docs.serve(mismatch, { body: metadataDocument(docs.url(mismatch) + '/') });
  await assertRefused(docs.url(mismatch), /client_id is not exactly the URL/);
  const missingId = freshPath('no-id');
  docs.serve(missingId, { body: { client_name: 'x', redirect_uris: ['http://127.0.0.1/callback'] } });
  await assertRefused(docs.url(missingId), /client_id is not exactly the URL/);
  await assertRefused(served('no-name', { client_name: undefined }).url, /client_name is required/);
  await assertRefused(served('long-name', { client_name: 'n'.repeat(101) }).url, /at most 100/);
  await assertRefused(served('no-uris', { redirect_uris: undefined }).url, /redirect_uris is required/);
  await assertRefused(served('js-uri', { redirect_uris: ['javascript:alert(1)'] }).url, /javascript: scheme is refused/);
  await assertRefused(served('http-uri', { redirect_uris: ['http://agent.example/cb'] }).url, /plain http/);
  const notJson = freshPath('not-json');
  docs.serve(notJson, { body: '<html>hello</html>' });
  await assertRefused(docs.url(notJson), /not JSON/);
  const array = freshPath('array');
  docs.serve(array, { body: '[]' });
  await assertRefused(docs.url(array), /JSON object/);
  // A redirect URI the document does not list is not this app's.
  const { url } = served('listed');
  const probe = await probeClient(f, url, 'http://127.0.0.1/elsewhere');
  assert.equal(probe.status, 400);
  assert.match(probe.html, /not registered for this app/);
});

test('token_endpoint_auth_method none or omitted; a client_secret or any secret-based method is refused', async () => {
  assert.ok((await probeClient(f, served('none', { token_endpoint_auth_method: 'none' }).url)).found);
  assert.ok((await probeClient(f, served('omitted').url)).found);
  for (const method of ['client_secret_basic', 'client_secret_post', 'private_key_jwt']) {
    await assertRefused(served(method, { token_endpoint_auth_method: method }).url, /token_endpoint_auth_method must be none/, method);
  }
  await assertRefused(served('secret', { client_secret: 'shh' }).url, /client_secret/);
});

test('grant_types hold authorization_code and may add refresh_token (refresh tokens only then); response_types code', async () => {
  const person = await signedInPerson(f);
  const { url } = served('no-refresh', { grant_types: ['authorization_code'] });
  const got = await connectedCode(f, person.cookie, person.person.id, url, { scope: 'openid offline_access read:weather' });
  const tokens = await exchangePublic(f, url, got);
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal(tokens.body.refresh_token, undefined);
  assert.equal(tokens.body.scope, 'openid read:weather');
  await assertRefused(served('only-refresh', { grant_types: ['refresh_token'] }).url, /must include authorization_code/);
  await assertRefused(served('cc', { grant_types: ['authorization_code', 'client_credentials'] }).url, /may hold only/);
  assert.ok((await probeClient(f, served('code', { response_types: ['code'] }).url)).found);
  await assertRefused(served('token', { response_types: ['token'] }).url, /response_types may hold only code/);
});

test('fetching: redirects are not followed, a failing answer is refused, only public addresses (without the test-only exception)', async () => {
  const moved = freshPath('moved');
  const { url: target } = served('target');
  docs.serve(moved, { status: 302, headers: { location: target } });
  await assertRefused(docs.url(moved), /redirect \(302\), which is not followed/);
  assert.equal(docs.hits(new URL(target).pathname), 0, 'the redirect was not followed');
  const broken = freshPath('broken');
  docs.serve(broken, { status: 500, body: {} });
  await assertRefused(docs.url(broken), /HTTP 500/);
  await assertRefused(docs.url(freshPath('missing')), /HTTP 404/);
  // The service as it runs anywhere but in tests: loopback is not the public internet.
  const guarded = await startIssuer('Guarded Documents API');
  try {
    await patchSettings(guarded, { connected_apps: 'on' });
    const { url, path } = served('guarded');
    const probe = await probeClient(guarded, url);
    assert.equal(probe.status, 400);
    assert.match(probe.html, /not on the public internet/);
    assert.equal(docs.hits(path), 0);
  } finally {
    await guarded.t.close();
  }
});

test('a fetch failure or a bad document: an error page at authorize, invalid_client at the token endpoint; errors are never cached', async () => {
  const person = await signedInPerson(f);
  const { url, path } = served('flaky', {}, { 'cache-control': 'max-age=600' });
  const got = await connectedCode(f, person.cookie, person.person.id, url);
  assert.equal(docs.hits(path), 1);
  // The copy expires; the document now fails.
  f.t.clock.advance(11 * MINUTE);
  docs.serve(path, { status: 503 });
  const token = await exchangePublic(f, url, got);
  assert.equal(token.status, 401, token.text);
  assert.equal(token.body.error, 'invalid_client');
  assert.match(token.body.error_description, /HTTP 503/);
  await assertRefused(url, /HTTP 503/);
  await assertRefused(url, /HTTP 503/);
  assert.equal(docs.hits(path), 4, 'each use fetched again: the failure was not kept');
  // A bad document is no better.
  docs.serve(path, { body: metadataDocument(url, { token_endpoint_auth_method: 'private_key_jwt' }) });
  const invalid = await publicTokenRequest(f, url, { grant_type: 'refresh_token', refresh_token: 'ghr_x' });
  assert.equal(invalid.status, 401);
  assert.equal(invalid.body.error, 'invalid_client');
  // Fixed: the next use fetches and works at once.
  docs.serve(path, { body: metadataDocument(url), headers: { 'cache-control': 'max-age=600' } });
  assert.ok((await probeClient(f, url)).found);
  assert.equal(docs.hits(path), 6);
});

/** Fetches once, then probes at `lifetimeMs` less and more a little: cached before, fetched again after. */
async function assertLifetime(name: string, cacheHeaders: Record<string, string>, lifetimeMs: number) {
  const { url, path } = served(name, {}, cacheHeaders);
  assert.ok((await probeClient(f, url)).found, name);
  assert.equal(docs.hits(path), 1);
  f.t.clock.advance(lifetimeMs - 30 * SECOND);
  assert.ok((await probeClient(f, url)).found);
  assert.equal(docs.hits(path), 1, `${name}: still the kept copy just before ${lifetimeMs / 1000} s`);
  f.t.clock.advance(60 * SECOND);
  assert.ok((await probeClient(f, url)).found);
  assert.equal(docs.hits(path), 2, `${name}: fetched again just after ${lifetimeMs / 1000} s`);
}

test('cache lifetimes: as the headers say between 5 minutes and 24 hours, 1 hour without them', async () => {
  await assertLifetime('ten-minutes', { 'cache-control': 'public, max-age=600' }, 10 * MINUTE);
  await assertLifetime('floor', { 'cache-control': 'max-age=60' }, 5 * MINUTE);
  await assertLifetime('zero', { 'cache-control': 'max-age=0' }, 5 * MINUTE);
  await assertLifetime('ceiling', { 'cache-control': 'max-age=172800' }, DAY);
  await assertLifetime('default', {}, HOUR);
  await assertLifetime('s-maxage', { 'cache-control': 'max-age=300, s-maxage=1200' }, 20 * MINUTE);
  await assertLifetime('age', { 'cache-control': 'max-age=1800', age: '600' }, 20 * MINUTE);
  const date = new Date();
  await assertLifetime('expires', { date: date.toUTCString(), expires: new Date(date.getTime() + 2 * HOUR).toUTCString() }, 2 * HOUR);
});

test('no-store and no-cache: fetched on every use', async () => {
  for (const directive of ['no-store', 'no-cache', 'private, no-cache="set-cookie"']) {
    const { url, path } = served(directive.replace(/\W+/g, '-'), {}, { 'cache-control': directive });
    for (let i = 1; i <= 3; i++) {
      assert.ok((await probeClient(f, url)).found);
      assert.equal(docs.hits(path), i, `${directive}: use ${i}`);
    }
  }
});

test('a changed document is read once the kept copy expires: new redirect URIs, a new name', async () => {
  const { url, path } = served('changing', { client_name: 'Before' }, { 'cache-control': 'max-age=300' });
  assert.ok((await probeClient(f, url)).found);
  docs.serve(path, { body: metadataDocument(url, { client_name: 'After', redirect_uris: ['http://127.0.0.1/new'] }), headers: { 'cache-control': 'max-age=300' } });
  assert.ok((await probeClient(f, url)).found, 'the kept copy still holds the old URI');
  f.t.clock.advance(6 * MINUTE);
  assert.equal((await probeClient(f, url)).status, 400, 'the old URI is gone');
  assert.ok((await probeClient(f, url, 'http://127.0.0.1/new')).found);
  const listed = (await f.owner.client.get(`/apis/${f.apiId}/signin/connected-apps?limit=200`)).body.apps.find((a: { client_id: string }) => a.client_id === url);
  assert.equal(listed.name, 'After');
  assert.equal(listed.kind, 'metadata');
  assert.equal(listed.host, '127.0.0.1');
});

test('while apps people connect are off, a metadata URL is refused without a fetch', async () => {
  const { url, path } = served('off');
  await patchSettings(f, { connected_apps: 'off' });
  try {
    await assertRefused(url, /turned off/);
    const token = await publicTokenRequest(f, url, { grant_type: 'refresh_token', refresh_token: 'ghr_x' });
    assert.equal(token.status, 401);
    assert.equal(token.body.error, 'invalid_client');
    assert.equal(docs.hits(path), 0);
  } finally {
    await patchSettings(f, { connected_apps: 'on' });
  }
});

test('a network may have 30 documents fetched a minute; the 31st is a 429 page, and kept copies need no fetch', async () => {
  f.t.clock.advance(HOUR);
  const urls = Array.from({ length: 31 }, (_, i) => served(`many-${i}`).url);
  const clock = holdClock(f.t);
  try {
    for (const url of urls.slice(0, 30)) assert.ok((await probeClient(f, url)).found);
    const over = await probeClient(f, urls[30]!);
    assert.equal(over.status, 429);
    assert.match(over.html, /Too many client metadata documents/);
    assert.ok((await probeClient(f, urls[0]!)).found, 'a kept copy is no fetch');
  } finally {
    clock.release();
  }
});
