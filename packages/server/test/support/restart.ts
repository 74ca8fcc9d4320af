import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { buildApp } from '../../src/app.js';
import { openDatabase, type DatabaseHandle } from '../../src/platform/db/database.js';
import { testDatabaseKind, type TestApp } from './harness.js';

export interface Outage {
  /** Stops serving: the port is closed, and on PostgreSQL the app's connections too. */
  stop(): Promise<void>;
  /** Serves again on the same port and the same data; `t.app`, `t.services` and `t.database` are the new ones. */
  start(): Promise<void>;
  /** Closes whatever the restarts opened, then the test app itself. Use it instead of `t.close()`. */
  close(): Promise<void>;
}

/**
 * Lets a fault test take a test app down and bring it back, as an operator's restart would: same
 * port, same config (so the same secrets), same clock, same database. PGlite lives inside this
 * process, so its handle stays open across the restart; on PostgreSQL the pool is closed with the
 * app and a new one opened on the same schema.
 */
export async function outage(t: TestApp): Promise<Outage> {
  const original = { app: t.app, services: t.services, database: t.database };
  const schema =
    testDatabaseKind === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(t.database.db)).rows[0]!.schema : null;
  let running = true;
  let opened: { database: DatabaseHandle | null; redis: Redis | null } | null = null;

  async function stop() {
    if (!running) return;
    running = false;
    await t.app.close();
    await t.services.outbox.stop();
    // The original handle is closed by t.close(); only what a restart opened is closed here.
    if (schema !== null) await t.database.close();
    opened?.redis?.disconnect();
  }

  async function start() {
    if (running) return;
    const database = schema !== null ? await openDatabase({ url: t.databaseUrl!, schema, poolSize: 5 }) : original.database;
    const redis = process.env.REDIS_URL ? new Redis(process.env.REDIS_URL, { maxRetriesPerRequest: 2 }) : null;
    opened = { database: schema !== null ? database : null, redis };
    const { app, services } = await buildApp({ config: t.services.config, database, clock: t.clock, redis, rateLimitPrefix: `test-${randomBytes(6).toString('hex')}` });
    services.outbox.start();
    await app.listen({ port: t.port, host: '127.0.0.1' });
    Object.assign(t, { app, services, database });
    running = true;
  }

  return {
    stop,
    start,
    async close() {
      if (t.app !== original.app) {
        await stop();
        Object.assign(t, original);
      }
      await t.close();
    },
  };
}
