// What the benchmark servers on our issuer (issuer-ours.ts, key-introspection-server.ts) share:
// counting the statements the app sends, a migrated database of their own, and the app listening
// with an owner, a workspace and an API made through the services.
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import pg from 'pg';
import { buildApp } from '../packages/server/dist/app.js';
import { loadConfig } from '../packages/server/dist/config.js';
import { OTHER_INTROSPECTION, SERVER_INTROSPECTION } from '../packages/server/dist/issuer/protocol/introspect-routes.js';
import { TOKEN_REQUESTS } from '../packages/server/dist/issuer/protocol/limits.js';
import { systemClock } from '../packages/server/dist/platform/clock.js';
import { openDatabase, type DatabaseHandle } from '../packages/server/dist/platform/db/database.js';
import { migrate } from '../packages/server/dist/platform/db/migrate.js';
import { benchDatabaseUrl } from './support.js';

/**
 * Every statement the app sends (BEGIN and COMMIT included) is one round trip to PostgreSQL.
 * BENCH_ISSUER_QUERY_LOG=1 also counts them by text, for printing when the process stops.
 */
export const statements = { count: 0, byText: process.env.BENCH_ISSUER_QUERY_LOG ? new Map<string, number>() : null };
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  statements.count++;
  if (statements.byText) {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string })?.text);
    statements.byText.set(text, (statements.byText.get(text) ?? 0) + 1);
  }
  return (query as (...args: unknown[]) => unknown).apply(this, args);
} as typeof query;

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A fresh schema on the bench PostgreSQL; null when none answers (then PGlite). */
async function freshSchema(): Promise<{ admin: pg.Client; schema: string } | null> {
  const admin = new pg.Client({ connectionString: benchDatabaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch {
    return null;
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  await admin.query(`create schema ${schema}`);
  return { admin, schema };
}

/**
 * A migrated database: a fresh schema of the bench PostgreSQL, or in-memory PGlite when none
 * answers. The pool's backends carry `applicationName`, so their CPU time can be read.
 */
export async function openBenchDatabase(applicationName: string): Promise<{ database: DatabaseHandle; postgres: { admin: pg.Client; schema: string } | null; url: URL }> {
  const postgres = await freshSchema();
  const url = new URL(benchDatabaseUrl);
  url.searchParams.set('application_name', applicationName);
  const database = postgres ? await openDatabase({ url: url.toString(), schema: postgres.schema, poolSize: 10 }) : await openDatabase({ url: null });
  await migrate(database.db);
  return { database, postgres, url };
}

/**
 * Our app on a database of its own (PostgreSQL, else PGlite), listening on a free port, with an
 * owner, a workspace and an API (`name`, `slug`) made through the services as the console would.
 */
export async function startBenchIssuer(applicationName: string, api: { name: string; slug: string }) {
  const { database, postgres, url } = await openBenchDatabase(applicationName);
  const port = await freePort();
  const config = loadConfig({ PORT: String(port), BASE_URL: `http://localhost:${port}`, PORTAL_DOMAIN: 'localhost', SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: '.bench-data', LOG_LEVEL: 'silent' });
  const { app, services } = await buildApp({ config, database, clock: systemClock, redis: null, logger: false });

  // Spec 8 limits introspection to 100/s per server credential with bursts of 1,000 (and web apps
  // to 50/s per network), and the token endpoint takes 100/s per network (issue 26): far below
  // what a benchmark sends from one address. The limiter still runs on every request
  // (in memory, as without Redis), with its rules lifted. This patches this process's instance
  // only, after buildApp; no server code changes and nothing of it is reachable in production.
  const buckets = services.tokenBuckets;
  const take = buckets.take.bind(buckets);
  const lifted = new Set([SERVER_INTROSPECTION.name, OTHER_INTROSPECTION.name, TOKEN_REQUESTS.name]);
  buckets.take = (rule, key) => take(lifted.has(rule.name) ? { ...rule, ratePerS: 1e9, burst: 1e9 } : rule, key);

  await app.listen({ port, host: '127.0.0.1' });
  const owner = await services.db.transaction().execute(async (trx) => {
    const user = await services.accounts.createUser(trx, { email: 'bench@example.com', name: 'Bench', password: 'bench password 1' });
    return services.workspaces.createWorkspace(trx, { type: 'system', id: 'bench', name: 'bench', ip: '127.0.0.1' }, user.id, 'Bench');
  });
  const caller = { kind: 'key' as const, key: { id: 'wsk_bench', workspaceId: owner.id, name: 'bench', role: 'admin' as const, createdBy: 'usr_bench' }, ip: '127.0.0.1', userAgent: 'bench' };
  const created = await services.apis.create(caller, owner.id, { name: api.name, preset: 'payg', slug: api.slug });
  if (!created.ok) throw new Error(`api: ${created.code}`);
  return { app, services, database, postgres, url, port, caller, apiId: created.value.api.id };
}
