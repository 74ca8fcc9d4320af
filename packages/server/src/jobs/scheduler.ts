import { sql } from 'kysely';
import type { Db } from '../platform/db/database.js';

export interface Job {
  name: string;
  /** A constant per job: the PostgreSQL advisory lock that lets one node at a time run it. */
  lockKey: number;
  everyMs: number;
  /**
   * false: the job is safe on several nodes at once and runs without the lock, through its
   * services' own connections (holding PGlite's single connection for the lock would block them).
   */
  exclusive?: boolean;
  /** Runs on the connection that holds the lock (PGlite has only one). */
  run(db: Db): Promise<unknown>;
}

/**
 * Runs scheduled jobs. Each run takes a session-level advisory lock first, so with many nodes
 * one runs it and the others skip that turn (DESIGN section 4).
 */
export class Scheduler {
  readonly #timers: NodeJS.Timeout[] = [];
  readonly #running = new Set<Promise<unknown>>();

  constructor(
    private readonly db: Db,
    private readonly jobs: Job[],
    private readonly onError: (job: string, error: unknown) => void,
  ) {}

  /** Runs one job now if no other node holds its lock; true when it ran. */
  async runOnce(job: Job): Promise<boolean> {
    if (job.exclusive === false) {
      await job.run(this.db);
      return true;
    }
    return this.db.connection().execute(async (conn) => {
      const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${job.lockKey}) as locked`.execute(conn);
      if (!rows[0]?.locked) return false;
      try {
        await job.run(conn);
        return true;
      } finally {
        await sql`select pg_advisory_unlock(${job.lockKey})`.execute(conn);
      }
    });
  }

  start(): void {
    for (const job of this.jobs) {
      const timer = setInterval(() => {
        const run = this.runOnce(job).catch((error) => this.onError(job.name, error));
        this.#running.add(run);
        void run.finally(() => this.#running.delete(run));
      }, job.everyMs);
      timer.unref();
      this.#timers.push(timer);
    }
  }

  async stop(): Promise<void> {
    this.#timers.forEach(clearInterval);
    await Promise.allSettled([...this.#running]);
  }
}
