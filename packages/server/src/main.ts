#!/usr/bin/env node
import { Redis } from 'ioredis';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { openEmbeddedDatabase } from './cli/embedded-database.js';
import { describeDatabase, describeMigrations, listeningReport } from './cli/start-up-report.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { systemClock } from './platform/clock.js';
import { openDatabase } from './platform/db/database.js';
import { migrate } from './platform/db/migrate.js';
import { shutdownOnSignals } from './platform/shutdown.js';

const USAGE = `Usage: gatehouse [command]

Commands:
  serve       migrate the database, then serve the console, the SDK sync API and every API's
              sign-in service and portal (the default)
  migrate     apply database migrations and exit (a deploy step before the new version starts)

Options:
  -h, --help     show this help
  -v, --version  show the version

Settings come from the environment: PORT (8080), BASE_URL, PORTAL_DOMAIN (localhost),
DATA_DIR (./.data, the embedded database and development secret key), DATABASE_URL (PostgreSQL),
REDIS_URL, SMTP_URL, SECRET_KEY, NODE_ENV, LOG_LEVEL, LOG_FORMAT; the README lists them all.`;

function version(): string {
  // dist/main.js and src/main.ts both sit one folder under the package's package.json.
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}

const say = (line: string) => process.stdout.write(`${line}\n`);

async function openConfiguredDatabase(config: Config) {
  const pgliteDir = join(config.dataDir, 'pglite');
  say(`gatehouse ${version()}: database ${describeDatabase(config, pgliteDir)}`);
  if (config.databaseUrl) return { database: await openDatabase({ url: config.databaseUrl, pgliteDir: null }), seeded: false };
  const opened = await openEmbeddedDatabase(pgliteDir);
  if (opened.seeded) say('made the database from the package\'s migrated seed');
  return opened;
}

async function migrateReporting(database: Awaited<ReturnType<typeof openDatabase>>): Promise<string[]> {
  const started = performance.now();
  say('migrating…');
  const applied = await migrate(database.db);
  say(describeMigrations(applied, (performance.now() - started) / 1000));
  return applied;
}

async function runMigrate(config: Config) {
  const { database } = await openConfiguredDatabase(config);
  try {
    await migrateReporting(database);
  } finally {
    await database.close();
  }
}

async function listen(app: Awaited<ReturnType<typeof buildApp>>['app'], config: Config): Promise<unknown> {
  try {
    return await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Hosts without IPv6 cannot bind '::'; fall back to every IPv4 address.
    if (config.host === '::' && (code === 'EAFNOSUPPORT' || code === 'EADDRNOTAVAIL')) return app.listen({ port: config.port, host: '0.0.0.0' });
    if (code === 'EADDRINUSE') throw new ConfigError('PORT', `${config.port} is taken by another process; set PORT to a free one`);
    throw error;
  }
}

async function serve(config: Config) {
  const { database, seeded } = await openConfiguredDatabase(config);
  const applied = await migrateReporting(database);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false }) : null;
  const { app, services } = await buildApp({ config, database, clock: systemClock, redis });
  services.outbox.start();
  services.scheduler.start();
  services.webhookDelivery.start(services.changes);
  await listen(app, config);
  // Fastify answers the first address bound; a wildcard bind serves every address of the machine.
  const bound = app.server.address();
  const boundPort = typeof bound === 'object' && bound ? bound.port : config.port;
  const address = ['::', '0.0.0.0'].includes(config.host) ? `http://*:${boundPort}` : `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${boundPort}`;
  app.log.info(`Gatehouse console at ${config.baseUrl} (database: ${database.kind})`);
  // The first run is the one that made the database (from the seed, or the first migration): it
  // is when a newcomer needs the next step; an upgrade that applies newer migrations is not.
  const firstRun = !config.production && (seeded || applied.some((name) => name.startsWith('0001_')));
  say(listeningReport(config, { devOutbox: !config.production && services.devOutbox, listenAddress: address, firstRun }));

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

/** A bad setting is the operator's to fix: one line naming it, no stack trace. */
function stopOnBadSetting(error: unknown): never {
  if (error instanceof ConfigError) {
    console.error(`gatehouse: bad setting ${error.message}`);
    process.exit(2);
  }
  throw error;
}

async function main() {
  const command = process.argv[2] ?? 'serve';
  if (command === '--help' || command === '-h' || command === 'help') return say(USAGE);
  if (command === '--version' || command === '-v') return say(version());
  if (command !== 'serve' && command !== 'migrate') {
    console.error(`gatehouse: unknown command "${command}"\n\n${USAGE}`);
    process.exit(2);
  }
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return stopOnBadSetting(error);
  }
  await (command === 'migrate' ? runMigrate(config) : serve(config)).catch(stopOnBadSetting);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
