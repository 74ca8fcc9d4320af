// Helpers of the issuer protocol tests (test/issuer/*.test.ts): the tenant host, an API with a
// web app, a single-page app and a server, people with sessions, and PKCE.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns';
import { Agent, fetch as undiciFetch } from 'undici';
import type { TestApp } from './harness.js';
import { createPerson, startPersonSession, startWithSignin } from './signin.js';

/**
 * Browsers resolve `*.localhost` to loopback and Node does not (DESIGN 10), so tenant hosts are
 * resolved here the way a browser would, rather than bending the server.
 */
export const localhostAgent = new Agent({
  connect: {
    lookup(hostname: string, options: { all?: boolean }, callback: (...args: any[]) => void) {
      if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
        return options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);
      }
      return lookup(hostname, options as never, callback as never);
    },
  } as never,
});

/** fetch that reaches tenant hosts; never follows redirects (tests read Location themselves). */
export function tenantFetch(url: string | URL, init: RequestInit = {}): Promise<Response> {
  return undiciFetch(url, { redirect: 'manual', ...init, dispatcher: localhostAgent } as never) as unknown as Promise<Response>;
}

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface IssuerFixture {
  t: TestApp;
  apiId: string;
  slug: string;
  issuer: string;
  owner: Awaited<ReturnType<typeof startWithSignin>>['owner'];
  web: { clientId: string; secret: string; redirectUri: string; logoutUri: string };
  spa: { clientId: string; redirectUri: string };
  server: { id: string; clientId: string; secret: string; resource: string };
  roleId: string;
}

/**
 * An API with sign-in set up through the console: a web app with refresh tokens (the owner's
 * own), a single-page app, a server exposing read:weather and write:weather, and a role that
 * holds read:weather only.
 */
export async function startIssuer(apiName = 'Weather API', env: Record<string, string> = {}): Promise<IssuerFixture> {
  const fixture = await startWithSignin(apiName, env);
  const { t, owner, api } = fixture;
  const console = owner.client;
  const base = `/apis/${api.apiId}/signin`;
  const web = await console.post(`${base}/apps`, {
    name: 'Weather Web', kind: 'web', redirect_uris: ['https://web.example/callback'], post_logout_redirect_uris: ['https://web.example/bye'], refresh_tokens: true, own_app: true,
  });
  assert.equal(web.status, 200, web.text);
  const spa = await console.post(`${base}/apps`, { name: 'Weather SPA', kind: 'spa', redirect_uris: ['http://localhost:5173/cb'] });
  assert.equal(spa.status, 200, spa.text);
  const server = await console.post(`${base}/servers`, {
    name: 'Weather API server', resource_url: 'https://api.weather.example/', permissions: [{ name: 'read:weather', description: 'Read forecasts' }, { name: 'write:weather', description: 'Change stations', sensitive: true }],
  });
  assert.equal(server.status, 200, server.text);
  const role = await console.post(`${base}/roles`, { name: 'reader', permissions: [{ server_id: server.body.id, permission: 'read:weather' }] });
  assert.equal(role.status, 200, role.text);
  const issuer = `http://${api.slug}.localhost:${t.port}`;
  return {
    t, owner, apiId: api.apiId, slug: api.slug, issuer,
    web: { clientId: web.body.id, secret: web.body.client_secret, redirectUri: 'https://web.example/callback', logoutUri: 'https://web.example/bye' },
    spa: { clientId: spa.body.id, redirectUri: 'http://localhost:5173/cb' },
    server: { id: server.body.id, clientId: server.body.client_id, secret: server.body.client_secret, resource: 'https://api.weather.example/' },
    roleId: role.body.id,
  };
}

/** A person with the reader role and a live session; `cookie` is what their browser sends. */
export async function signedInPerson(f: IssuerFixture, options: { email?: string; roles?: string[] } = {}) {
  const person = await createPerson(f.t, f.apiId, { email: options.email });
  const roles = options.roles ?? [f.roleId];
  if (roles.length) {
    const put = await f.owner.client.put(`/apis/${f.apiId}/signin/people/${person.id}/roles`, { role_ids: roles });
    assert.equal(put.status, 200, put.text);
  }
  const session = await startPersonSession(f.t, f.apiId, person.id);
  return { person, session, cookie: `gh_ps=${session.token}` };
}

export const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** POSTs a form to a tenant endpoint and reads the JSON answer. */
export async function postForm(f: IssuerFixture, path: string, fields: Record<string, string | string[]>, headers: Record<string, string> = {}) {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
  const response = await tenantFetch(f.issuer + path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: body.toString() });
  const text = await response.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body: json, text };
}

/**
 * Runs /oauth/authorize for a signed-in browser whose consent is given on the page when asked,
 * and answers the redirect's query (code, state, iss or error).
 */
export async function authorize(f: IssuerFixture, cookie: string, params: Record<string, string>): Promise<URLSearchParams> {
  const url = new URL(f.issuer + '/oauth/authorize');
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  const response = await tenantFetch(url, { headers: { cookie } });
  assert.equal(response.status, 303, `authorize answered ${response.status}: ${await response.text()}`);
  const location = new URL(response.headers.get('location')!, f.issuer);
  return location.searchParams;
}

/** The standard authorization parameters of the web app, with a fresh PKCE pair. */
export function webRequest(f: IssuerFixture, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  return {
    pkce,
    params: {
      response_type: 'code', client_id: f.web.clientId, redirect_uri: f.web.redirectUri, scope: 'openid profile email', state: 's-' + randomBytes(4).toString('hex'),
      nonce: 'n-' + randomBytes(4).toString('hex'), code_challenge: pkce.challenge, code_challenge_method: 'S256', ...extra,
    } as Record<string, string>,
  };
}

/** Gives consent for a person to an app directly, as the consent page would have remembered it. */
export async function rememberConsent(f: IssuerFixture, personId: string, clientId: string, resource: string | null, scopes: string[]) {
  await f.t.services.db
    .insertInto('consents')
    .values({ api_id: f.apiId, person_id: personId, client_id: clientId, resource: resource ?? '', scopes, updated_at: f.t.clock.now() })
    .onConflict((oc) => oc.columns(['person_id', 'client_id', 'resource']).doUpdateSet({ scopes }))
    .execute();
}
