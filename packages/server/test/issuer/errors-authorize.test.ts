// Spec 4.2 and 7 at /oauth/authorize: errors that must never redirect (a page), and every error
// that goes back to the app with error, error_description, state and iss; form_post delivery.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertRedirectedError, authorizeRaw, exchangeCode, setPassword, signInOnPage, webCode } from '../support/issuer-flows.js';
import { rememberConsent, signedInPerson, startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Authorize Errors API');
  // A second server whose permission the weather server does not expose.
  const tides = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Tides', resource_url: 'https://api.tides.example/', permissions: [{ name: 'read:tides', description: 'Read tides' }] });
  assert.equal(tides.status, 200, tides.text);
});
after(() => f.t.close());

function assertErrorPage(answer: Awaited<ReturnType<typeof authorizeRaw>>, what: string) {
  assert.equal(answer.status, 400, `${what}: ${answer.html.slice(0, 200)}`);
  assert.equal(answer.location, null, `${what}: never redirects`);
  assert.match(answer.headers.get('content-type')!, /^text\/html/);
  assert.match(answer.html, /Sign-in cannot continue/);
  assert.match(answer.headers.get('content-security-policy')!, /default-src 'none'/);
}

test('unknown or missing client_id, and a missing or unregistered redirect_uri, show a 400 page and never redirect (spec 4.2 rule 2)', async () => {
  const { params } = webRequest(f);
  const without = (name: string) => Object.fromEntries(Object.entries(params).filter(([key]) => key !== name));
  assertErrorPage(await authorizeRaw(f, without('client_id')), 'missing client_id');
  assertErrorPage(await authorizeRaw(f, { ...params, client_id: 'app_unknown' }), 'unknown client_id');
  assertErrorPage(await authorizeRaw(f, { ...params, client_id: f.server.clientId }), 'a server is not an app');
  assertErrorPage(await authorizeRaw(f, { ...params, client_id: [f.web.clientId, f.spa.clientId] }), 'repeated client_id');
  assertErrorPage(await authorizeRaw(f, without('redirect_uri')), 'missing redirect_uri');
  assertErrorPage(await authorizeRaw(f, { ...params, redirect_uri: 'https://evil.example/callback' }), 'unregistered redirect_uri');
  assertErrorPage(await authorizeRaw(f, { ...params, redirect_uri: f.web.redirectUri + '/' }), 'not an exact match');
  assertErrorPage(await authorizeRaw(f, { ...params, redirect_uri: f.spa.redirectUri }), "another app's redirect_uri");
  assertErrorPage(await authorizeRaw(f, { ...params, redirect_uri: [f.web.redirectUri, f.web.redirectUri] }), 'repeated redirect_uri');
  // Even with every other parameter wrong, an unknown client never redirects.
  assertErrorPage(await authorizeRaw(f, { client_id: 'app_unknown', redirect_uri: 'https://evil.example/cb', response_type: 'token' }), 'all wrong');
});

test('malformed requests of a known client go back to it as invalid_request with state and iss', async () => {
  const cases: [string, (p: Record<string, string>) => Record<string, string | string[]>][] = [
    ['missing response_type', ({ response_type: _, ...rest }) => rest],
    ['response_type other than code', (p) => ({ ...p, response_type: 'token' })],
    ['response_type code id_token', (p) => ({ ...p, response_type: 'code id_token' })],
    ['repeated scope', (p) => ({ ...p, scope: ['openid', 'openid'] })],
    ['repeated state', (p) => ({ ...p, state: [p.state!, 'other'] })],
    ['repeated response_type', (p) => ({ ...p, response_type: ['code', 'code'] })],
    ['PKCE missing', ({ code_challenge: _, code_challenge_method: __, ...rest }) => rest],
    ['code_challenge missing', ({ code_challenge: _, ...rest }) => rest],
    ['code_challenge_method missing', ({ code_challenge_method: _, ...rest }) => rest],
    ['method plain', (p) => ({ ...p, code_challenge_method: 'plain' })],
    ['malformed challenge', (p) => ({ ...p, code_challenge: 'short' })],
    ['missing scope', ({ scope: _, ...rest }) => rest],
    ['unsupported prompt', (p) => ({ ...p, prompt: 'select_account' })],
    ['prompt none with login', (p) => ({ ...p, prompt: 'none login' })],
    ['max_age not a number', (p) => ({ ...p, max_age: '-1' })],
    ['unsupported response_mode', (p) => ({ ...p, response_mode: 'fragment' })],
  ];
  for (const [what, change] of cases) {
    const { params } = webRequest(f);
    const answer = await authorizeRaw(f, change(params));
    // A repeated state is refused too; the first value is the one returned.
    assert.doesNotThrow(() => assertRedirectedError(f, answer, 'invalid_request', params.state!), what);
  }
});

test('scopes: unknown, a permission without resource, or one the server does not expose is invalid_scope; phone and address are dropped', async () => {
  for (const [what, extra] of [
    ['unknown scope', { scope: 'openid launch:rockets' }],
    ['permission without resource', { scope: 'openid read:weather' }],
    ['permission the server does not expose', { scope: 'openid read:tides', resource: f.server.resource }],
    ['reserved scope with a resource', { scope: 'openid platform:api_keys', resource: f.server.resource }],
  ] as const) {
    const { params } = webRequest(f, extra);
    const answer = await authorizeRaw(f, params);
    assert.doesNotThrow(() => assertRedirectedError(f, answer, 'invalid_scope', params.state!), what);
  }
  // The other side: the permission with its server is fine; phone and address disappear without error.
  const { person, cookie } = await signedInPerson(f);
  const { code, verifier } = await webCode(f, cookie, person.id, { scope: 'openid phone address read:weather', resource: f.server.resource });
  const tokens = await exchangeCode(f, code, verifier);
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal(tokens.body.scope, 'openid read:weather');
});

test('two resources or an unregistered one is invalid_target; exactly one registered resource is fine', async () => {
  const two = webRequest(f, { scope: 'openid' });
  assertRedirectedError(f, await authorizeRaw(f, { ...two.params, resource: [f.server.resource, 'https://api.tides.example/'] }), 'invalid_target', two.params.state!);
  const same = webRequest(f, { scope: 'openid' });
  assertRedirectedError(f, await authorizeRaw(f, { ...same.params, resource: [f.server.resource, f.server.resource] }), 'invalid_target', same.params.state!);
  const unknown = webRequest(f, { scope: 'openid', resource: 'https://api.unknown.example/' });
  assertRedirectedError(f, await authorizeRaw(f, unknown.params), 'invalid_target', unknown.params.state!);
  const trailing = webRequest(f, { scope: 'openid', resource: 'https://api.weather.example' });
  assertRedirectedError(f, await authorizeRaw(f, trailing.params), 'invalid_target', trailing.params.state!);
  const one = webRequest(f, { scope: 'openid', resource: f.server.resource });
  const answer = await authorizeRaw(f, one.params);
  assert.equal(answer.status, 303);
  assert.match(answer.location!.pathname, /^\/interaction\//, 'no session: on to sign-in, no error');
});

test('a blocked app hears unauthorized_client; an unblocked one goes on to sign-in', async () => {
  const made = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Soon Blocked', kind: 'web', redirect_uris: ['https://blocked.example/cb'] });
  assert.equal(made.status, 200, made.text);
  const params: Record<string, string> = { ...webRequest(f).params, client_id: made.body.id, redirect_uri: 'https://blocked.example/cb' };
  const first = await authorizeRaw(f, params);
  assert.match(first.location!.pathname, /^\/interaction\//);
  await f.t.services.db.updateTable('oauth_apps').set({ blocked: true }).where('id', '=', made.body.id).execute();
  await notifyChange(f.t.services.db, [changed.client(f.apiId, made.body.id)]);
  assertRedirectedError(f, await authorizeRaw(f, params), 'unauthorized_client', params.state!, 'https://blocked.example/cb');
});

test('prompt=none: login_required without a session or for a login_hint naming someone else, consent_required without consent; a code otherwise', async () => {
  const none = webRequest(f, { prompt: 'none' });
  assertRedirectedError(f, await authorizeRaw(f, none.params), 'login_required', none.params.state!);

  const { person, cookie } = await signedInPerson(f);
  const noConsent = webRequest(f, { prompt: 'none' });
  assertRedirectedError(f, await authorizeRaw(f, noConsent.params, cookie), 'consent_required', noConsent.params.state!);

  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const otherHint = webRequest(f, { prompt: 'none', login_hint: 'somebody-else@people.test' });
  assertRedirectedError(f, await authorizeRaw(f, otherHint.params, cookie), 'login_required', otherHint.params.state!);
  const maxAge = webRequest(f, { prompt: 'none', max_age: '0' });
  f.t.clock.advance(2000);
  assertRedirectedError(f, await authorizeRaw(f, maxAge.params, cookie), 'login_required', maxAge.params.state!);

  for (const extra of [{ prompt: 'none' }, { prompt: 'none', login_hint: person.email.toUpperCase() }] as Record<string, string>[]) {
    const ok = webRequest(f, extra);
    const answer = await authorizeRaw(f, ok.params, cookie);
    assert.equal(answer.status, 303);
    assert.ok(answer.location!.searchParams.get('code'), JSON.stringify(extra));
    assert.equal(answer.location!.searchParams.get('state'), ok.params.state);
    assert.equal(answer.location!.searchParams.get('iss'), f.issuer);
  }
});

test('a suspended API answers temporarily_unavailable; resumed, sign-ins go on', async () => {
  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/suspend`, {})).status, 200);
  try {
    const asked = webRequest(f);
    assertRedirectedError(f, await authorizeRaw(f, asked.params, cookie), 'temporarily_unavailable', asked.params.state!);
  } finally {
    assert.equal((await f.owner.client.post(`/apis/${f.apiId}/resume`)).status, 200);
  }
  const again = webRequest(f);
  assert.ok((await authorizeRaw(f, again.params, cookie)).location!.searchParams.get('code'));
});

test('a suspended person who signs in is given no session and the app hears access_denied; reactivated, they get a code', async () => {
  const { person, cookie } = await signedInPerson(f);
  await setPassword(f.t, person.id, 'correct horse battery');
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const suspend = await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'suspended' });
  assert.equal(suspend.status, 200, suspend.text);

  const asked = webRequest(f);
  const start = await authorizeRaw(f, asked.params, cookie);
  assert.match(start.location!.pathname, /^\/interaction\//, 'suspension ended the session: sign in again');
  const signedIn = await signInOnPage(f, start.location!, start.cookies, person.email, 'correct horse battery');
  assertRedirectedError(f, { ...start, status: signedIn.status, location: signedIn.location }, 'access_denied', asked.params.state!);
  assert.ok(!signedIn.cookies.some((pair) => pair.startsWith('gh_ps=')), 'no session for a suspended person');

  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'active' })).status, 200);
  const retry = webRequest(f);
  const restart = await authorizeRaw(f, retry.params);
  const back = await signInOnPage(f, restart.location!, restart.cookies, person.email, 'correct horse battery');
  assert.equal(back.status, 303);
  assert.ok(back.location!.searchParams.get('code'));
  assert.equal(back.location!.searchParams.get('iss'), f.issuer);
});

const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' })[name]!);

function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) out[decodeEntities(match[1]!)] = decodeEntities(match[2]!);
  return out;
}

test('response_mode=form_post delivers errors and codes as a form posting itself to the redirect URI', async () => {
  const bad = webRequest(f, { response_mode: 'form_post', code_challenge_method: 'plain', state: 'st<"&>' });
  const error = await authorizeRaw(f, bad.params);
  assert.equal(error.status, 200);
  assert.equal(error.location, null);
  assert.match(error.html, new RegExp(`<form method="post" action="${f.web.redirectUri}"`));
  assert.deepEqual(Object.keys(hiddenInputs(error.html)).sort(), ['error', 'error_description', 'iss', 'state']);
  assert.equal(hiddenInputs(error.html).error, 'invalid_request');
  assert.equal(hiddenInputs(error.html).state, 'st<"&>', 'state returned unchanged, escaped in the HTML');
  assert.ok(!error.html.includes('st<"&>'));
  assert.equal(hiddenInputs(error.html).iss, f.issuer);
  const csp = error.headers.get('content-security-policy')!;
  assert.match(csp, /form-action 'self' https:\/\/web\.example(;|$)/);
  assert.match(csp, /script-src 'nonce-[^']+'/);
  assert.match(error.html, /<script nonce="[^"]+">document\.getElementById\('response'\)\.submit\(\)<\/script>/);
  assert.equal(error.headers.get('cache-control'), 'no-store');

  const { person, cookie } = await signedInPerson(f);
  await rememberConsent(f, person.id, f.web.clientId, null, ['openid', 'profile', 'email']);
  const good = webRequest(f, { response_mode: 'form_post' });
  const answer = await authorizeRaw(f, good.params, cookie);
  assert.equal(answer.status, 200);
  const fields = hiddenInputs(answer.html);
  assert.deepEqual(Object.keys(fields).sort(), ['code', 'iss', 'state']);
  assert.equal(fields.state, good.params.state);
  assert.equal(fields.iss, f.issuer);
  const tokens = await exchangeCode(f, fields.code!, good.pkce.verifier);
  assert.equal(tokens.status, 200, tokens.text);
});
