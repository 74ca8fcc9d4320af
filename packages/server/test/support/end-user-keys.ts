// Helpers of the end-user key tests (test/end-user-keys/*.test.ts): a catalogue whose free plan
// lacks keys, key settings through the console, account API tokens got through the real
// authorization endpoint and token endpoint, and calls of the account API as a web app's server
// would make them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exchangeCode, introspect, webCode } from './issuer-flows.js';
import { basic, signedInPerson, tenantFetch, type IssuerFixture } from './issuer.js';
import { SHIPPED_PLATFORM_PLANS } from './platform-plans.js';
import { startPersonSession } from './signin.js';
import { loadSettings } from '../../src/issuer/registry/settings.js';
import type { Tenant } from '../../src/issuer/tenant.js';

/** The shipped catalogue with end-user keys taken off the free plan (growth keeps them). */
export function catalogueWithoutFreeKeys(): string {
  const catalogue = JSON.parse(readFileSync(SHIPPED_PLATFORM_PLANS, 'utf8')) as { plans: { code: string; end_user_keys?: boolean }[] };
  for (const plan of catalogue.plans) if (plan.code === 'free') plan.end_user_keys = false;
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'platform-plans.json');
  writeFileSync(file, JSON.stringify(catalogue));
  return file;
}

/** Moves an API to a platform plan, as a paid checkout would (payments/platform-billing.ts). */
export async function setPlatformPlan(f: IssuerFixture, code: string) {
  await f.t.services.db.transaction().execute((trx) =>
    f.t.services.apis.setPlatformPlan(trx, f.apiId, { platform_plan: code, plan_status: 'active', plan_grace_until: null, plan_period_end: null }),
  );
}

export async function patchKeySettings(f: IssuerFixture, changes: Record<string, unknown>) {
  const answer = await f.owner.client.patch(`/apis/${f.apiId}/signin/key-settings`, changes);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

/** An access token of the web app for the account API: `openid platform:api_keys`, no resource. */
export async function accountToken(f: IssuerFixture, cookie: string, personId: string, scope = 'openid platform:api_keys') {
  const { code, verifier } = await webCode(f, cookie, personId, { scope });
  const tokens = await exchangeCode(f, code, verifier);
  assert.equal(tokens.status, 200, tokens.text);
  return tokens.body.access_token as string;
}

/** A person with the reader role, a session, and an account API token. */
export async function keyHolder(f: IssuerFixture, options: { roles?: string[]; email?: string } = {}) {
  const holder = await signedInPerson(f, options);
  const token = await accountToken(f, holder.cookie, holder.person.id);
  return { ...holder, token, api: accountApi(f, token) };
}

export interface KeyAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

/** The account API (spec 4.5) with one Bearer token. */
export function accountApi(f: IssuerFixture, token: string | null) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<KeyAnswer> => {
    const sent: Record<string, string> = { ...headers };
    if (token !== null) sent.authorization ??= `Bearer ${token}`;
    if (body !== undefined) sent['content-type'] ??= 'application/json';
    const response = await tenantFetch(`${f.issuer}/api/v1/me/api-keys${path}`, { method, headers: sent, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  };
  return {
    call,
    options: () => call('GET', '/options'),
    list: () => call('GET', ''),
    create: (body: unknown) => call('POST', '', body),
    rename: (id: string, body: unknown) => call('PATCH', `/${id}`, body),
    roll: (id: string, body: unknown = { old_secret_lasts_hours: 0 }) => call('POST', `/${id}/roll`, body),
    revoke: (id: string) => call('DELETE', `/${id}`),
    revokeAll: () => call('DELETE', ''),
  };
}

export type AccountApi = ReturnType<typeof accountApi>;

/** Creates a key at the weather server with read:weather and answers the 201's body. */
export async function createKey(api: AccountApi, f: IssuerFixture, extra: Record<string, unknown> = {}) {
  const answer = await api.create({ name: 'laptop', resources: [f.server.resource], permissions: ['read:weather'], expires_in_days: 30, ...extra });
  assert.equal(answer.status, 201, answer.text);
  return answer.body as { key: { id: string; name: string; start: string } & Record<string, unknown>; secret: string };
}

/** Asserts an account API error: status, `error`, and for 422 the field it names. */
export function assertKeyError(answer: KeyAnswer, status: number, error: string, field?: string) {
  assert.equal(answer.status, status, answer.text);
  assert.equal(answer.body?.error, error, answer.text);
  assert.ok(typeof answer.body?.error_description === 'string' && answer.body.error_description.length > 0, 'error_description');
  if (field !== undefined) assert.equal(answer.body?.field, field, answer.text);
}

/** A new sign-in of the same person (a new session) and an account API token from it. */
export async function freshToken(f: IssuerFixture, personId: string) {
  const session = await startPersonSession(f.t, f.apiId, personId);
  return accountToken(f, `gh_ps=${session.token}`, personId);
}

/** Introspects a key as a server with these credentials (default: the weather server). */
export function introspectKey(f: IssuerFixture, key: string, server: { clientId: string; secret: string } = f.server) {
  return introspect(f, key, { authorization: basic(server.clientId, server.secret), accept: 'application/json' });
}

/** Asserts exactly {"active": false} with the introspection cache header. */
export function assertInactive(answer: { status: number; text: string; headers: Headers }, what = '') {
  assert.equal(answer.status, 200, `${what} ${answer.text}`);
  assert.equal(answer.text, '{"active":false}', what);
  assert.equal(answer.headers.get('cache-control'), 'max-age=30');
}

export async function assertActive(f: IssuerFixture, key: string, what = '', server?: { clientId: string; secret: string }) {
  const answer = await introspectKey(f, key, server);
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.body.active, true, `${what}: ${answer.text}`);
  return answer.body as { scope: string; aud: string | string[]; exp?: number; key_id: string; sub: string };
}

/** The tenant the tenant hook resolves for the fixture's API, read now. */
export async function tenantOf(f: IssuerFixture): Promise<Tenant> {
  const api = (await f.t.services.apis.findById(f.t.services.db, f.apiId))!;
  return { api, issuer: f.issuer, host: 'portal', portalIssuer: f.issuer, settings: await loadSettings(f.t.services.db, f.t.services.clock, f.apiId), branding: { name: api.name, logoUrl: api.logo_url, accentColor: api.accent_color } };
}

/**
 * Makes `count` keys of a person in-process, through the service the account API calls (its
 * limits, lock and audit included), without the HTTP around it: for tests that need many keys
 * before the one request that crosses a bound.
 */
export async function seedKeys(f: IssuerFixture, personId: string, count: number) {
  const tenant = await tenantOf(f);
  const caller = { personId, clientId: f.web.clientId, authTime: f.t.clock.now() };
  for (let i = 0; i < count; i++) {
    const made = await f.t.services.endUserKeys.create(tenant, { caller, ip: '127.0.0.1' }, { name: `seeded ${i + 1}`, resources: [f.server.resource], permissions: [] });
    assert.ok(made.ok, made.ok ? '' : made.refusal.message);
  }
}
