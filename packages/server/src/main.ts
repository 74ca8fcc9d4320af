#!/usr/bin/env node
import { Redis } from 'ioredis';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { systemClock } from './platform/clock.js';
import { openDatabase } from './platform/db/database.js';
import { migrate } from './platform/db/migrate.js';
import { shutdownOnSignals } from './platform/shutdown.js';

async function openConfiguredDatabase(config: Config) {
  return openDatabase({ url: config.databaseUrl, pgliteDir: config.databaseUrl ? null : join(config.dataDir, 'pglite') });
}

async function runMigrate(config: Config) {
  const database = await openConfiguredDatabase(config);
  try {
    const applied = await migrate(database.db);
    console.log(applied.length ? `applied ${applied.join(', ')}` : 'migrations are current');
  } finally {
    await database.close();
  }
}

async function serve(config: Config) {
  const database = await openConfiguredDatabase(config);
  await migrate(database.db);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false }) : null;
  const { app, services } = await buildApp({ config, database, clock: systemClock, redis });
  services.outbox.start();
  services.scheduler.start();
  services.webhookDelivery.start(services.changes);
  await app.listen({ port: config.port, host: config.host }).catch(async (error: NodeJS.ErrnoException) => {
    // Hosts without IPv6 cannot bind '::'; fall back to every IPv4 address.
    if (config.host === '::' && (error.code === 'EAFNOSUPPORT' || error.code === 'EADDRNOTAVAIL')) {
      return app.listen({ port: config.port, host: '0.0.0.0' });
    }
    throw error;
  });
  app.log.info(`Gatehouse console at ${config.baseUrl} (database: ${database.kind})`);
  console.log(`\n  Gatehouse is running: console ${config.baseUrl}  ·  API docs ${config.baseUrl}/api/docs${config.production || config.smtpUrl ? '' : `  ·  dev outbox ${config.baseUrl}/dev/mail`}\n`);

  const onSignal = shutdownOnSignals({
    lifecycle: services.lifecycle,
    drainMs: config.shutdownDrainS * 1000,
    graceMs: config.shutdownGraceS * 1000,
    log: { info: (line) => app.log.info(line), error: (line) => app.log.error(line) },
    exit: (code) => process.exit(code),
    steps: [
      // app.close stops accepting, lets running requests finish, then closes idle connections.
      { name: 'HTTP requests', run: () => app.close(), open: () => services.lifecycle.openRequests() },
      { name: 'scheduled jobs', run: () => services.scheduler.stop() },
      { name: 'webhook deliveries', run: () => services.webhookDelivery.stop() },
      { name: 'mail outbox', run: () => services.outbox.stop(), open: () => services.outbox.inFlight() },
      { name: 'redis', run: () => redis?.disconnect() },
      { name: 'database pool', run: () => database.close() },
    ],
  });
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}

async function main() {
  const command = process.argv[2] ?? 'serve';
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`gatehouse: bad setting ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  if (command === 'migrate') return runMigrate(config);
  if (command === 'serve') return serve(config);
  console.error(`usage: gatehouse serve | gatehouse migrate`);
  process.exit(2);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
