import type { PGlite } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

// PGlite is one connection. Kysely hands a connection to a whole transaction, so a mutex keeps
// other queries out until it ends. A query issued on `db` inside a transaction would wait forever;
// the wait is bounded so such a bug fails loudly instead of hanging.
const LOCK_WAIT_MS = 30_000;

class ConnectionLock {
  #tail: Promise<void> = Promise.resolve();
  acquire(): Promise<() => void> {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => released);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('PGlite connection wait exceeded 30 s: is a query running outside its transaction?')),
        LOCK_WAIT_MS,
      );
      void previous.then(() => {
        clearTimeout(timer);
        resolve(release);
      });
    });
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters the simple protocol runs, which also takes several statements (migrations).
    const result =
      query.parameters.length === 0
        ? (await this.pg.exec(query.sql)).at(-1) ?? { rows: [], fields: [], affectedRows: 0 }
        : await this.pg.query<R>(query.sql, query.parameters as unknown[]);
    const affected = result.affectedRows;
    const rows = result.rows as R[];
    return affected === undefined || result.fields.length > 0 ? { rows } : { rows, numAffectedRows: BigInt(affected) };
  }
  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming is not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  readonly #lock = new ConnectionLock();
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();
  constructor(private readonly pg: PGlite) {}
  async init(): Promise<void> {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#lock.acquire();
    const connection = new PGliteConnection(this.pg);
    this.#releases.set(connection, release);
    return connection;
  }
  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await connection.executeQuery(CompiledQuery.raw(`begin${isolation}`));
  }
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }
  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#releases.get(connection)?.();
    this.#releases.delete(connection);
  }
  async destroy(): Promise<void> {
    await this.pg.close();
  }
}

/** Kysely dialect for embedded PGlite: the same PostgreSQL SQL, in process. */
export class PGliteDialect implements Dialect {
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pg);
  }
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
