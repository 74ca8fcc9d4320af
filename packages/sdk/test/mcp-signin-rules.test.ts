// Every rule a withMcpSignIn server applies (issue 14 item 4; spec 4.3 access tokens, 4.4 caller
// rules; RFC 9728; RFC 6750), each on both sides where it has two: tokens minted by the real
// Gatehouse, and tokens made here with a key the test adds to the JWKS the server fetches, so one
// claim at a time can be wrong.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWK, type JWTPayload } from 'jose';
import { connectedCode, exchangePublic, registerApp, startConnected } from '../../server/test/support/connected-apps.js';
import { tenantFetch, type IssuerFixture } from '../../server/test/support/issuer.js';
import { createCustomer, createKey, customerDetail } from '../../server/test/support/money.js';
import { createPerson, startPersonSession } from '../../server/test/support/signin.js';
import { protectResource } from '../src/index.js';
import { giveRoles, startWeatherMcp, type WeatherMcp } from './support/mcp-weather.js';

let f: IssuerFixture;
let mcp: WeatherMcp;
let appId: string;
/** The SDK's clock: the app's, unless a test holds it at an instant. */
let held: number | null = null;
const sdkNow = () => held ?? f.t.clock.now().getTime();
/** Keys this test signs with, added to the issuer's real JWKS when the server fetches it. */
const extraKeys: JWK[] = [];
type SigningKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let testKey: SigningKey;
let jwksFetches = 0;

async function jwksFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  jwksFetches++;
  const real = (await (await tenantFetch(String(url), init)).json()) as { keys: JWK[] };
  return new Response(JSON.stringify({ keys: [...real.keys, ...extraKeys] }), { status: 200, headers: { 'content-type': 'application/json' } });
}

async function addTestKey(kid: string): Promise<SigningKey> {
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  extraKeys.push({ ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' });
  return privateKey;
}

before(async () => {
  f = await startConnected('Weather MCP rules');
  testKey = await addTestKey('test-key-1');
  mcp = await startWeatherMcp(f, { meter: { now: sdkNow }, signIn: { fetch: jwksFetch as typeof fetch } });
  appId = (await registerApp(f)).client_id;
});
after(async () => {
  await mcp?.close();
  await f?.t.close();
});

/** A person of the API who belongs to a customer (as a portal sign-up leaves them), holding read:weather at the MCP server. */
async function member(roles = true) {
  const person = await createPerson(f.t, f.apiId);
  await f.t.services.customerMembers.joinOnVisit(f.apiId, person);
  const [membership] = await f.t.services.customerMembers.membershipsOf(f.apiId, person.id);
  assert.ok(membership);
  if (roles) await giveRoles(f, person.id, [mcp.readerRoleId]);
  return { personId: person.id, customerId: membership.customer_id };
}

/** An access token minted by Gatehouse for a person, through a registered app's code flow. */
async function realToken(personId: string, options: { resource?: string; scope?: string } = {}): Promise<string> {
  const session = await startPersonSession(f.t, f.apiId, personId);
  const got = await connectedCode(f, `gh_ps=${session.token}`, personId, appId, { scope: options.scope ?? 'read:weather', resource: options.resource ?? mcp.url });
  const tokens = await exchangePublic(f, appId, got);
  assert.equal(tokens.status, 200, tokens.text);
  return tokens.body.access_token as string;
}

/** A token made here: right in every respect unless `claims` or `header` say otherwise. */
async function madeToken(sub: string, claims: JWTPayload = {}, header: Record<string, unknown> = {}, key: SigningKey = testKey): Promise<string> {
  const now = Math.floor(sdkNow() / 1000);
  return new SignJWT({ client_id: appId, scope: 'read:weather', jti: randomUUID(), iss: f.issuer, aud: mcp.url, iat: now, exp: now + 300, sub, ...claims })
    .setProtectedHeader({ alg: 'RS256', typ: 'at+jwt', kid: 'test-key-1', ...header })
    .sign(key);
}

const rpc = (method: string, params: Record<string, unknown> = {}, id = 1) => ({ jsonrpc: '2.0', id, method, params });
const forecast = (id = 1) => rpc('tools/call', { name: 'forecast', arguments: { city: 'Oslo' } }, id);
const setStation = (id = 1) => rpc('tools/call', { name: 'set-station', arguments: { station: 'Bergen' } }, id);

/** A POST to the MCP endpoint as an MCP client sends it. */
async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(mcp.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, challenge: response.headers.get('www-authenticate'), text, json: (() => { try { return JSON.parse(text); } catch { return undefined; } })() };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const metadataUrl = () => `${new URL(mcp.url).origin}/.well-known/oauth-protected-resource/mcp`;

async function assertInvalidToken(answer: Awaited<ReturnType<typeof post>>, what: string) {
  assert.equal(answer.status, 401, `${what}: ${answer.text}`);
  assert.match(answer.challenge ?? '', /^Bearer /, what);
  assert.match(answer.challenge ?? '', /error="invalid_token"/, what);
  assert.ok(answer.challenge!.includes(`resource_metadata="${metadataUrl()}"`), `${what}: ${answer.challenge}`);
  assert.equal(answer.json.error, 'invalid_token', what);
}

function assertAdmitted(answer: Awaited<ReturnType<typeof post>>, what: string) {
  assert.equal(answer.status, 200, `${what}: ${answer.status} ${answer.text}`);
}

/** Runs `check` with the SDK's clock held at `ms`. */
async function heldAt<T>(ms: number, check: () => Promise<T>): Promise<T> {
  held = ms;
  try {
    return await check();
  } finally {
    held = null;
  }
}

// ---- RFC 9728: protected resource metadata

test('metadata: at the path-suffixed and the bare well-known path, naming the issuer, the server\'s permissions and header bearer', async () => {
  const origin = new URL(mcp.url).origin;
  for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
    const response = await fetch(origin + path);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.deepEqual(await response.json(), { resource: mcp.url, authorization_servers: [f.issuer], scopes_supported: ['read:weather', 'write:weather'], bearer_methods_supported: ['header'] }, path);
  }
  const preflight = await fetch(origin + '/.well-known/oauth-protected-resource/mcp', { method: 'OPTIONS' });
  assert.equal(preflight.status, 204);
  const posted = await fetch(origin + '/.well-known/oauth-protected-resource/mcp', { method: 'POST' });
  assert.equal(posted.status, 405);
  // A resource at a host's root has one well-known path; a server not registered advertises openid (DESIGN 8).
  const bare = protectResource(mcp.meter, { resource: 'https://unregistered.example' });
  assert.deepEqual(bare.metadataPaths, ['/.well-known/oauth-protected-resource']);
  assert.equal(bare.registered, false);
  assert.deepEqual((await bare.metadata())!.scopes_supported, ['openid']);
  assert.throws(() => protectResource(mcp.meter, { resource: 'not a url' }), TypeError);
});

// ---- RFC 6750 3 with RFC 9728 5.1: the challenge

test('no credential: 401 with a challenge naming the scopes the tools need (MCP 2026-07-28) and the metadata, no error code', async () => {
  const answer = await post(rpc('initialize'));
  assert.equal(answer.status, 401);
  assert.equal(answer.challenge, `Bearer scope="read:weather write:weather", resource_metadata="${metadataUrl()}"`);
});

// ---- Spec 4.3: verification, each rule on both sides

test('a token Gatehouse minted for this server is accepted and the call metered to the person\'s customer', async () => {
  const { personId, customerId } = await member();
  const token = await realToken(personId);
  await mcp.meter.flush();
  const before = (await customerDetail(mcp.api, customerId)).month_requests;
  const answer = await post(forecast(), bearer(token));
  assertAdmitted(answer, 'real token');
  assert.match(answer.text, new RegExp(customerId));
  await mcp.meter.flush();
  assert.equal((await customerDetail(mcp.api, customerId)).month_requests, before + 1);
});

test('exp: accepted up to the 30 s skew past it, refused from there', async () => {
  const { personId } = await member();
  const instant = (Math.floor(Date.now() / 1000) + 5) * 1000 + 500;
  const nowS = Math.floor(instant / 1000);
  await heldAt(instant, async () => {
    assertAdmitted(await post(forecast(), bearer(await madeToken(personId, { exp: nowS + 60 }))), 'in the future');
    assertAdmitted(await post(forecast(), bearer(await madeToken(personId, { exp: nowS - 29 }))), '29 s past: within the skew');
    await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { exp: nowS - 30 }))), '30 s past');
    await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { exp: nowS - 31 }))), '31 s past');
    await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { exp: undefined }))), 'no exp');
  });
});

test('iss: exactly the issuer', async () => {
  const { personId } = await member();
  assertAdmitted(await post(forecast(), bearer(await madeToken(personId, { iss: f.issuer }))), 'the issuer');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { iss: f.issuer + '/' }))), 'a trailing slash');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { iss: f.issuer.replace('http://', 'https://') }))), 'https');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { iss: undefined }))), 'no iss');
});

test('aud: must hold this server\'s URL exactly', async () => {
  const { personId } = await member();
  assertAdmitted(await post(forecast(), bearer(await madeToken(personId, { aud: [mcp.url, f.issuer] }))), 'a list holding it');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { aud: mcp.url + '/' }))), 'a trailing slash');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { aud: [f.server.resource, f.issuer] }))), 'another server of the API');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, { aud: f.issuer }))), 'the issuer alone');
  // A real token Gatehouse minted for the API's other server.
  const other = await realToken(personId, { resource: f.server.resource, scope: 'openid' });
  await assertInvalidToken(await post(forecast(), bearer(other)), 'a real token for another server');
});

test('header: RS256, typ at+jwt, a kid, and a signature by the published key', async () => {
  const { personId } = await member();
  assertAdmitted(await post(forecast(), bearer(await madeToken(personId, {}, { typ: 'application/at+jwt' }))), 'typ application/at+jwt (RFC 7515 4.1.9)');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, {}, { typ: 'JWT' }))), 'typ JWT: an ID token, say');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, {}, { typ: undefined }))), 'no typ');
  const good = await madeToken(personId);
  const [, payload, signature] = good.split('.');
  const none = Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: 'test-key-1' })).toString('base64url');
  await assertInvalidToken(await post(forecast(), bearer(`${none}.${payload}.`)), 'alg none');
  const ps256 = Buffer.from(JSON.stringify({ alg: 'PS256', typ: 'at+jwt', kid: 'test-key-1' })).toString('base64url');
  await assertInvalidToken(await post(forecast(), bearer(`${ps256}.${payload}.${signature}`)), 'alg PS256');
  const { privateKey: stranger } = await generateKeyPair('RS256');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, {}, {}, stranger))), 'signed by a key the issuer does not publish, under a published kid');
  await assertInvalidToken(await post(forecast(), bearer(good.slice(0, -4) + 'AAAA')), 'a signature altered');
  await assertInvalidToken(await post(forecast(), bearer('not.a.jwt')), 'not a JWT');
});

test('JWKS: cached; an unseen kid fetches it again, at most once per 10 s', async () => {
  const { personId } = await member();
  assertAdmitted(await post(forecast(), bearer(await realToken(personId))), 'warm');
  const fetched = jwksFetches;
  assertAdmitted(await post(forecast(), bearer(await realToken(personId))), 'cached key');
  assert.equal(jwksFetches, fetched, 'a known kid needs no fetch');

  // The owner rotates the signing key: tokens name a kid the server has not seen, and it fetches the set once.
  const rotated = await f.owner.client.post(`/apis/${f.apiId}/signin/signing-keys/rotate`, {});
  assert.equal(rotated.status, 200, rotated.text);
  f.t.clock.advance(11_000); // past the cooldown of the fetch above
  assertAdmitted(await post(forecast(), bearer(await realToken(personId))), 'a token of the new key');
  assert.equal(jwksFetches, fetched + 1, 'one fetch for the unseen kid');
  assertAdmitted(await post(forecast(), bearer(await madeToken(personId))), 'the old key still verifies');

  // A made-up kid within the cooldown: refused without asking the issuer.
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, {}, { kid: 'made-up' }))), 'an unknown kid');
  assert.equal(jwksFetches, fetched + 1, 'no fetch within 10 s of the last');
  // A key the issuer starts publishing: found once the cooldown is over.
  const later = await addTestKey('test-key-2');
  await assertInvalidToken(await post(forecast(), bearer(await madeToken(personId, {}, { kid: 'test-key-2' }, later))), 'within the cooldown');
  f.t.clock.advance(11_000);
  assertAdmitted(await post(forecast(), bearer(await madeToken(personId, {}, { kid: 'test-key-2' }, later))), 'after the cooldown');
  assert.equal(jwksFetches, fetched + 2);
});

// ---- Permissions (spec 4.4: 403 insufficient_scope naming the permission)

test('a tool needing a permission the token lacks: 403 insufficient_scope naming it; with it, the call goes through', async () => {
  const { personId } = await member();
  const reader = await realToken(personId);
  const refused = await post(setStation(), bearer(reader));
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.json.error, 'insufficient_scope');
  assert.match(refused.challenge ?? '', /^Bearer error="insufficient_scope"/);
  assert.match(refused.challenge ?? '', /scope="write:weather"/);
  assert.ok(refused.challenge!.includes(`resource_metadata="${metadataUrl()}"`));
  // In a batch, one call needing it is enough to refuse the whole request.
  assert.equal((await post([forecast(1), setStation(2)], bearer(reader))).status, 403);
  // What needs nothing, or only what the token holds, goes through.
  assertAdmitted(await post(forecast(), bearer(reader)), 'forecast needs read:weather, held');
  assertAdmitted(await post(rpc('tools/call', { name: 'whoami', arguments: {} }), bearer(reader)), 'whoami needs nothing');
  assertAdmitted(await post(rpc('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } }), bearer(reader)), 'initialize');
  assertAdmitted(await post(setStation(), bearer(await madeToken(personId, { scope: 'read:weather write:weather' }))), 'a token with both');
  const none = await post(forecast(), bearer(await madeToken(personId, { scope: '' })));
  assert.equal(none.status, 403);
  assert.match(none.challenge ?? '', /scope="read:weather"/);
});

test('MCP 2026-07-28: a 403 names every permission missing in one challenge (a batch of tools, a tool needing two); a bad token\'s 401 names what the tools need', async () => {
  const { personId } = await member();
  const nothing = await madeToken(personId, { scope: '' });
  for (const [what, body] of [['a batch of forecast and set-station', [forecast(1), setStation(2)]], ['set-station alone, needing both', setStation()]] as const) {
    const refused = await post(body, bearer(nothing));
    assert.equal(refused.status, 403, `${what}: ${refused.text}`);
    const challenges = (refused.challenge ?? '').match(/Bearer /g) ?? [];
    assert.equal(challenges.length, 1, `${what}: one challenge`);
    assert.match(refused.challenge ?? '', /^Bearer error="insufficient_scope"/, what);
    assert.match(refused.challenge ?? '', /, scope="read:weather write:weather"/, what);
  }
  // Holding one, the challenge names the other only.
  const reader = await madeToken(personId, { scope: 'read:weather' });
  assert.match((await post([forecast(1), setStation(2)], bearer(reader))).challenge ?? '', /scope="write:weather"/);
  const expired = await post(forecast(), bearer(await madeToken(personId, { exp: Math.floor(sdkNow() / 1000) - 3600 })));
  await assertInvalidToken(expired, 'expired');
  assert.match(expired.challenge ?? '', /scope="read:weather write:weather"/);
});

// ---- Metering by person (403 no_customer)

test('a person who belongs to no customer gets a clear 403; once they join, after the refusal is forgotten, they are admitted', async () => {
  const loner = await createPerson(f.t, f.apiId);
  await giveRoles(f, loner.id, [mcp.readerRoleId]);
  const token = await realToken(loner.id);
  const refused = await post(forecast(), bearer(token));
  assert.equal(refused.status, 403, refused.text);
  assert.equal(refused.json.error, 'no_customer');
  assert.match(refused.json.message, /belongs to no customer/);
  assert.equal(refused.challenge, null, 'not a token problem: no challenge');

  await f.t.services.customerMembers.joinOnVisit(f.apiId, loner);
  assert.equal((await post(forecast(), bearer(token))).status, 403, 'remembered for a while, without fetching the snapshot again');
  f.t.clock.advance(31_000);
  assertAdmitted(await post(forecast(), bearer(await realToken(loner.id))), 'after 30 s the snapshot is fetched again');
});

test('a person who signed up after the last snapshot is admitted at once: the snapshot is fetched again for them', async () => {
  await mcp.meter.sync();
  const { personId } = await member();
  assertAdmitted(await post(forecast(), bearer(await madeToken(personId))), 'a new member');
});

test('a suspended customer\'s people get 403 suspended', async () => {
  const { personId, customerId } = await member();
  const suspended = await f.owner.client.patch(`/apis/${f.apiId}/customers/${customerId}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  await mcp.meter.sync();
  const answer = await post(forecast(), bearer(await madeToken(personId)));
  assert.equal(answer.status, 403);
  assert.equal(answer.json.error, 'suspended');
});

// ---- Keys keep working; Authorization is judged alone (spec 4.4)

test('a customer key in the key header works as before, and as a Bearer value', async () => {
  const customer = await createCustomer(f.t, mcp.api, 'Key Co');
  const { key } = await createKey(mcp.api, customer.id);
  await mcp.meter.flush();
  const before = (await customerDetail(mcp.api, customer.id)).month_requests;
  const viaHeader = await post(forecast(), { 'x-api-key': key });
  assertAdmitted(viaHeader, 'x-api-key');
  assert.match(viaHeader.text, new RegExp(customer.id));
  assertAdmitted(await post(setStation(), { 'x-api-key': key }), 'keys carry no permissions and need none');
  assertAdmitted(await post(forecast(), bearer(key)), 'Bearer key');
  await mcp.meter.flush();
  assert.equal((await customerDetail(mcp.api, customer.id)).month_requests, before + 3);
  // An unknown key's 401 also names where to sign in.
  const unknown = await post(forecast(), { 'x-api-key': key.slice(0, -8) + 'AAAAAAAA' });
  assert.equal(unknown.status, 401);
  assert.ok(unknown.challenge!.includes(`resource_metadata="${metadataUrl()}"`), unknown.challenge ?? '');
});

test('a request with an Authorization header is judged by that header alone', async () => {
  const customer = await createCustomer(f.t, mcp.api, 'Both Co');
  const { key } = await createKey(mcp.api, customer.id);
  await assertInvalidToken(await post(forecast(), { 'x-api-key': key, ...bearer('bad.token.here') }), 'a bad token beside a good key');
  await assertInvalidToken(await post(forecast(), { 'x-api-key': key, authorization: 'Basic dXNlcjpwYXNz' }), 'another scheme beside a good key');
  assertAdmitted(await post(forecast(), { 'x-api-key': 'nonsense', ...bearer(key) }), 'a good Bearer key beside a bad key header');
  const { personId } = await member();
  assertAdmitted(await post(forecast(), { 'x-api-key': 'nonsense', ...bearer(await madeToken(personId)) }), 'a good token beside a bad key header');
});

// ---- The core, as other frameworks use it

test('protectResource alone: admits as the meter does; a JWKS that cannot be fetched is 503, never 401', async () => {
  const { personId, customerId } = await member();
  const token = await madeToken(personId);
  const working = protectResource(mcp.meter, { resource: mcp.url, fetch: jwksFetch as typeof fetch });
  const admitted = await working.admit({ authorization: `Bearer ${token}`, scopes: ['read:weather'] });
  assert.ok(admitted.ok, admitted.ok ? '' : `${admitted.status} ${admitted.reason}`);
  assert.equal(admitted.customer.id, customerId);
  assert.equal(admitted.token?.personId, personId);
  admitted.finish(200);
  const scoped = await working.admit({ authorization: `Bearer ${token}`, scopes: async () => ['write:weather'] });
  assert.equal(scoped.ok ? 200 : scoped.status, 403);

  const unreachable = protectResource(mcp.meter, { resource: mcp.url, fetch: (async () => { throw new Error('connection refused'); }) as typeof fetch });
  for (let i = 0; i < 2; i++) {
    const answer = await unreachable.admit({ authorization: `Bearer ${token}` });
    assert.equal(answer.ok ? 200 : answer.status, 503, `attempt ${i + 1}`);
    assert.equal(answer.ok ? '' : answer.headers['retry-after'], '5');
  }
  assert.equal(unreachable.jwksFetches, 1, 'the second, within the cooldown, did not fetch again');
});
