// Our issuer for issuer.bench.ts, in a process of its own so the load generator does not share its
// event loop: the app built by `npm run build` (packages/server/dist), on PostgreSQL in a fresh
// schema (PGlite when no PostgreSQL answers), with an API, a web app, a server with a permission,
// a person and a session made through the services. It answers the parent (IPC) with codes minted
// by TokenService.issueCode, with its CPU time and that of its PostgreSQL backends, and stops.
import { randomBytes } from 'node:crypto';
import { startBenchIssuer, statements } from './issuer-server-setup.js';
import { insertPerson } from '../packages/server/dist/issuer/people/queries.js';
import { loadSettings } from '../packages/server/dist/issuer/registry/settings.js';
import type { Tenant } from '../packages/server/dist/issuer/tenant.js';
import type { AuthorizationRequest } from '../packages/server/dist/issuer/tokens/authorization-request.js';
import { CODE_CHALLENGE, eachLimited, NONCE, ownCpuMicros, PERMISSION, processCpuMicros, REDIRECT_URI, RESOURCE, SCOPES, type ChildMessage, type ParentMessage } from './issuer-support.js';

const applicationName = `gh_bench_issuer_${randomBytes(4).toString('hex')}`;

const { app, services, database, postgres, url, port, caller, apiId } = await startBenchIssuer(applicationName, { name: 'Bench Issuer', slug: 'bench-issuer' });
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
