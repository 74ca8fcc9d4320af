// The issuer for key-introspection.bench.ts, in a process of its own so the load generator does
// not share its event loop: the app built by `npm run build` (packages/server/dist), on PostgreSQL
// in a fresh schema (PGlite when none answers), with an API whose end-user keys are on, a web app,
// a server exposing one permission, a person holding it, an end-user key of that person for the
// server, and a code for an access token for the same server. It answers the parent (IPC) with its
// CPU time and statements sent, and stops.
import { randomBytes } from 'node:crypto';
import { startBenchIssuer, statements } from './issuer-server-setup.js';
import { insertPerson } from '../packages/server/dist/issuer/people/queries.js';
import { loadSettings } from '../packages/server/dist/issuer/registry/settings.js';
import type { Tenant } from '../packages/server/dist/issuer/tenant.js';
import { CODE_CHALLENGE, NONCE, ownCpuMicros, PERMISSION, processCpuMicros, REDIRECT_URI, RESOURCE, type Credentials } from './issuer-support.js';

export interface KeyBenchReady {
  type: 'ready';
  port: number;
  host: string;
  app: Credentials;
  server: Credentials;
  /** An end-user key of the person for RESOURCE with PERMISSION. */
  key: string;
  /** A code of the web app for an access token for RESOURCE with PERMISSION. */
  code: string;
  storage: string;
}
export type KeyBenchParent = { type: 'cpu' } | { type: 'stop' };
export type KeyBenchChild = KeyBenchReady | { type: 'cpu'; serverMicros: number; databaseMicros: number | null; queries: number | null } | { type: 'stopped' };

const applicationName = `gh_bench_keys_${randomBytes(4).toString('hex')}`;

const { app, services, database, postgres, port, caller, apiId } = await startBenchIssuer(applicationName, { name: 'Bench Keys', slug: 'bench-keys' });
const webApp = await services.registry.apps.create(caller, apiId, { name: 'Bench web app', kind: 'web', redirect_uris: [REDIRECT_URI] });
if (!webApp.ok || !webApp.value.client_secret) throw new Error('web app');
const server = await services.registry.servers.create(caller, apiId, { name: 'Bench API', resource_url: RESOURCE, permissions: [{ name: PERMISSION, description: 'Read things' }] });
if (!server.ok) throw new Error('server');
const role = await services.registry.roles.create(caller, apiId, { name: 'reader', permissions: [{ server_id: server.value.id, permission: PERMISSION }] });
if (!role.ok) throw new Error('role');
if (!(await services.registry.keySettings.update(caller, apiId, { enabled: true })).ok) throw new Error('key settings');
const now = new Date();
const person = await insertPerson(services.db, {
  id: `per_${randomBytes(10).toString('hex')}`, api_id: apiId, email: 'pat@people.test', email_verified: true, name: 'Pat Person', picture: null, password_hash: null, last_login_at: null, created_at: now, updated_at: now,
});
if (!(await services.people.setRoles(caller, apiId, person.id, [role.value.id])).ok) throw new Error('roles');
const session = await services.personSessions.start(apiId, person.id, ['pwd'], 14 * 24 * 3600);

const api = (await services.apis.findBySlug('bench-keys'))!;
const tenant: Tenant = {
  api,
  issuer: services.apis.portalUrl(api.slug),
  host: 'portal',
  portalIssuer: services.apis.portalUrl(api.slug),
  settings: await loadSettings(services.db, services.clock, api.id),
  branding: { name: api.name, logoUrl: api.logo_url, accentColor: api.accent_color },
};
const key = await services.endUserKeys.create(tenant, { caller: { personId: person.id, clientId: webApp.value.id, authTime: now }, ip: '127.0.0.1' }, { name: 'bench', resources: [RESOURCE], permissions: [PERMISSION] });
if (!key.ok) throw new Error(`key: ${key.refusal.message}`);
const code = await services.tokens.issueCode(
  tenant,
  { clientId: webApp.value.id, redirectUri: REDIRECT_URI, responseMode: 'query', state: null, nonce: NONCE, codeChallenge: CODE_CHALLENGE, scopes: [PERMISSION], resource: RESOURCE, prompt: [], maxAge: null, loginHint: null },
  { sessionId: session.id, personId: person.id, authTime: now, amr: ['pwd'] },
  [PERMISSION],
);

/** CPU time of our pool's PostgreSQL backends (Linux /proc), in microseconds. */
async function databaseMicros(): Promise<number | null> {
  if (!postgres) return null;
  const { rows } = await postgres.admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [applicationName]);
  let sum = 0;
  for (const micros of processCpuMicros(rows.map((row) => row.pid)).values()) sum += micros;
  return sum;
}

const send = (message: KeyBenchChild) => new Promise<void>((resolve) => process.send!(message, () => resolve()));
process.on('disconnect', () => process.exit());
process.on('message', async (message: KeyBenchParent) => {
  if (message.type === 'cpu') {
    const counted = statements.count;
    await send({ type: 'cpu', serverMicros: ownCpuMicros(), databaseMicros: await databaseMicros(), queries: postgres ? counted : null });
  } else if (message.type === 'stop') {
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
  app: { clientId: webApp.value.id, secret: webApp.value.client_secret },
  server: { clientId: server.value.client_id, secret: server.value.client_secret },
  key: key.value.secret,
  code,
  storage: postgres ? `PostgreSQL (schema ${postgres.schema})` : 'PGlite (embedded, in memory)',
});
