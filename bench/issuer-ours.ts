// Our issuer for issuer.bench.ts, in a process of its own so the load generator does not share its
// event loop: the app built by `npm run build` (packages/server/dist), on PostgreSQL in a fresh
// schema (PGlite when no PostgreSQL answers), with an API, a web app, a server with a permission,
// a person and a session made through the services. It answers the parent (IPC) with codes minted
// by TokenService.issueCode, with its CPU time and that of its PostgreSQL backends, and stops.
import { randomBytes } from 'node:crypto';
import { buildApp } from '../packages/server/dist/app.js';
import { freePort, openBenchDatabase, statements } from './issuer-server-setup.js';
import { loadConfig } from '../packages/server/dist/config.js';
import { insertPerson } from '../packages/server/dist/issuer/people/queries.js';
import { loadSettings } from '../packages/server/dist/issuer/registry/settings.js';
import type { Tenant } from '../packages/server/dist/issuer/tenant.js';
import type { AuthorizationRequest } from '../packages/server/dist/issuer/tokens/authorization-request.js';
import { OTHER_INTROSPECTION, SERVER_INTROSPECTION } from '../packages/server/dist/issuer/protocol/introspect-routes.js';
import { systemClock } from '../packages/server/dist/platform/clock.js';
import { CODE_CHALLENGE, eachLimited, NONCE, ownCpuMicros, PERMISSION, processCpuMicros, REDIRECT_URI, RESOURCE, SCOPES, type ChildMessage, type ParentMessage } from './issuer-support.js';

const applicationName = `gh_bench_issuer_${randomBytes(4).toString('hex')}`;

const { database, postgres, url } = await openBenchDatabase(applicationName);

const port = await freePort();
const config = loadConfig({
  PORT: String(port),
  BASE_URL: `http://localhost:${port}`,
  PORTAL_DOMAIN: 'localhost',
  SECRET_KEY: randomBytes(32).toString('base64'),
  DATA_DIR: '.bench-data',
  LOG_LEVEL: 'silent',
});
const { app, services } = await buildApp({ config, database, clock: systemClock, redis: null, logger: false });

// Spec 8 limits introspection to 100/s per server credential with bursts of 1,000 (and web apps to
// 50/s per network): far below what a benchmark sends. The limiter still runs on every request (in
// memory, as without Redis), with its rules lifted. This patches this process's instance only,
// after buildApp; no server code changes and nothing of it is reachable in production.
const buckets = services.tokenBuckets;
const take = buckets.take.bind(buckets);
const lifted = new Set([SERVER_INTROSPECTION.name, OTHER_INTROSPECTION.name]);
buckets.take = (rule, key) => take(lifted.has(rule.name) ? { ...rule, ratePerS: 1e9, burst: 1e9 } : rule, key);

await app.listen({ port, host: '127.0.0.1' });

// Setup through the services, as the console would: owner, workspace, API, web app, server, person, session.
const owner = await services.db.transaction().execute(async (trx) => {
  const user = await services.accounts.createUser(trx, { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' });
  return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
});
const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const }, ip: '127.0.0.1', userAgent: 'bench' };
const created = await services.apis.create(caller, owner.id, { name: 'Bench Issuer', preset: 'payg', slug: 'bench-issuer' });
if (!created.ok) throw new Error(`api: ${created.code}`);
const apiId = created.value.api.id;
const webApp = await services.registry.apps.create(caller, apiId, { name: 'Bench web app', kind: 'web', redirect_uris: [REDIRECT_URI], refresh_tokens: true });
if (!webApp.ok || !webApp.value.client_secret) throw new Error('web app');
const server = await services.registry.servers.create(caller, apiId, { name: 'Bench API', resource_url: RESOURCE, permissions: [{ name: PERMISSION, description: 'Read things' }] });
if (!server.ok) throw new Error('server');
const now = new Date();
const person = await insertPerson(services.db, {
  id: `per_${randomBytes(10).toString('hex')}`,
  api_id: apiId,
  email: 'pat@people.test',
  email_verified: true,
  name: 'Pat Person',
  picture: null,
  password_hash: null,
  last_login_at: null,
  created_at: now,
  updated_at: now,
});
const session = await services.personSessions.start(apiId, person.id, ['pwd'], 14 * 24 * 3600);

const api = (await services.apis.findBySlug('bench-issuer'))!;
// The tenant the tenant hook would resolve for `bench-issuer.localhost:<port>`.
const tenant: Tenant = {
  api,
  issuer: services.apis.portalUrl(api.slug),
  host: 'portal',
  portalIssuer: services.apis.portalUrl(api.slug),
  settings: await loadSettings(services.db, services.clock, api.id),
  branding: { name: api.name, logoUrl: api.logo_url, accentColor: api.accent_color },
};
const request: AuthorizationRequest = {
  clientId: webApp.value.id,
  redirectUri: REDIRECT_URI,
  responseMode: 'query',
  state: null,
  nonce: NONCE,
  codeChallenge: CODE_CHALLENGE,
  scopes: SCOPES,
  resource: RESOURCE,
  prompt: [],
  maxAge: null,
  loginHint: null,
};
const signedIn = { sessionId: session.id, personId: person.id, authTime: now, amr: ['pwd'] };

/** Our PostgreSQL backends: those of this process's pool, found by application_name. */
async function databaseMicros(): Promise<number | null> {
  if (!postgres) return null;
  const { rows } = await postgres.admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [applicationName]);
  let sum = 0;
  for (const micros of processCpuMicros(rows.map((row) => row.pid)).values()) sum += micros;
  return sum;
}

const send = (message: ChildMessage) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
process.on('disconnect', () => process.exit());
process.on('message', async (message: ParentMessage) => {
  if (message.type === 'codes') {
    // Codes live 60 s (spec 8): the parent asks for each round's just before it.
    const codes = await eachLimited(Array.from({ length: message.count }), 8, () => services.tokens.issueCode(tenant, request, signedIn, SCOPES));
    await send({ type: 'codes', codes });
  } else if (message.type === 'cpu') {
    const counted = statements.count;
    await send({ type: 'cpu', serverMicros: ownCpuMicros(), databaseMicros: await databaseMicros(), queries: postgres ? counted : null });
  } else if (message.type === 'stop') {
    if (statements.byText) for (const [text, count] of [...statements.byText].sort((a, b) => b[1] - a[1])) console.error(`${String(count).padStart(8)}  ${text.slice(0, 200)}`);
    await app.close();
    await database.close();
    if (postgres) {
      await postgres.admin.query(`drop schema ${postgres.schema} cascade`);
      await postgres.admin.end();
    }
    await send({ type: 'stopped' });
    process.disconnect();
  }
});

await send({
  type: 'ready',
  port,
  host: `${api.slug}.localhost:${port}`,
  issuer: tenant.issuer,
  tokenPath: '/oauth/token',
  introspectionPath: '/oauth/introspect',
  app: { clientId: webApp.value.id, secret: webApp.value.client_secret },
  server: { clientId: server.value.client_id, secret: server.value.client_secret },
  introspectedResource: RESOURCE,
  storage: postgres ? `PostgreSQL (${url.host}, schema ${postgres.schema})` : 'PGlite (embedded, in memory)',
});
