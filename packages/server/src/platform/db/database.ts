import { EventEmitter } from 'node:events';
import { Kysely, PostgresDialect, type Transaction } from 'kysely';
import pg from 'pg';
import type { PGliteOptions } from '@electric-sql/pglite';
import type { MailTables } from '../mail/tables.js';
import { parseInt8 } from '../money.js';
import { PGliteDialect } from './pglite-dialect.js';
import { LocalChanges } from './local-changes.js';
import { prepareNamedStatements } from './named-statements.js';

/**
 * Every table of the service. The platform declares its own here; each capability adds its tables
 * from its own tables.ts (`declare module` augmentation), so the ground floor names nothing above it.
 */
export interface Database extends MailTables {}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;

// int8 (bigint, money in micro units) as a JS number within ±(2^53 - 1) (DESIGN 9), on both
// databases: a stored value past it reads as the bound instead of failing the read (platform/money.ts).
pg.types.setTypeParser(20, parseInt8);
// date stays 'YYYY-MM-DD': a JS Date would shift it by the machine's time zone.
pg.types.setTypeParser(1082, (value) => value);

/** The one channel cache invalidations travel on (platform/db/change-feed.ts). */
export const CHANGE_CHANNEL = 'gatehouse_changes';

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Connections of the pool (PGlite: one, shared by every query). */
  poolSize: number;
  close(): Promise<void>;
  /**
   * Listens on CHANGE_CHANNEL: `onPayload` for every notification, `onStatus(true)` once listening
   * and `onStatus(false)` whenever the listening connection is lost (it reconnects by itself).
   * Answers the function that stops listening.
   */
  listen(onPayload: (payload: string) => void, onStatus: (listening: boolean) => void): () => Promise<void>;
}

export interface DatabaseOptions {
  /** postgres:// URL; null selects embedded PGlite. */
  url: string | null;
  /** PGlite data directory; null keeps it in memory. */
  pgliteDir?: string | null;
  /** A PGlite data directory dump to start from (tests start from one migrated copy). */
  pgliteDump?: Blob;
  /**
   * PGlite's WebAssembly, compiled, and its file bundle: a process that opens many databases (a
   * test process running several files) compiles and reads them once instead of at every open.
   */
  pgliteArtifacts?: Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'>;
  /** PostgreSQL schema to work in (tests isolate themselves this way). */
  schema?: string;
  poolSize?: number;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const poolSize = options.poolSize ?? 10;
    const pool = new pg.Pool({
      connectionString: options.url,
      max: poolSize,
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    });
    prepareNamedStatements(pool);
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new LocalChanges()] });
    // Named after the schema, so an operator (or a test) can find a deployment's listeners.
    const listenConfig = {
      connectionString: options.url,
      keepAlive: true,
      application_name: `gatehouse_changes_${options.schema ?? 'public'}`.slice(0, 63),
      ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
    };
    return { db, kind: 'postgres', poolSize, close: () => db.destroy(), listen: (onPayload, onStatus) => listenPostgres(listenConfig, onPayload, onStatus) };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(options.pgliteDir ?? undefined, {
    parsers: { 20: parseInt8, 1082: (value: string) => value },
    ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}),
    ...options.pgliteArtifacts,
  });
  // PGlite is one connection shared by every query: LISTEN once now, before any transaction can be
  // open on it, and hand notifications to listeners in process. PGlite delivers a NOTIFY sent in a
  // transaction with the answer to its COMMIT, so listeners have it before the commit resolves.
  const notifications = new EventEmitter();
  notifications.setMaxListeners(0);
  await pglite.listen(CHANGE_CHANNEL, (payload) => notifications.emit('payload', payload));
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite), plugins: [new LocalChanges()] });
  return {
    db,
    kind: 'pglite',
    poolSize: 1,
    close: () => db.destroy(),
    listen(onPayload, onStatus) {
      notifications.on('payload', onPayload);
      onStatus(true);
      return async () => void notifications.off('payload', onPayload);
    },
  };
}

// How often the listening connection proves it is alive, and how long an answer may take: a
// connection that died silently (no FIN, a dropped route) is found within these bounds.
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_TIMEOUT_MS = 3_000;
const RECONNECT_MS = 500;

/**
 * A dedicated connection that LISTENs (a pooled one would be handed to queries and lose it), and
 * reconnects whenever it is lost: every loss is reported, so caches stop trusting what they hold.
 */
function listenPostgres(config: pg.ClientConfig, onPayload: (payload: string) => void, onStatus: (listening: boolean) => void): () => Promise<void> {
  let stopped = false;
  let current: pg.Client | null = null;
  let timer: NodeJS.Timeout | null = null;

  const schedule = (fn: () => void, ms: number) => {
    if (timer) clearTimeout(timer);
    timer = stopped ? null : setTimeout(fn, ms);
  };
  const lost = (client: pg.Client) => {
    if (client !== current) return;
    current = null;
    onStatus(false);
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    schedule(connect, RECONNECT_MS);
  };
  const heartbeat = (client: pg.Client) => {
    if (client !== current) return;
    const deadline = setTimeout(() => lost(client), HEARTBEAT_TIMEOUT_MS);
    client.query('select 1').then(
      () => {
        clearTimeout(deadline);
        schedule(() => heartbeat(client), HEARTBEAT_MS);
      },
      () => {
        clearTimeout(deadline);
        lost(client);
      },
    );
  };
  async function connect() {
    if (stopped) return;
    const client = new pg.Client(config);
    current = client;
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    client.on('notification', (message) => {
      if (message.channel === CHANGE_CHANNEL) onPayload(message.payload ?? '');
    });
    try {
      await client.connect();
      await client.query(`listen ${CHANGE_CHANNEL}`);
    } catch {
      lost(client);
      return;
    }
    if (client !== current) return;
    onStatus(true);
    schedule(() => heartbeat(client), HEARTBEAT_MS);
  }
  void connect();
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const client = current;
    current = null;
    if (client) await client.end().catch(() => undefined);
  };
}
