import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import pg from 'pg';
import { buildApp, type Services } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase, type DatabaseHandle, type DatabaseOptions } from '../../src/platform/db/database.js';
import { migrate } from '../../src/platform/db/migrate.js';
import type { FastifyInstance } from 'fastify';
import { TestClient } from './client.js';
import { MovableClock } from './clock.js';
import { TestMailbox } from './mailbox.js';
import { copyTemplate } from './postgres-template.js';
import { SHIPPED_PLATFORM_PLANS } from './platform-plans.js';
import { testCa } from './test-ca.js';

/** Which database this test run uses: `npm test` runs every file on PGlite, then on PostgreSQL. */
export const testDatabaseKind: 'pglite' | 'postgres' = process.env.GH_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

// What every PGlite database of this process starts from, read and compiled once: the run's
// migrated template, PGlite's WebAssembly and its file bundle. The runner puts several test files
// in one process (scripts/run-tests.mjs); each still opens a database of its own from these.
let pgliteStart: Promise<{ dump?: Blob; artifacts: NonNullable<DatabaseOptions['pgliteArtifacts']> }> | undefined;
function pgliteStartingPoint() {
  pgliteStart ??= (async () => {
    const dist = dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const template = process.env.GH_PGLITE_TEMPLATE;
    const [dump, pgliteWasm, initdbWasm, bundle] = await Promise.all([
      template ? readFile(template) : undefined,
      readFile(join(dist, 'pglite.wasm')),
      readFile(join(dist, 'initdb.wasm')),
      readFile(join(dist, 'pglite.data')),
    ]);
    // The server's TypeScript settings have no DOM or WebAssembly types; PGlite's own say what it takes.
    type Artifacts = NonNullable<DatabaseOptions['pgliteArtifacts']>;
    const wasm = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<Artifacts['pgliteWasmModule']> } }).WebAssembly;
    return {
      ...(dump ? { dump: new Blob([dump]) } : {}),
      artifacts: {
        pgliteWasmModule: await wasm.compile(pgliteWasm),
        initdbWasmModule: await wasm.compile(initdbWasm),
        fsBundle: new Blob([bundle]),
      },
    };
  })();
  return pgliteStart;
}

/** A fresh database: in-memory PGlite, or on PostgreSQL a copy of the run's template (else a new schema). */
async function freshDatabase(): Promise<{ database: DatabaseHandle; url: string | null; drop: () => Promise<void>; reopen: () => Promise<DatabaseHandle> }> {
  if (testDatabaseKind === 'pglite') {
    // The runner makes one migrated data directory per run; loading it is ~5x faster than initdb.
    const { dump, artifacts } = await pgliteStartingPoint();
    const database = await openDatabase({ url: null, pgliteArtifacts: artifacts, ...(dump ? { pgliteDump: dump } : {}) });
    // One embedded database per process: a second node of it shares the handle (and its LISTEN).
    return { database, url: null, drop: async () => {}, reopen: async () => ({ ...database, close: async () => {} }) };
  }
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('GH_TEST_DB=postgres needs TEST_DATABASE_URL');
  // scripts/run-tests.mjs makes one migrated database per run (make-postgres-template.ts).
  const template = process.env.GH_PG_TEMPLATE;
  if (template) {
    const copy = await copyTemplate(url, template);
    const database = await openDatabase({ url: copy.url, schema: copy.schema, poolSize: 5 });
    return { database, url: copy.url, drop: copy.drop, reopen: () => openDatabase({ url: copy.url, schema: copy.schema, poolSize: 5 }) };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const database = await openDatabase({ url, schema, poolSize: 5 });
  return {
    database,
    url,
    reopen: () => openDatabase({ url, schema, poolSize: 5 }),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

export interface TestApp {
  url: string;
  port: number;
  app: FastifyInstance;
  services: Services;
  clock: MovableClock;
  mail: TestMailbox;
  database: DatabaseHandle;
  /** The PostgreSQL database this app uses (its schema is the connection's current_schema); null on PGlite. */
  databaseUrl: string | null;
  /** A new client with its own cookie jar. */
  client(): TestClient;
  /** A second handle on this app's database: its own pool and LISTEN on PostgreSQL, as another node has. */
  reopenDatabase(): Promise<DatabaseHandle>;
  /** A client for the SDK sync API at /sdk/v1 (set `bearer` to the SDK secret). */
  sdkClient(): TestClient;
  close(): Promise<void>;
}

// A bound for a hung plugin, not a budget: at load average 30 on the shared 2-core machine, app
// starts failed on Fastify's 10 s for a plugin to register (docs/decisions.md, "Tests (issue 22)").
const PLUGIN_TIMEOUT_MS = 120_000;

/** Starts the whole app on a random port with real SMTP, a fresh database and a movable clock. */
export async function startTestApp(env: Record<string, string> = {}, options: { compileSchemasAtStart?: boolean; sameDatabaseAs?: TestApp } = {}): Promise<TestApp> {
  const mail = new TestMailbox();
  await mail.start();
  // `sameDatabaseAs`: a second node of the same deployment (its own pool, listener and caches).
  const { sameDatabaseAs, ...buildOptions } = options;
  const { database, url: databaseUrl, drop, reopen } = sameDatabaseAs
    ? { database: await sameDatabaseAs.reopenDatabase(), url: sameDatabaseAs.databaseUrl, drop: async () => {}, reopen: () => sameDatabaseAs.reopenDatabase() }
    : await freshDatabase();
  const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 2 }) : null;
  try {
    if (!sameDatabaseAs) await migrate(database.db);
    return await startOn({ mail, database, databaseUrl, drop, reopen, redis, env, options: buildOptions });
  } catch (error) {
    // What was opened for an app that did not start would keep the file's process alive until the
    // runner kills it; closed here, the file fails at once with the start's error.
    redis?.disconnect();
    await database.close().catch(() => {});
    await drop().catch(() => {});
    await mail.close().catch(() => {});
    throw error;
  }
}

async function startOn({ mail, database, databaseUrl, drop, reopen, redis, env, options }: {
  mail: TestMailbox;
  database: DatabaseHandle;
  databaseUrl: string | null;
  drop: () => Promise<void>;
  reopen: () => Promise<DatabaseHandle>;
  redis: Redis | null;
  env: Record<string, string>;
  options: { compileSchemasAtStart?: boolean };
}): Promise<TestApp> {
  const clock = new MovableClock();
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-test-'));
  // The port is chosen before the app (its URL is in the config) and bound after: on a busy machine
  // another process may take it in between, so a taken port means building again on another.
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      PORT: String(port),
      BASE_URL: url,
      SECRET_KEY: randomBytes(32).toString('base64'),
      SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: process.env.GH_TEST_LOG ?? 'silent',
      // The priced example catalogue, whose free plan's limits the tests of plan limits exercise;
      // PLATFORM_PLANS_FILE: '' gives the self-hosted plan a Gatehouse without a catalogue runs on.
      PLATFORM_PLANS_FILE: SHIPPED_PLATFORM_PLANS,
      ...env,
    });
    // Metadata documents of tests are served over https by test/support/test-ca.ts servers.
    const { app, services } = await buildApp({ config, database, clock, redis, rateLimitPrefix: `test-${randomBytes(6).toString('hex')}`, outboundTestCa: testCa().certPem, pluginTimeoutMs: PLUGIN_TIMEOUT_MS, ...options });
    try {
      await app.listen({ port, host: '127.0.0.1' });
    } catch (error) {
      await app.close();
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE' && attempt < 5) continue;
      throw error;
    }
    services.outbox.start();
    return {
      url,
      port,
      app,
      services,
      clock,
      mail,
      database,
      databaseUrl,
      client: () => new TestClient(url + '/api'),
      reopenDatabase: reopen,
      sdkClient: () => {
        const sdk = new TestClient(url);
        return sdk;
      },
      async close() {
        await app.close();
        await services.outbox.stop();
        redis?.disconnect();
        await database.close();
        await drop();
        await mail.close();
      },
    };
  }
}
