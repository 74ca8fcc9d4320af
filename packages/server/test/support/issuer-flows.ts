// Helpers of the issuer protocol suites (test/issuer/errors, lifetimes, isolation-and-limits,
// discovery): raw authorization requests, code exchange, introspection, a password sign-in on the
// pages, and a clock held still for counting token buckets.
import assert from 'node:assert/strict';
import { hashPassword } from '../../src/platform/crypto.js';
import type { TestApp } from './harness.js';
import { authorize, basic, postForm, rememberConsent, tenantFetch, webRequest, type IssuerFixture } from './issuer.js';
import { decodeEntities } from './tenant-client.js';

/** GETs /oauth/authorize without following the answer; `location` is the redirect when there is one. */
export async function authorizeRaw(f: IssuerFixture, params: Record<string, string | string[]>, cookie = '') {
  const url = new URL(f.issuer + '/oauth/authorize');
  for (const [name, value] of Object.entries(params)) for (const item of Array.isArray(value) ? value : [value]) url.searchParams.append(name, item);
  const response = await tenantFetch(url, { headers: cookie ? { cookie } : {} });
  const location = response.headers.get('location');
  return { status: response.status, headers: response.headers, html: await response.text(), location: location ? new URL(location, f.issuer) : null, cookies: setCookies(response) };
}

/** name=value pairs of a response's Set-Cookie headers. */
export function setCookies(response: Response): string[] {
  return response.headers.getSetCookie().map((line) => line.split(';')[0]!);
}

/** Asserts an error redirected to the app (spec 4.2 rule 1): error, error_description, state and iss. */
export function assertRedirectedError(f: IssuerFixture, answer: Awaited<ReturnType<typeof authorizeRaw>>, error: string, state: string, redirectUri = f.web.redirectUri) {
  assert.equal(answer.status, 303, `expected a redirect with ${error}, got ${answer.status}: ${answer.html.slice(0, 300)}`);
  const location = answer.location!;
  assert.equal(location.origin + location.pathname, redirectUri);
  const query = location.searchParams;
  assert.equal(query.get('error'), error, `error_description: ${query.get('error_description')}`);
  assert.ok((query.get('error_description') ?? '').length > 0, 'error_description present');
  assert.equal(query.get('state'), state);
  assert.equal(query.get('iss'), f.issuer);
  assert.equal(query.get('code'), null);
}

/**
 * Asserts an error of an app not trusted yet (RFC 9700 4.11.2): no redirect, our page with the
 * error, and a link back to the app carrying error, state and iss for the person to follow.
 */
export function assertErrorPageWithReturn(f: IssuerFixture, answer: Awaited<ReturnType<typeof authorizeRaw>>, error: string, state: string, redirectUri: string) {
  assert.equal(answer.status, 400, `expected our error page with ${error}, got ${answer.status} ${answer.location ?? ''}: ${answer.html.slice(0, 300)}`);
  assert.equal(answer.location, null, 'never a redirect');
  const match = /<a id="return-to-app" href="([^"]+)"/.exec(answer.html);
  assert.ok(match, 'the page links back to the app');
  const link = new URL(decodeEntities(match[1]!));
  assert.equal(link.origin + link.pathname, redirectUri);
  assert.equal(link.searchParams.get('error'), error, `error_description: ${link.searchParams.get('error_description')}`);
  assert.equal(link.searchParams.get('state'), state);
  assert.equal(link.searchParams.get('iss'), f.issuer);
  assert.equal(link.searchParams.get('code'), null);
  assert.match(answer.html, /id="app-host"/, 'the page names where the link goes');
}

/** A code for the web app (consent remembered for everything asked), with its PKCE verifier. */
export async function webCode(f: IssuerFixture, cookie: string, personId: string, extra: Record<string, string> = {}) {
  const { pkce, params } = webRequest(f, extra);
  await rememberConsent(f, personId, f.web.clientId, params.resource ?? null, params.scope!.split(' ').concat(['read:weather', 'write:weather']));
  const answer = await authorize(f, cookie, params);
  assert.equal(answer.get('error'), null, `authorize error ${answer.get('error')}: ${answer.get('error_description')}`);
  return { code: answer.get('code')!, verifier: pkce.verifier, params };
}

export const webAuth = (f: IssuerFixture) => ({ authorization: basic(f.web.clientId, f.web.secret) });
export const serverAuth = (f: IssuerFixture) => ({ authorization: basic(f.server.clientId, f.server.secret), accept: 'application/json' });

/** Exchanges a web app's code (Basic authentication unless `headers` say otherwise). */
export function exchangeCode(f: IssuerFixture, code: string, verifier: string, extra: Record<string, string> = {}, headers: Record<string, string> = webAuth(f)) {
  return postForm(f, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier, ...extra }, headers);
}

/** Tokens for the web app: openid, offline access and read:weather at the weather server unless told otherwise. */
export async function webTokens(f: IssuerFixture, cookie: string, personId: string, extra: Record<string, string> = {}) {
  const { code, verifier } = await webCode(f, cookie, personId, { scope: 'openid profile offline_access read:weather', resource: f.server.resource, ...extra });
  const tokens = await exchangeCode(f, code, verifier);
  assert.equal(tokens.status, 200, tokens.text);
  return tokens.body as { access_token: string; refresh_token?: string; id_token?: string; scope: string; expires_in: number };
}

export function refresh(f: IssuerFixture, refreshToken: string, extra: Record<string, string> = {}, headers: Record<string, string> = webAuth(f)) {
  return postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: refreshToken, ...extra }, headers);
}

export function introspect(f: IssuerFixture, token: string, headers: Record<string, string> = serverAuth(f)) {
  return postForm(f, '/oauth/introspect', { token }, headers);
}

/** Changes sign-in settings through the console (DESIGN 8). */
export async function patchSettings(f: IssuerFixture, changes: Record<string, unknown>) {
  const answer = await f.owner.client.patch(`/apis/${f.apiId}/signin`, changes);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

/** Gives a person a password, as sign-up would have. */
export async function setPassword(t: TestApp, personId: string, password: string) {
  await t.services.db.updateTable('people').set({ password_hash: await hashPassword(password) }).where('id', '=', personId).execute();
}

/**
 * Signs in on the password form of an interaction the authorization endpoint opened, as a browser
 * would: loads the page (CSRF cookie and field), posts the form, and follows the 303 back to the
 * endpoint's resume step. Answers the resume step's answer and the cookies the browser then holds.
 */
export async function signInOnPage(f: IssuerFixture, interaction: URL, browserCookies: string[], email: string, password: string) {
  const jar = new Map(browserCookies.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const keep = (response: Response) => {
    for (const pair of setCookies(response)) jar.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
  };
  const page = await tenantFetch(new URL(interaction.pathname + '?form=signin', f.issuer), { headers: { cookie: cookieHeader() } });
  keep(page);
  const html = await page.text();
  assert.equal(page.status, 200, html.slice(0, 300));
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(csrf, 'the sign-in page carries a CSRF field');
  const posted = await tenantFetch(new URL(interaction.pathname + '/password', f.issuer), {
    method: 'POST',
    headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', origin: f.issuer },
    body: new URLSearchParams({ csrf, email, password }).toString(),
  });
  keep(posted);
  assert.equal(posted.status, 303, (await posted.text()).slice(0, 300));
  const resume = new URL(posted.headers.get('location')!, f.issuer);
  assert.match(resume.pathname, /^\/oauth\/authorize\/resume\//);
  const answer = await tenantFetch(resume, { headers: { cookie: cookieHeader() } });
  keep(answer);
  const location = answer.headers.get('location');
  return { status: answer.status, location: location ? new URL(location, f.issuer) : null, cookies: [...jar].map(([name, value]) => `${name}=${value}`) };
}

/**
 * Holds the app's clock still (the harness clock is real time plus an offset), so a token bucket
 * can be counted exactly; `advance` moves the held time. `release` hands back the moving clock.
 */
export function holdClock(t: TestApp) {
  let held = t.clock.now().getTime();
  const clock = t.clock as unknown as { now: () => Date };
  clock.now = () => new Date(held);
  return {
    advance(ms: number) {
      held += ms;
    },
    /** Holds the clock at `ms` (epoch milliseconds). */
    set(ms: number) {
      held = ms;
    },
    release() {
      delete (clock as { now?: unknown }).now;
      t.clock.advance(Math.max(0, held - t.clock.now().getTime()));
    },
  };
}

/** Runs `check` with the app's clock held at `ms` (epoch milliseconds); time moves on from there after. */
export async function atInstant<T>(t: TestApp, ms: number, check: () => Promise<T>): Promise<T> {
  const clock = holdClock(t);
  clock.set(ms);
  try {
    return await check();
  } finally {
    clock.release();
  }
}

/** Sends `count` requests, `parallel` at a time, and answers their statuses in sending order. */
export async function inBatches<T>(count: number, parallel: number, send: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += parallel) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, i) => send(start + i)))));
  }
  return out;
}
