// What `gatehouse serve` tells the person who started it: where the data lives, what it did, and
// where to go next. Plain lines on standard output, apart from the log (which may be JSON).
import type { Config } from '../config.js';

/** Where the database is, in words: the PGlite folder, or the PostgreSQL server without credentials. */
export function describeDatabase(config: Config, pgliteDir: string): string {
  if (!config.databaseUrl) return `embedded PGlite in ${pgliteDir} (set DATA_DIR to move it, DATABASE_URL for PostgreSQL)`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.hostname}${url.port ? `:${url.port}` : ''}${url.pathname}`;
}

export function describeMigrations(applied: string[], seconds: number): string {
  const took = `(${seconds.toFixed(1)} s)`;
  return applied.length ? `applied ${applied.length} migration${applied.length === 1 ? '' : 's'} ${took}${applied.length <= 3 ? `: ${applied.join(', ')}` : ''}` : `migrations are current ${took}`;
}

/** The lines printed once the server listens. `devOutbox`: mail stays in the outbox page (no SMTP). */
export function listeningReport(config: Config, options: { devOutbox: boolean; listenAddress: string; firstRun: boolean }): string {
  const base = config.baseUrl;
  const portal = new URL(base);
  const lines = [
    `Gatehouse is listening on ${options.listenAddress}`,
    `  console       ${base}`,
    `  API docs      ${base}/api/docs`,
    `  portals       ${portal.protocol}//<slug>.${config.portalDomain}${portal.port ? `:${portal.port}` : ''}`,
  ];
  if (options.devOutbox) lines.push(`  dev outbox    ${base}/dev/mail   (no SMTP_URL: mail is kept here, not sent)`);
  if (options.firstRun) {
    lines.push('', `Next: open ${base} and create your account${options.devOutbox ? `; the sign-up code arrives in the dev outbox (${base}/dev/mail)` : ''}.`);
    lines.push('Then register your API there and follow its Connect page to add the SDK (npm install @gatehouse/sdk).');
  }
  return `\n${lines.join('\n')}\n`;
}
