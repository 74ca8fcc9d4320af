// Dynamic client registration (RFC 7591) as spec 4.3, 7 and 8 have it: every rule of the request
// on both sides, the 201 answer, errors in OAuth's shape, CORS, and the app it makes at work.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertRegistrationError, connectedCode, exchangePublic, probeClient, register, registerApp, startConnected } from '../support/connected-apps.js';
import { assertErrorPageWithReturn, authorizeRaw, patchSettings } from '../support/issuer-flows.js';
import { pkcePair, signedInPerson, tenantFetch, type IssuerFixture } from '../support/issuer.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';

let f: IssuerFixture;
before(async () => {
  f = await startConnected('Registration API');
});
after(() => f.t.close());

test('201: the answer of spec 4.3 (client_id, issued at, type, name, URIs, none, grants, code), never a secret, not cached', async () => {
  const before = Math.floor(f.t.clock.now().getTime() / 1000);
  const answer = await register(f, {
    client_name: 'Claude Code', redirect_uris: ['http://localhost:33418/callback'], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none',
    // Metadata we do not act on is ignored (RFC 7591 2), not refused.
    client_uri: 'https://claude.ai', logo_uri: 'https://claude.ai/logo.png', scope: 'openid read:weather', contacts: ['dev@example.com'], software_id: 'claude-code', software_version: '2.0',
  });
  assert.equal(answer.status, 201, answer.text);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  const body = answer.body;
  assert.deepEqual(Object.keys(body).sort(), ['application_type', 'client_id', 'client_id_issued_at', 'client_name', 'grant_types', 'redirect_uris', 'response_types', 'token_endpoint_auth_method']);
  assert.match(body.client_id, /^app_[0-9A-Za-z]{20}$/);
  assert.ok(body.client_id_issued_at >= before - 1 && body.client_id_issued_at <= before + 5, 'seconds, now');
  assert.deepEqual(
    { ...body, client_id: undefined, client_id_issued_at: undefined },
    { client_id: undefined, client_id_issued_at: undefined, application_type: 'native', client_name: 'Claude Code', redirect_uris: ['http://localhost:33418/callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
  );
});

test("client_name: 100 characters are kept, 101 refused; none (or only spaces) shows as 'Unnamed app'", async () => {
  const hundred = 'n'.repeat(99) + 'é';
  assert.equal((await registerApp(f, { client_name: hundred }) as any).client_name, hundred);
  assertRegistrationError(await register(f, { client_name: 'n'.repeat(101), redirect_uris: ['http://127.0.0.1/cb'] }), 400, 'invalid_client_metadata');
  const unnamed = await register(f, { redirect_uris: ['http://127.0.0.1/cb'] });
  assert.equal(unnamed.status, 201, unnamed.text);
  assert.equal(unnamed.body.client_name, 'Unnamed app');
  assert.equal((await register(f, { client_name: '   ', redirect_uris: ['http://127.0.0.1/cb'] })).body.client_name, 'Unnamed app');
  assertRegistrationError(await register(f, { client_name: 42, redirect_uris: ['http://127.0.0.1/cb'] }), 400, 'invalid_client_metadata');
});

test('the body: 16 KB is taken, a byte more is refused unread (413, OAuth shape); JSON objects only, every string by the text rule', async () => {
  const sized = (bytes: number) => {
    const base = JSON.stringify({ client_name: 'Big', redirect_uris: ['http://127.0.0.1/cb'], software_statement_note: '' });
    return base.replace('"software_statement_note":""', `"software_statement_note":"${'x'.repeat(bytes - base.length)}"`);
  };
  assert.equal(Buffer.byteLength(sized(16 * 1024)), 16 * 1024);
  const fits = await register(f, sized(16 * 1024));
  assert.equal(fits.status, 201, fits.text);
  const over = await register(f, sized(16 * 1024 + 1));
  assert.equal(over.status, 413, over.text);
  assert.equal(over.body.error, 'invalid_request');
  assert.doesNotMatch(over.headers.get('content-type') ?? '', /problem/);
  assertRegistrationError(await register(f, '[1,2]'), 400, 'invalid_client_metadata', 'an array');
  assertRegistrationError(await register(f, '"app"'), 400, 'invalid_client_metadata', 'a string');
  assert.equal((await register(f, '{"redirect_uris":')).body.error, 'invalid_request', 'not JSON');
  assertRegistrationError(await register(f, { client_name: 'Nul\u0000', redirect_uris: ['http://127.0.0.1/cb'] }), 400, 'invalid_client_metadata', 'NUL');
  assertRegistrationError(await register(f, { client_name: 'ok', client_uri: 'https://x.example/\ud800', redirect_uris: ['http://127.0.0.1/cb'] }), 400, 'invalid_client_metadata', 'a lone surrogate in an ignored field');
  assertRegistrationError(await register(f, 'client_name=x', { 'content-type': 'application/x-www-form-urlencoded' }), 400, 'invalid_client_metadata', 'a form');
});

test('redirect URIs: loopback on localhost, 127.0.0.1 and [::1] (any port matches), custom schemes, https; refused schemes and plain http elsewhere', async () => {
  const accepted: [string[], string][] = [
    [['http://localhost/callback'], 'native'],
    [['http://127.0.0.1:8080/callback'], 'native'],
    [['http://[::1]:9000/cb'], 'native'],
    [['https://localhost:8443/cb'], 'native'],
    [['cursor://anysphere.cursor-retrieval/oauth/callback'], 'native'],
    [['com.example.agent:/oauth2redirect'], 'native'],
    [['https://agent.example/callback'], 'web'],
    // Several kinds in one request.
    [['https://vscode.dev/redirect', 'http://127.0.0.1:33418/', 'vscode://vscode.github-authentication/did-authenticate'], 'native'],
  ];
  for (const [uris, type] of accepted) {
    const answer = await register(f, { client_name: 'Kinds', redirect_uris: uris });
    assert.equal(answer.status, 201, `${uris.join(' ')}: ${answer.text}`);
    assert.equal(answer.body.application_type, type, uris.join(' '));
    assert.deepEqual(answer.body.redirect_uris, uris);
  }
  const refused = [
    'javascript:alert(1)', 'data:text/html,hi', 'file:///etc/passwd', 'mailto:a@example.com', 'vbscript:x',
    'http://agent.example/callback', 'http://127.0.0.2/cb', 'http://localhost.evil.example/cb',
    'https://agent.example/cb#frag', 'https://agent.example/cb#', 'https://user:pw@agent.example/cb', 'not a url', '/relative/cb', 'https://agent.example/' + 'p'.repeat(2000),
  ];
  for (const uri of refused) assertRegistrationError(await register(f, { client_name: 'Bad', redirect_uris: [uri] }), 400, 'invalid_redirect_uri', uri.slice(0, 60));
  assertRegistrationError(await register(f, { client_name: 'Bad', redirect_uris: ['https://ok.example/cb', 'javascript:alert(1)'] }), 400, 'invalid_redirect_uri', 'one bad among good');
  assertRegistrationError(await register(f, { client_name: 'None' }), 400, 'invalid_redirect_uri', 'missing');
  assertRegistrationError(await register(f, { client_name: 'None', redirect_uris: [] }), 400, 'invalid_redirect_uri', 'empty');
  assertRegistrationError(await register(f, { client_name: 'Twice', redirect_uris: ['http://127.0.0.1/cb', 'http://127.0.0.1/cb'] }), 400, 'invalid_redirect_uri', 'repeated');
  const twenty = Array.from({ length: 20 }, (_, i) => `http://127.0.0.1/cb${i}`);
  assert.equal((await register(f, { client_name: 'Twenty', redirect_uris: twenty })).status, 201);
  assertRegistrationError(await register(f, { client_name: 'Many', redirect_uris: [...twenty, 'http://127.0.0.1/cb20'] }), 400, 'invalid_redirect_uri', '21 URIs');
});

test('application_type: native by default for loopback or custom schemes, web for https only; an explicit web takes only https on a real host', async () => {
  assert.equal((await register(f, { client_name: 'W', application_type: 'web', redirect_uris: ['https://agent.example/cb'] })).body.application_type, 'web');
  assert.equal((await register(f, { client_name: 'N', application_type: 'native', redirect_uris: ['https://agent.example/cb'] })).body.application_type, 'native', 'claimed https redirects');
  for (const uri of ['http://127.0.0.1/cb', 'https://localhost/cb', 'com.example.app:/cb']) {
    assertRegistrationError(await register(f, { client_name: 'W', application_type: 'web', redirect_uris: ['https://agent.example/cb', uri] }), 400, 'invalid_redirect_uri', uri);
  }
  assertRegistrationError(await register(f, { client_name: 'X', application_type: 'desktop', redirect_uris: ['http://127.0.0.1/cb'] }), 400, 'invalid_client_metadata');
});

test('token_endpoint_auth_method: none, client_secret_basic and client_secret_post are taken with no secret and answered none; private_key_jwt refused', async () => {
  for (const method of ['none', 'client_secret_basic', 'client_secret_post']) {
    const answer = await register(f, { client_name: 'Auth', redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: method });
    assert.equal(answer.status, 201, `${method}: ${answer.text}`);
    assert.equal(answer.body.token_endpoint_auth_method, 'none');
    assert.equal(answer.body.client_secret, undefined);
    assert.equal(answer.body.client_secret_expires_at, undefined);
  }
  for (const method of ['private_key_jwt', 'client_secret_jwt', 'tls_client_auth', 7]) {
    assertRegistrationError(await register(f, { client_name: 'Auth', redirect_uris: ['https://agent.example/cb'], token_endpoint_auth_method: method }), 400, 'invalid_client_metadata', String(method));
  }
});

test('grant_types default to authorization_code, may add refresh_token, nothing else; response_types code only', async () => {
  assert.deepEqual((await registerApp(f)).grant_types, ['authorization_code']);
  assert.deepEqual((await registerApp(f, { grant_types: ['refresh_token', 'authorization_code'] })).grant_types, ['authorization_code', 'refresh_token']);
  for (const grants of [['refresh_token'], ['authorization_code', 'client_credentials'], ['implicit'], 'authorization_code', []]) {
    assertRegistrationError(await register(f, { client_name: 'G', redirect_uris: ['http://127.0.0.1/cb'], grant_types: grants }), 400, 'invalid_client_metadata', JSON.stringify(grants));
  }
  assert.equal((await register(f, { client_name: 'R', redirect_uris: ['http://127.0.0.1/cb'], response_types: ['code'] })).status, 201);
  for (const types of [['token'], ['code', 'id_token'], []]) {
    assertRegistrationError(await register(f, { client_name: 'R', redirect_uris: ['http://127.0.0.1/cb'], response_types: types }), 400, 'invalid_client_metadata', JSON.stringify(types));
  }
});

test('a registered app signs in with PKCE as a public client: loopback on any port, refresh tokens only with refresh_token, no secret accepted', async () => {
  const person = await signedInPerson(f);
  const withRefresh = await registerApp(f, { redirect_uris: ['http://127.0.0.1/callback'], grant_types: ['authorization_code', 'refresh_token'] });
  // RFC 8252 7.3: the app listens on whatever port it got.
  const got = await connectedCode(f, person.cookie, person.person.id, withRefresh.client_id, { redirectUri: 'http://127.0.0.1:49152/callback', scope: 'openid offline_access read:weather' });
  const tokens = await exchangePublic(f, withRefresh.client_id, got);
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal(tokens.body.scope, 'openid offline_access read:weather');
  assert.match(tokens.body.refresh_token, /^ghr_/);
  const refreshed = await tenantFetch(f.issuer + '/oauth/token', {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, client_id: withRefresh.client_id }).toString(),
  });
  assert.equal(refreshed.status, 200);

  const noRefresh = await registerApp(f);
  const plain = await exchangePublic(f, noRefresh.client_id, await connectedCode(f, person.cookie, person.person.id, noRefresh.client_id, { scope: 'openid offline_access read:weather' }));
  assert.equal(plain.status, 200, plain.text);
  assert.equal(plain.body.scope, 'openid read:weather', 'offline_access is dropped without refresh_token');
  assert.equal(plain.body.refresh_token, undefined);

  // A client secret_basic registration got no secret: presenting one is not this app.
  const basicApp = await registerApp(f, { token_endpoint_auth_method: 'client_secret_basic' });
  const got2 = await connectedCode(f, person.cookie, person.person.id, basicApp.client_id);
  const withSecret = await tenantFetch(f.issuer + '/oauth/token', {
    method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${basicApp.client_id}:guess`).toString('base64')}` },
    body: new URLSearchParams({ grant_type: 'authorization_code', code: got2.code, code_verifier: got2.verifier, redirect_uri: got2.redirectUri }).toString(),
  });
  assert.equal(withSecret.status, 401);
  assert.equal(((await withSecret.json()) as { error: string }).error, 'invalid_client');
  // A registered web app is public and third-party: no platform:api_keys (spec 4.5).
  const web = await registerApp(f, { redirect_uris: ['https://agent.example/cb'] });
  const pkce = pkcePair();
  const keys = await authorizeRaw(f, { response_type: 'code', client_id: web.client_id, redirect_uri: 'https://agent.example/cb', scope: 'openid platform:api_keys', state: 'k', code_challenge: pkce.challenge, code_challenge_method: 'S256' }, person.cookie);
  assertErrorPageWithReturn(f, keys, 'invalid_scope', 'k', 'https://agent.example/cb');
});

test('CORS without credentials: preflight and answer carry Access-Control-Allow-Origin *, never Allow-Credentials', async () => {
  const preflight = await tenantFetch(f.issuer + '/oauth/register', { method: 'OPTIONS', headers: { origin: 'https://agent.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' } });
  assert.equal(preflight.status, 204);
  assert.equal(preflight.headers.get('access-control-allow-origin'), '*');
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /Content-Type/i);
  assert.equal(preflight.headers.get('access-control-allow-credentials'), null);
  const answer = await register(f, { client_name: 'Browser agent', redirect_uris: ['https://agent.example/cb'] }, { origin: 'https://agent.example' });
  assert.equal(answer.status, 201);
  assert.equal(answer.headers.get('access-control-allow-origin'), '*');
  assert.equal(answer.headers.get('access-control-allow-credentials'), null);
  const refused = await register(f, { client_name: 'Browser agent' }, { origin: 'https://agent.example' });
  assert.equal(refused.headers.get('access-control-allow-origin'), '*', 'errors are readable cross-origin too');
});

test('while apps people connect are off: 403 access_denied, and registered apps stop working until they are on again', async () => {
  const app = await registerApp(f);
  assert.ok((await probeClient(f, app.client_id)).found);
  await patchSettings(f, { connected_apps: 'off' });
  try {
    assertRegistrationError(await register(f, { client_name: 'Off', redirect_uris: ['http://127.0.0.1/cb'] }), 403, 'access_denied');
    // Even a body that would be refused: the service does not take registrations at all.
    assertRegistrationError(await register(f, { redirect_uris: ['javascript:x'] }), 403, 'access_denied');
    const probe = await probeClient(f, app.client_id);
    assert.equal(probe.status, 400, 'an error page, never a redirect');
    assert.match(probe.html, /turned off/);
  } finally {
    await patchSettings(f, { connected_apps: 'on' });
  }
  assert.ok((await probeClient(f, app.client_id)).found);
});

test('a suspended API takes no registrations (503 temporarily_unavailable)', async () => {
  await f.t.services.db.updateTable('apis').set({ status: 'suspended' }).where('id', '=', f.apiId).execute();
  await notifyChange(f.t.services.db, [changed.api(f.apiId)]);
  try {
    assertRegistrationError(await register(f, { client_name: 'S', redirect_uris: ['http://127.0.0.1/cb'] }), 503, 'temporarily_unavailable');
  } finally {
    await f.t.services.db.updateTable('apis').set({ status: 'active' }).where('id', '=', f.apiId).execute();
    await notifyChange(f.t.services.db, [changed.api(f.apiId)]);
  }
});
