import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildServices } from '../packages/server/src/app.js';
import { loadConfig } from '../packages/server/src/config.js';
import { systemClock } from '../packages/server/src/platform/clock.js';
import { openDatabase } from '../packages/server/src/platform/db/database.js';
import { migrate } from '../packages/server/src/platform/db/migrate.js';

export const benchDatabaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema on the bench PostgreSQL, migrated, with the app's services on it. */
export async function benchServices(env: Record<string, string> = {}) {
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: benchDatabaseUrl });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  const database = await openDatabase({ url: benchDatabaseUrl, schema, poolSize: 10 });
  await migrate(database.db);
  const config = loadConfig({ SECRET_KEY: randomBytes(32).toString('base64'), DATA_DIR: '.bench-data', LOG_LEVEL: 'silent', ...env });
  const services = buildServices({ config, database, clock: systemClock, redis: null }, () => {}, (error) => console.error(error));
  return {
    services,
    schema,
    admin,
    async close() {
      await database.close();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function summarize(samplesMs: number[]) {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
