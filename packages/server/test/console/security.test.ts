// The security suite run over every console operation the OpenAPI document declares: no
// credentials, another workspace, too small a role, an undeclared property, a cross-site change and
// a foreign Host (DESIGN 5, 6 and 9; style.md "a shared security suite run over every console route").
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { TestClient, type Answer } from '../support/client.js';
import { signUp, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { jsonBodySchema, operationsOf, sampleOf, type OpenApiDocument, type Operation } from '../support/openapi.js';
import { createPerson } from '../support/signin.js';
import { addMember, createKey, sendInvite, type InvitableRole, type Member } from '../support/workspaces.js';

type Role = 'owner' | InvitableRole;
type Access = 'public' | 'signed-in' | 'session-only' | 'sdk' | Role;

interface RouteRule {
  /**
   * The least a caller needs: nothing (`public`), any person or workspace key (`signed-in`), a
   * person and never a key (`session-only`), or a role in the workspace the route names. `sdk`
   * routes take an API's SDK secret instead; test/money/sdk-auth.test.ts covers them.
   */
  access: Access;
  /** Path parameter values for this route, when the defaults in `pathValues` do not fit. */
  params?: (f: Fixture) => Record<string, string>;
  /** A valid body, for schemas a sample cannot be made from (a pattern, say). */
  body?: unknown;
  /** What a read answers at its minimum role when not 200: the fixture lacks what it serves. */
  read?: { status: number; detail: string };
}

/**
 * Every console operation and the least it needs. A new route needs one line here, or this suite
 * fails naming it. Path parameters are filled by name from `pathValues`; give a new name a value
 * there (an `api` of the fixture's workspace, say) or give the route its own `params`.
 */
const routes: Record<string, RouteRule> = {
  // Sign-up, sign-in, password reset and invitations: nobody is signed in yet.
  'POST /api/auth/signup': { access: 'public' },
  'POST /api/auth/signup/verify': { access: 'public', body: { email: 'sample@example.com', code: '123456' } },
  'POST /api/auth/signup/complete': { access: 'public' },
  'POST /api/auth/login': { access: 'public' },
  'POST /api/auth/login/2fa': { access: 'public' },
  'POST /api/auth/logout': { access: 'public' },
  'POST /api/auth/password/forgot': { access: 'public' },
  'POST /api/auth/password/verify': { access: 'public', body: { email: 'sample@example.com', code: '123456' } },
  'POST /api/auth/password/reset': { access: 'public' },
  'GET /api/invites/{token}': { access: 'public' },
  'POST /api/invites/{token}/accept': { access: 'public' },

  // The person themself: a session, never a workspace key.
  'GET /api/me': { access: 'session-only' },
  'PATCH /api/me': { access: 'session-only' },
  'POST /api/me/password': { access: 'session-only' },
  'POST /api/me/2fa/setup': { access: 'session-only' },
  'POST /api/me/2fa/enable': { access: 'session-only' },
  'POST /api/me/2fa/disable': { access: 'session-only' },
  'POST /api/me/2fa/recovery-codes': { access: 'session-only' },
  'POST /api/workspaces': { access: 'session-only' },

  // One workspace (DESIGN 6: admins manage members, invites and keys; owners delete).
  'GET /api/workspaces/{ws}': { access: 'viewer' },
  'PATCH /api/workspaces/{ws}': { access: 'admin' },
  'DELETE /api/workspaces/{ws}': { access: 'owner' },
  'GET /api/workspaces/{ws}/members': { access: 'viewer' },
  'POST /api/workspaces/{ws}/invites': { access: 'admin' },
  'DELETE /api/workspaces/{ws}/invites/{id}': { access: 'admin', params: (f) => ({ id: f.inviteId }) },
  'PUT /api/workspaces/{ws}/members/{user_id}/role': { access: 'admin' },
  // Removing someone else; leaving (user_id is yourself) is open to every member.
  'DELETE /api/workspaces/{ws}/members/{user_id}': { access: 'admin' },
  'GET /api/workspaces/{ws}/keys': { access: 'viewer' },
  'POST /api/workspaces/{ws}/keys': { access: 'admin' },
  'DELETE /api/workspaces/{ws}/keys/{id}': { access: 'admin', params: (f) => ({ id: f.spareKeyId }) },
  'GET /api/workspaces/{ws}/audit': { access: 'viewer' },

  // APIs and everything in them (DESIGN 6: editors change APIs, customers, credit and plans;
  // admins see secrets, suspend and delete).
  'GET /api/slugs/{slug}': { access: 'signed-in', params: () => ({ slug: 'some-free-slug' }) },
  'GET /api/platform/plans': { access: 'signed-in' },
  'GET /api/workspaces/{ws}/apis': { access: 'viewer' },
  'POST /api/workspaces/{ws}/apis': { access: 'editor' },
  'GET /api/apis/{api}': { access: 'viewer' },
  'PATCH /api/apis/{api}': { access: 'editor' },
  'DELETE /api/apis/{api}': { access: 'owner' },
  'GET /api/apis/{api}/secret': { access: 'admin' },
  'POST /api/apis/{api}/secret/rotate': { access: 'admin', body: { grace_hours: 24 } },
  'PUT /api/apis/{api}/logo': { access: 'editor', body: { logo_url: 'https://example.com/logo.png' } },
  // The fixture's API has no logo (test/money/console-apis-logo.test.ts serves one).
  'GET /api/apis/{api}/logo': { access: 'viewer', read: { status: 404, detail: 'This API has no logo' } },
  'POST /api/apis/{api}/suspend': { access: 'admin' },
  'POST /api/apis/{api}/resume': { access: 'admin' },
  'GET /api/apis/{api}/connection': { access: 'viewer' },
  'GET /api/apis/{api}/stats': { access: 'viewer' },
  'POST /api/apis/{api}/test-key': { access: 'editor' },
  'GET /api/apis/{api}/customers': { access: 'viewer' },
  'POST /api/apis/{api}/customers': { access: 'editor' },
  'POST /api/apis/{api}/customers/invite': { access: 'editor' },
  'GET /api/apis/{api}/customers/invites': { access: 'viewer' },
  // No such invitation: access is decided before the invitation is looked for.
  'POST /api/apis/{api}/customers/invites/{invite}/resend': { access: 'editor', params: () => ({ invite: 'cin_none' }) },
  'DELETE /api/apis/{api}/customers/invites/{invite}': { access: 'editor', params: () => ({ invite: 'cin_none' }) },
  'GET /api/apis/{api}/customers/{id}': { access: 'viewer', params: (f) => ({ id: f.customerId }) },
  'PATCH /api/apis/{api}/customers/{id}': { access: 'editor', params: (f) => ({ id: f.customerId }) },
  'DELETE /api/apis/{api}/customers/{id}': { access: 'editor', params: (f) => ({ id: f.customerId }) },
  'PUT /api/apis/{api}/customers/{id}/limits': { access: 'editor', params: (f) => ({ id: f.customerId }) },
  // The fixture's customer has no subscription: the allowed roles reach the provider check (409).
  'POST /api/apis/{api}/customers/{id}/subscription/switch': { access: 'editor', params: (f) => ({ id: f.customerId }), body: { plan_id: 'pln_none' } },
  'POST /api/apis/{api}/customers/{id}/subscription/cancel': { access: 'editor', params: (f) => ({ id: f.customerId }) },
  'POST /api/apis/{api}/customers/{id}/subscription/resume': { access: 'editor', params: (f) => ({ id: f.customerId }) },
  'GET /api/apis/{api}/customers/{id}/payments': { access: 'viewer', params: (f) => ({ id: f.customerId }) },
  'POST /api/apis/{api}/customers/{id}/keys': { access: 'editor', params: (f) => ({ id: f.customerId }) },
  'DELETE /api/apis/{api}/customers/{id}/keys/{key_id}': { access: 'editor', params: (f) => ({ id: f.customerId, key_id: f.customerKeyId }) },
  'POST /api/apis/{api}/customers/{id}/credit': { access: 'editor', params: (f) => ({ id: f.customerId }), body: { amount_micro: 1, note: 'n' } },
  'GET /api/apis/{api}/ledger': { access: 'viewer' },
  'GET /api/apis/{api}/plans': { access: 'viewer' },
  'POST /api/apis/{api}/plans': { access: 'editor' },
  'PATCH /api/apis/{api}/plans/{id}': { access: 'editor', params: (f) => ({ id: f.planId }) },
  'DELETE /api/apis/{api}/plans/{id}': { access: 'editor', params: (f) => ({ id: f.planId }) },
  // Payments (DESIGN 6: admins manage the payments connection, owners buy platform plans).
  'GET /api/apis/{api}/payments': { access: 'viewer' },
  'DELETE /api/apis/{api}/payments': { access: 'admin' },
  'POST /api/apis/{api}/payments/connect': { access: 'admin' },
  'POST /api/apis/{api}/plan/checkout': { access: 'owner', body: { plan_code: 'starter' } },
  'POST /api/apis/{api}/plan/cancel': { access: 'owner' },
  'POST /api/apis/{api}/plan/resume': { access: 'owner' },
  // Custom domains (DESIGN 6: admins manage domains). The fixture's API is on the free plan, so
  // a caller with the role gets 402 or 409, past the checks this suite is about.
  'GET /api/apis/{api}/domain': { access: 'viewer' },
  'PUT /api/apis/{api}/domain': { access: 'admin', body: { domain: 'login.guarded.example' } },
  'POST /api/apis/{api}/domain/check': { access: 'admin' },
  'DELETE /api/apis/{api}/domain': { access: 'admin' },

  // The sign-in service of an API (DESIGN 8: editors change sign-in settings, apps, servers,
  // roles and people; admins rotate secrets and signing keys).
  'GET /api/apis/{api}/signin': { access: 'viewer' },
  'PATCH /api/apis/{api}/signin': { access: 'editor' },
  'GET /api/apis/{api}/signin/key-settings': { access: 'viewer' },
  'PATCH /api/apis/{api}/signin/key-settings': { access: 'editor' },
  'GET /api/apis/{api}/signin/signing-keys': { access: 'viewer' },
  'POST /api/apis/{api}/signin/signing-keys/rotate': { access: 'admin' },
  'GET /api/apis/{api}/signin/apps': { access: 'viewer' },
  'POST /api/apis/{api}/signin/apps': { access: 'editor', body: { name: 'Guarded app', kind: 'web', redirect_uris: ['https://app.example.com/cb'] } },
  'GET /api/apis/{api}/signin/apps/{id}': { access: 'viewer', params: (f) => ({ id: f.appId }) },
  'PATCH /api/apis/{api}/signin/apps/{id}': { access: 'editor', params: (f) => ({ id: f.appId }) },
  'DELETE /api/apis/{api}/signin/apps/{id}': { access: 'editor', params: (f) => ({ id: f.appId }) },
  'POST /api/apis/{api}/signin/apps/{id}/secret/rotate': { access: 'admin', params: (f) => ({ id: f.appId }) },
  'GET /api/apis/{api}/signin/servers': { access: 'viewer' },
  'POST /api/apis/{api}/signin/servers': { access: 'editor', body: { name: 'Guarded server', resource_url: 'https://other.example.com/' } },
  'GET /api/apis/{api}/signin/servers/{id}': { access: 'viewer', params: (f) => ({ id: f.serverId }) },
  'PATCH /api/apis/{api}/signin/servers/{id}': { access: 'editor', params: (f) => ({ id: f.serverId }) },
  'DELETE /api/apis/{api}/signin/servers/{id}': { access: 'editor', params: (f) => ({ id: f.serverId }) },
  'POST /api/apis/{api}/signin/servers/{id}/secret/rotate': { access: 'admin', params: (f) => ({ id: f.serverId }) },
  'GET /api/apis/{api}/signin/roles': { access: 'viewer' },
  'POST /api/apis/{api}/signin/roles': { access: 'editor' },
  'PATCH /api/apis/{api}/signin/roles/{id}': { access: 'editor', params: (f) => ({ id: f.roleId }) },
  'DELETE /api/apis/{api}/signin/roles/{id}': { access: 'editor', params: (f) => ({ id: f.roleId }) },
  'GET /api/apis/{api}/signin/people': { access: 'viewer' },
  'GET /api/apis/{api}/signin/people/{id}': { access: 'viewer', params: (f) => ({ id: f.personId }) },
  'PATCH /api/apis/{api}/signin/people/{id}': { access: 'editor', params: (f) => ({ id: f.personId }), body: { status: 'suspended' } },
  'PUT /api/apis/{api}/signin/people/{id}/roles': { access: 'editor', params: (f) => ({ id: f.personId }) },
  'GET /api/apis/{api}/signin/people/{id}/sessions': { access: 'viewer', params: (f) => ({ id: f.personId }) },
  'DELETE /api/apis/{api}/signin/people/{id}/sessions/{session}': { access: 'editor', params: (f) => ({ id: f.personId, session: 'sid_none' }) },
  // Apps people connect: no such app; access is decided before the app is looked for.
  'GET /api/apis/{api}/signin/connected-apps': { access: 'viewer' },
  'POST /api/apis/{api}/signin/connected-apps/block': { access: 'editor', body: { client_id: 'app_none' } },
  'POST /api/apis/{api}/signin/connected-apps/unblock': { access: 'editor', body: { client_id: 'app_none' } },
  'POST /api/apis/{api}/signin/connected-apps/delete': { access: 'editor', body: { client_id: 'app_none' } },

  // Events to owners (issue 24: viewers read, editors and up change).
  'GET /api/apis/{api}/webhooks': { access: 'viewer' },
  'POST /api/apis/{api}/webhooks': { access: 'editor', body: { url: 'https://hooks.example.com/guarded-new' } },
  'GET /api/apis/{api}/webhooks/{endpoint}': { access: 'viewer' },
  'PATCH /api/apis/{api}/webhooks/{endpoint}': { access: 'editor', body: { description: 'changed' } },
  'DELETE /api/apis/{api}/webhooks/{endpoint}': { access: 'editor' },
  'POST /api/apis/{api}/webhooks/{endpoint}/test': { access: 'editor' },
  'POST /api/apis/{api}/webhooks/{endpoint}/rotate-secret': { access: 'editor' },
  'GET /api/apis/{api}/webhooks/{endpoint}/deliveries': { access: 'viewer' },
  'POST /api/apis/{api}/webhooks/{endpoint}/deliveries/{delivery}/retry': { access: 'editor', params: (f) => ({ delivery: f.deliveryId }) },
  'POST /api/apis/{api}/webhooks/{endpoint}/replay': { access: 'editor', body: { since: '2026-01-01T00:00:00Z' } },
  'GET /api/apis/{api}/events': { access: 'viewer' },

  // The SDK sync API: an API's SDK secret, not a console credential.
  'GET /sdk/v1/snapshot': { access: 'sdk' },
  'GET /sdk/v1/changes': { access: 'sdk' },
  'GET /sdk/v1/keys/verify': { access: 'sdk' },
  'POST /sdk/v1/usage': { access: 'sdk' },
};

/** What the suite calls with: one workspace with a member and a key of each role, and an outsider. */
interface Fixture {
  ws: string;
  members: Record<Role, TestClient>;
  keys: Record<InvitableRole, TestClient>;
  /** Owner of another workspace, and an admin key of it. */
  outsider: TestClient;
  outsiderKey: TestClient;
  /** A viewer the member routes act on, so no caller acts on themselves. */
  target: Member;
  inviteId: string;
  inviteToken: string;
  spareKeyId: string;
  apiId: string;
  customerId: string;
  customerKeyId: string;
  planId: string;
  appId: string;
  serverId: string;
  roleId: string;
  personId: string;
  endpointId: string;
  deliveryId: string;
}

const pathValues: Record<string, (f: Fixture) => string> = {
  ws: (f) => f.ws,
  user_id: (f) => f.target.userId,
  token: (f) => f.inviteToken,
  api: (f) => f.apiId,
  endpoint: (f) => f.endpointId,
};

const LADDER: readonly Role[] = ['viewer', 'editor', 'admin', 'owner'];

let t: TestApp;
let f: Fixture;
let doc: OpenApiDocument;
/** The documented operations the table knows. */
let operations: Operation[];

/** A client for the whole origin (the document's paths include /api), with the same credentials. */
function atOrigin(client: TestClient): TestClient {
  const copy = new TestClient(t.url);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  copy.bearer = client.bearer;
  return copy;
}

before(async () => {
  t = await startTestApp();
  const owner = await signUp(t, { name: 'Sam Owner' });
  const ws = owner.workspaceId;
  const [admin, editor, viewer, target] = [
    await addMember(t, owner.client, ws, 'admin'),
    await addMember(t, owner.client, ws, 'editor'),
    await addMember(t, owner.client, ws, 'viewer'),
    await addMember(t, owner.client, ws, 'viewer', 'target'),
  ];
  const invite = await sendInvite(t, owner.client, ws, uniqueEmail('pending'), 'viewer');
  const keys = {
    admin: (await createKey(t, owner.client, ws, 'admin')).client,
    editor: (await createKey(t, owner.client, ws, 'editor')).client,
    viewer: (await createKey(t, owner.client, ws, 'viewer')).client,
  };
  const spare = await createKey(t, owner.client, ws, 'viewer', 'spare');
  const outsider = await signUp(t, { name: 'Olga Outsider' });
  const outsiderKey = await createKey(t, outsider.client, outsider.workspaceId, 'admin');
  const api = (await owner.client.post(`/workspaces/${ws}/apis`, { name: 'Guarded API' })).body.api;
  const customer = (await owner.client.post(`/apis/${api.id}/customers`, { name: 'Guarded customer', email: 'guarded@example.com' })).body;
  const customerKey = (await owner.client.post(`/apis/${api.id}/customers/${customer.id}/keys`, { name: 'spare' })).body;
  const plan = (await owner.client.post(`/apis/${api.id}/plans`, { name: 'Guarded plan', price_monthly_cents: 900 })).body;
  const signinApp = (await owner.client.post(`/apis/${api.id}/signin/apps`, { name: 'Guarded app', kind: 'web', redirect_uris: ['https://app.example.com/cb'] })).body;
  const server = (await owner.client.post(`/apis/${api.id}/signin/servers`, { name: 'Guarded server', resource_url: 'https://guarded.example.com/', permissions: [{ name: 'read' }] })).body;
  const role = (await owner.client.post(`/apis/${api.id}/signin/roles`, { name: 'Guarded role', permissions: [{ server_id: server.id, permission: 'read' }] })).body;
  const person = await createPerson(t, api.id, { email: 'guarded-person@example.com' });
  const endpoint = (await owner.client.post(`/apis/${api.id}/webhooks`, { url: 'https://hooks.example.com/guarded' })).body;
  const delivery = (await owner.client.post(`/apis/${api.id}/webhooks/${endpoint.id}/test`)).body;
  assert.equal((await owner.client.put(`/apis/${api.id}/signin/people/${person.id}/roles`, { role_ids: [role.id] })).status, 200);
  f = {
    ws,
    members: { owner: atOrigin(owner.client), admin: atOrigin(admin.client), editor: atOrigin(editor.client), viewer: atOrigin(viewer.client) },
    keys: { admin: atOrigin(keys.admin), editor: atOrigin(keys.editor), viewer: atOrigin(keys.viewer) },
    outsider: atOrigin(outsider.client),
    outsiderKey: atOrigin(outsiderKey.client),
    target,
    inviteId: invite.id,
    inviteToken: invite.token,
    spareKeyId: spare.id,
    apiId: api.id,
    customerId: customer.id,
    customerKeyId: customerKey.id,
    planId: plan.id,
    appId: signinApp.id,
    serverId: server.id,
    roleId: role.id,
    personId: person.id,
    endpointId: endpoint.id,
    deliveryId: delivery.id,
  };
  const fetched = await t.client().get('/openapi.json');
  assert.equal(fetched.status, 200);
  doc = fetched.body;
  // Operations missing from the table fail the first test, by name, and only there.
  operations = operationsOf(doc).filter((op) => op.key in routes && routes[op.key]!.access !== 'sdk');
});
after(() => t.close());

function ruleOf(op: Operation): RouteRule {
  const rule = routes[op.key];
  if (!rule) throw new Error(`${op.key} has no entry in the routes table`);
  return rule;
}

/** The operation's path with its parameters filled in, and any required query parameter without a default. */
function urlOf(op: Operation): string {
  const rule = ruleOf(op);
  const own = rule.params?.(f) ?? {};
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = own[name] ?? pathValues[name]?.(f);
    if (value === undefined) throw new Error(`${op.key}: no value for {${name}}; add it to pathValues or to the route's params`);
    return encodeURIComponent(value);
  });
  const query = (op.operation.parameters ?? [])
    .filter((p) => p.in === 'query' && p.required && p.schema?.default === undefined)
    .map((p) => `${encodeURIComponent(p.name)}=${encodeURIComponent(String(sampleOf(p.schema ?? {}, doc, `query.${p.name}`)))}`);
  return query.length ? `${path}?${query.join('&')}` : path;
}

/** A body the operation's schema accepts, or undefined when it takes none. */
function validBody(op: Operation): unknown {
  const rule = ruleOf(op);
  if (rule.body !== undefined) return rule.body;
  const schema = jsonBodySchema(op.operation);
  return schema ? sampleOf(schema, doc, `${op.key} body`) : undefined;
}

function call(client: TestClient, op: Operation, options: { body?: unknown; headers?: Record<string, string>; noCsrfHeader?: boolean } = {}): Promise<Answer> {
  const body = 'body' in options ? options.body : validBody(op);
  return client.request(op.method, urlOf(op), body, { ...(options.headers ? { headers: options.headers } : {}), ...(options.noCsrfHeader ? { noCsrfHeader: true } : {}) });
}

function describe(answer: Answer): string {
  return `${answer.status} ${answer.text.slice(0, 300)}`;
}

const isWorkspaceRoute = (access: Access): access is Role => LADDER.includes(access as Role);

/** Members and keys whose role is below the route's minimum; for person-only routes, every key. */
function callersBelow(access: Access): [string, TestClient][] {
  if (access === 'public' || access === 'signed-in' || access === 'sdk') return [];
  if (access === 'session-only') return Object.entries(f.keys).map(([role, client]) => [`${role} key`, client]);
  const rank = LADDER.indexOf(access);
  const members = LADDER.filter((role) => LADDER.indexOf(role) < rank).map((role): [string, TestClient] => [`${role} member`, f.members[role]]);
  const keys = (Object.keys(f.keys) as InvitableRole[]).filter((role) => LADDER.indexOf(role) < rank).map((role): [string, TestClient] => [`${role} key`, f.keys[role]]);
  return [...members, ...keys];
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

test('the routes table lists exactly the operations of the OpenAPI document', () => {
  const documented = operationsOf(doc).map((op) => op.key);
  const unknown = documented.filter((key) => !(key in routes));
  const stale = Object.keys(routes).filter((key) => !documented.includes(key));
  assert.deepEqual(
    { unknown, stale },
    { unknown: [], stale: [] },
    `every documented operation needs its minimal access in \`routes\`, and every entry an operation.\n` +
      `Without an entry:\n  ${unknown.join('\n  ') || '(none)'}\nNot documented:\n  ${stale.join('\n  ') || '(none)'}`,
  );
});

test('without credentials every operation that is not public answers 401', async (ctx) => {
  const anonymous = new TestClient(t.url);
  for (const op of operations) {
    if (ruleOf(op).access === 'public') continue;
    await ctx.test(op.key, async () => {
      const answer = await call(anonymous, op);
      assert.equal(answer.status, 401, describe(answer));
      assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
      assert.equal(answer.body.status, 401);
    });
  }
});

test('a member or a key of another workspace gets 404 from every workspace operation', async (ctx) => {
  for (const op of operations) {
    if (!isWorkspaceRoute(ruleOf(op).access)) continue;
    await ctx.test(op.key, async () => {
      for (const [who, client] of [['outsider', f.outsider], ['outsider key', f.outsiderKey]] as const) {
        const answer = await call(client, op);
        assert.equal(answer.status, 404, `${who}: ${describe(answer)}`);
      }
    });
  }
});

test('every role below the minimum gets 403, and a workspace key gets 403 from person-only operations', async (ctx) => {
  for (const op of operations) {
    const below = callersBelow(ruleOf(op).access);
    if (below.length === 0) continue;
    await ctx.test(op.key, async () => {
      for (const [who, client] of below) {
        const answer = await call(client, op);
        assert.equal(answer.status, 403, `${who}: ${describe(answer)}`);
      }
    });
  }
});

test('at the minimum, every read answers 200', async (ctx) => {
  for (const op of operations) {
    if (op.method !== 'GET') continue;
    const access = ruleOf(op).access;
    if (access === 'sdk') continue;
    await ctx.test(op.key, async () => {
      const callers: [string, TestClient][] =
        access === 'public' ? [['anonymous', new TestClient(t.url)]]
        : access === 'session-only' ? [['viewer member', f.members.viewer]]
        : access === 'signed-in' ? [['viewer member', f.members.viewer], ['viewer key', f.keys.viewer]]
        : [[`${access} member`, f.members[access]], ...(access === 'owner' ? [] : [[`${access} key`, f.keys[access]] as [string, TestClient]])];
      const read = ruleOf(op).read;
      for (const [who, client] of callers) {
        const answer = await call(client, op);
        assert.equal(answer.status, read?.status ?? 200, `${who}: ${describe(answer)}`);
        if (read) assert.equal(answer.body.detail, read.detail, who);
      }
    });
  }
});

test('every operation with a JSON body refuses an undeclared property with 422 naming it', async (ctx) => {
  for (const op of operations) {
    if (!jsonBodySchema(op.operation)) continue;
    await ctx.test(op.key, async () => {
      const access = ruleOf(op).access;
      const client = access === 'public' ? new TestClient(t.url) : f.members.owner;
      const body = { ...(validBody(op) as Record<string, unknown>), undeclared_extra: 'surprise' };
      const answer = await call(client, op, { body });
      assert.equal(answer.status, 422, describe(answer));
      const locations = (answer.body.errors ?? []).map((e: { location?: string }) => e.location);
      assert.ok(locations.includes('body.undeclared_extra'), `errors name ${locations.join(', ')}`);
    });
  }
});

test('a change carrying the session cookie needs X-Requested-With or the console origin (403)', async (ctx) => {
  for (const op of operations) {
    if (!UNSAFE.has(op.method)) continue;
    await ctx.test(op.key, async () => {
      const bare = await call(f.members.owner, op, { noCsrfHeader: true });
      assert.equal(bare.status, 403, `no header: ${describe(bare)}`);
      assert.equal(bare.body.type, 'urn:gatehouse:problem:csrf');
      const foreign = await call(f.members.owner, op, { headers: { origin: 'https://evil.example' } });
      assert.equal(foreign.status, 403, `foreign origin: ${describe(foreign)}`);
      assert.equal(foreign.body.type, 'urn:gatehouse:problem:csrf');
    });
  }
});

/** A request with a Host header of our choosing (fetch always sends the URL's own). */
function requestWithHost(method: string, path: string, body: unknown, host: string, cookie: string): Promise<number> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: '127.0.0.1',
        port: t.port,
        method,
        path,
        headers: {
          host,
          cookie,
          'x-requested-with': 'test',
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
        },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

test('console operations answer 404 on any host but the console, tenant hosts included', async (ctx) => {
  const cookie = [...f.members.owner.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  const hosts = ['evil.example', `localhost:${t.port}`, `x.localhost:${t.port}`, `127.0.0.1.evil.example:${t.port}`];
  for (const op of operations) {
    await ctx.test(op.key, async () => {
      for (const host of hosts) assert.equal(await requestWithHost(op.method, urlOf(op), validBody(op), host, cookie), 404, host);
    });
  }
  await ctx.test('GET /api/openapi.json and /api/docs', async () => {
    for (const host of hosts) {
      assert.equal(await requestWithHost('GET', '/api/openapi.json', undefined, host, cookie), 404, host);
      assert.equal(await requestWithHost('GET', '/api/docs', undefined, host, cookie), 404, host);
    }
  });
  await ctx.test('the console host itself still answers', async () => {
    assert.equal(await requestWithHost('GET', '/api/me', undefined, `127.0.0.1:${t.port}`, cookie), 200);
  });
});

test('none of the refused calls changed anything', async () => {
  const owner = f.members.owner;
  const workspace = await owner.get(`/api/workspaces/${f.ws}`);
  assert.equal(workspace.status, 200);
  assert.equal(workspace.body.name, 'Sam Owner');
  const members = (await owner.get(`/api/workspaces/${f.ws}/members`)).body;
  assert.deepEqual(members.members.map((m: { role: string }) => m.role).sort(), ['admin', 'editor', 'owner', 'viewer', 'viewer']);
  assert.deepEqual(members.invites.map((i: { id: string }) => i.id), [f.inviteId]);
  assert.equal((await owner.get(`/api/workspaces/${f.ws}/keys`)).body.keys.length, 4);
  const events = (await owner.get(`/api/workspaces/${f.ws}/audit?limit=200`)).body.events;
  // The set-up, and the reads that are audited because they show a secret.
  const setUp = ['workspace.create', 'member.invite', 'invite.accept', 'workspace_key.create', 'api.create', 'customer.create', 'customer_key.create', 'plan.create', 'api.secret_reveal',
    'signin_app.create', 'signin_server.create', 'signin_role.create', 'signin_person.roles', 'webhook.create'];
  assert.deepEqual(events.filter((e: { action: string }) => !setUp.includes(e.action)), [], 'only the set-up is in the log');
  for (const [role, client] of Object.entries(f.members)) assert.equal((await client.get('/api/me')).status, 200, role);
  for (const [role, client] of Object.entries(f.keys)) assert.equal((await client.get(`/api/workspaces/${f.ws}`)).status, 200, role);
  const api = (await owner.get(`/api/apis/${f.apiId}`)).body;
  assert.equal(api.status, 'active');
  assert.equal(api.name, 'Guarded API');
  const customer = (await owner.get(`/api/apis/${f.apiId}/customers/${f.customerId}`)).body;
  assert.equal(customer.balance_micro, 1_000_000, 'only the welcome credit');
  assert.deepEqual(customer.keys.map((k: { id: string }) => k.id), [f.customerKeyId]);
  assert.equal(customer.status, 'active');
  const plans = (await owner.get(`/api/apis/${f.apiId}/plans`)).body.plans;
  assert.deepEqual(plans.map((p: { id: string; active: boolean }) => [p.id, p.active]), [[f.planId, true]]);
  const signin = `/api/apis/${f.apiId}/signin`;
  const settings = (await owner.get(signin)).body;
  assert.deepEqual([settings.signups, settings.connected_apps, settings.access_token_ttl_s], ['open', 'off', 3600], 'default sign-in settings');
  assert.deepEqual((await owner.get(`${signin}/signing-keys`)).body.keys, [], 'no signing key was made');
  const signinApp = (await owner.get(`${signin}/apps/${f.appId}`)).body;
  assert.deepEqual([signinApp.name, signinApp.previous_secret_valid_until], ['Guarded app', undefined]);
  assert.deepEqual((await owner.get(`${signin}/apps`)).body.apps.map((a: { id: string }) => a.id), [f.appId]);
  const server = (await owner.get(`${signin}/servers/${f.serverId}`)).body;
  assert.deepEqual([server.name, server.permissions.map((p: { name: string }) => p.name), server.previous_secret_valid_until], ['Guarded server', ['read'], undefined]);
  assert.deepEqual((await owner.get(`${signin}/servers`)).body.servers.map((s: { id: string }) => s.id), [f.serverId]);
  const roles = (await owner.get(`${signin}/roles`)).body.roles;
  assert.deepEqual(roles.map((r: { id: string; name: string; people: number }) => [r.id, r.name, r.people]), [[f.roleId, 'Guarded role', 1]]);
  const person = (await owner.get(`${signin}/people/${f.personId}`)).body;
  assert.deepEqual([person.status, person.roles.map((r: { id: string }) => r.id)], ['active', [f.roleId]]);
  const webhooks = (await owner.get(`/api/apis/${f.apiId}/webhooks`)).body.webhooks;
  assert.deepEqual(webhooks.map((w: { id: string; description: string; enabled: boolean; previous_secret_expires_at?: string }) => [w.id, w.description, w.enabled, w.previous_secret_expires_at]), [[f.endpointId, '', true, undefined]]);
  const deliveries = (await owner.get(`/api/apis/${f.apiId}/webhooks/${f.endpointId}/deliveries`)).body.deliveries;
  assert.deepEqual(deliveries.map((d: { id: string }) => d.id), [f.deliveryId], 'no delivery was made by a refused call');
});
