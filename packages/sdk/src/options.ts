import type { Decision } from './decision.js';
import type { RedisLike } from './redis-limits.js';

/** Everything a meter can be told. Each option is checked when the meter is built. */
export interface MeterOptions {
  /** The API's SDK secret (`mas_…`). @default process.env.GATEHOUSE_SECRET_KEY */
  secret?: string;
  /** Where Gatehouse runs; a path prefix is kept. @default process.env.GATEHOUSE_BASE_URL ?? 'http://localhost:8080' */
  baseUrl?: string;
  /** The request header customers send their key in (adapters read it). @default 'x-api-key' */
  keyHeader?: string;
  /** How often the snapshot is fetched again (while changes are not followed). @default 30_000 */
  syncIntervalMs?: number;
  /**
   * Follow changes between snapshots (GET /sdk/v1/changes, long polling): a revoked key, a
   * suspended customer or a top-up reaches the meter within about a second instead of at the next
   * snapshot. @default true
   */
  followChanges?: boolean;
  /**
   * While changes are followed, how often the snapshot is still fetched (with If-None-Match): a
   * safety net, and the only source of people (members), servers and month floors.
   * @default 600_000 (with `redis`: syncIntervalMs, as shared limits take balances from snapshots)
   */
  followingSyncIntervalMs?: number;
  /** Called with the cursor after every changes answer applied (for tests and metrics of your own). */
  onChanges?: (cursor: string) => void;
  /** How often recorded usage is delivered (sooner when `batchItems` are waiting). @default 5_000 */
  reportIntervalMs?: number;
  /**
   * Deliver as soon as this many usage items wait (an item is the requests of one key, policy,
   * status and hour). Requests of the same item only add to its count, so waiting for the
   * interval costs nothing per request; this bounds the queue when many keys are busy. @default 5_000
   */
  batchItems?: number;
  /** Past this snapshot age, requests get 503 unless `failOpen`. @default 300_000 */
  staleAfterMs?: number;
  /** Past this snapshot age, requests get 503 even with `failOpen`. @default 900_000 */
  maxStaleMs?: number;
  /** Keep admitting on a snapshot older than `staleAfterMs` (never past `maxStaleMs`). @default false */
  failOpen?: boolean;
  /**
   * Folder of the usage journal and dead-letter file; usage written there survives a crash.
   * `null` keeps usage in memory only (lost if the process dies before delivery).
   * @default '.gatehouse'
   */
  journalDir?: string | null;
  /**
   * How long a group commit gathers finished requests before making them durable together (one
   * write and one fsync of the journal, or one Redis round trip). A crash can lose the usage of
   * requests finished within this window (README, "The journal"). @default 10
   */
  commitIntervalMs?: number;
  /**
   * How often the journal file is fsynced after a group commit has written to it. A group is in
   * the file, and survives a crash of the process, as soon as it is written; a crash of the
   * machine (power, kernel) can lose what was written since the last fsync. The journal is always
   * fsynced before usage is delivered and when the meter closes. 0 fsyncs every group. Not used
   * with `redis` or `journalDir: null`. @default 100
   */
  fsyncIntervalMs?: number;
  /** How long an unknown key is remembered as unknown. @default 30_000 */
  negativeCacheTtlMs?: number;
  /** How many unknown keys are remembered at most. @default 10_000 */
  negativeCacheSize?: number;
  /** How many lookups of keys missing from the snapshot may be under way at once. @default 16 */
  maxConcurrentLookups?: number;
  /** How many more may wait for their turn; past that a request with a new key gets 503. @default 1_000 */
  maxQueuedLookups?: number;
  /** Timeout of each call to Gatehouse. @default 5_000 */
  requestTimeoutMs?: number;
  /** Called with every admission decision (for logs or metrics of your own). */
  onDecision?: (decision: Decision) => void;
  /** Called with background errors (sync, delivery); the meter keeps going. @default console.warn */
  onError?: (error: Error) => void;
  /**
   * An ioredis client shared by every process of the API: rate, quota, platform allowance and credit
   * are then reserved atomically across all of them (one Lua script per admission). When Redis does
   * not answer, requests get 503 (fail closed). Usage is then queued in Redis instead of the journal
   * file, under a lease per process. @default undefined (limits and usage are per process)
   */
  redis?: RedisLike;
  /**
   * With `redis`: how long a process's usage queue stays its own without a renewal. Another
   * process adopts the queue of one silent for longer and delivers it. @default 10_000
   */
  usageLeaseMs?: number;
  /** For tests: the fetch to use. @default globalThis.fetch */
  fetch?: typeof fetch;
  /** For tests: the clock, in epoch milliseconds. @default Date.now */
  now?: () => number;
}

export type ResolvedOptions = Required<Omit<MeterOptions, 'onDecision' | 'journalDir' | 'redis' | 'onChanges'>> & {
  onChanges: ((cursor: string) => void) | null;
  redis: RedisLike | null;
  journalDir: string | null;
  onDecision: ((decision: Decision) => void) | null;
};

function positive(name: string, value: number, min = 1): number {
  if (!Number.isFinite(value) || value < min) throw new TypeError(`gatehouse: ${name} must be a number >= ${min}`);
  return value;
}

export function resolveOptions(options: MeterOptions): ResolvedOptions {
  const secret = options.secret ?? process.env.GATEHOUSE_SECRET_KEY ?? '';
  if (!secret.startsWith('mas_')) throw new TypeError('gatehouse: secret (or GATEHOUSE_SECRET_KEY) must be the API\'s SDK secret, starting mas_');
  const baseUrl = (options.baseUrl ?? process.env.GATEHOUSE_BASE_URL ?? 'http://localhost:8080').replace(/\/+$/, '');
  if (!/^https?:\/\//.test(baseUrl)) throw new TypeError('gatehouse: baseUrl must be an http(s) URL');
  const staleAfterMs = positive('staleAfterMs', options.staleAfterMs ?? 300_000);
  const maxStaleMs = positive('maxStaleMs', options.maxStaleMs ?? 900_000);
  if (maxStaleMs < staleAfterMs) throw new TypeError('gatehouse: maxStaleMs must be at least staleAfterMs');
  const keyHeader = (options.keyHeader ?? 'x-api-key').toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(keyHeader)) throw new TypeError('gatehouse: keyHeader must be a header name');
  return {
    secret,
    baseUrl,
    keyHeader,
    syncIntervalMs: positive('syncIntervalMs', options.syncIntervalMs ?? 30_000, 100),
    followChanges: options.followChanges ?? true,
    // With Redis, shared limits reconcile balances by snapshot (generated_at), which followed
    // balances do not move: the snapshot keeps its pace there (docs/decisions.md).
    followingSyncIntervalMs: positive('followingSyncIntervalMs', options.followingSyncIntervalMs ?? (options.redis ? options.syncIntervalMs ?? 30_000 : 600_000), 100),
    onChanges: options.onChanges ?? null,
    reportIntervalMs: positive('reportIntervalMs', options.reportIntervalMs ?? 5_000, 10),
    batchItems: positive('batchItems', options.batchItems ?? 5_000),
    staleAfterMs,
    maxStaleMs,
    failOpen: options.failOpen ?? false,
    journalDir: options.journalDir === undefined ? '.gatehouse' : options.journalDir,
    commitIntervalMs: positive('commitIntervalMs', options.commitIntervalMs ?? 10),
    fsyncIntervalMs: positive('fsyncIntervalMs', options.fsyncIntervalMs ?? 100, 0),
    negativeCacheTtlMs: positive('negativeCacheTtlMs', options.negativeCacheTtlMs ?? 30_000),
    negativeCacheSize: positive('negativeCacheSize', options.negativeCacheSize ?? 10_000),
    maxConcurrentLookups: positive('maxConcurrentLookups', options.maxConcurrentLookups ?? 16),
    maxQueuedLookups: positive('maxQueuedLookups', options.maxQueuedLookups ?? 1_000, 0),
    usageLeaseMs: positive('usageLeaseMs', options.usageLeaseMs ?? 10_000, 100),
    requestTimeoutMs: positive('requestTimeoutMs', options.requestTimeoutMs ?? 5_000, 10),
    onDecision: options.onDecision ?? null,
    redis: options.redis ?? null,
    onError: options.onError ?? ((error) => console.warn(`gatehouse: ${error.message}`)),
    fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
    now: options.now ?? Date.now,
  };
}
