import { randomUUID } from 'node:crypto';
import { queueRegistryKey, type HoldMoves, type RedisLike } from '../redis-limits.js';
import { recoveredBucket, type Bucket, type Recorder } from './recorder.js';
import { takeForCommit, type UsageStore } from './store.js';

/**
 * The usage queue of one process in Redis (the `redis` option), in place of the journal file.
 *
 * Every process registers under a random id in the API's set of queues and keeps a lease (a key
 * with a TTL) alive while it runs. Group commits write each grown bucket's whole count into the
 * process's hash (field: idempotency key), so a commit can be repeated safely; acknowledged
 * buckets are deleted. A process whose lease expired has its queue adopted by another: one
 * script moves the hash into the adopter's, under the same idempotency keys, and removes the dead
 * process from the set. Membership in the set is what makes a queue one's own: a process that was
 * only slow (its lease expired and its queue was adopted) finds itself missing from the set at its
 * next commit, leaves what it had committed to the adopter, and keeps its uncommitted requests
 * under new keys in a queue of its own, so no request is lost and none is counted twice.
 */

/**
 * Commits and renewals: refused (0) when the process is no longer in the set of queues. Keys:
 * lease, queue, set of queues, then per hold move the customer's in-flight hash and committed
 * counter. Arguments: id, lease, number of bucket fields, number of moves, the moves (holder,
 * amount), the bucket fields (key, value), then the idempotency keys to delete.
 */
const COMMIT = `
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local sets, moves = tonumber(ARGV[3]), tonumber(ARGV[4])
for m = 0, moves - 1 do
  local inflight, committed = KEYS[4 + 2 * m], KEYS[5 + 2 * m]
  local holder, amount = ARGV[5 + 2 * m], tonumber(ARGV[6 + 2 * m])
  if redis.call('HINCRBY', inflight, holder, -amount) == 0 then redis.call('HDEL', inflight, holder) end
  redis.call('INCRBY', committed, amount)
  redis.call('PEXPIRE', committed, 604800000)
end
local first = 5 + 2 * moves
if sets > 0 then redis.call('HSET', KEYS[2], unpack(ARGV, first, first - 1 + 2 * sets)) end
if #ARGV >= first + 2 * sets then redis.call('HDEL', KEYS[2], unpack(ARGV, first + 2 * sets)) end
return 1
`;

/** Moves a dead process's queue into the caller's, if its lease is gone and the caller is alive. */
const ADOPT = `
if redis.call('EXISTS', KEYS[1]) == 1 or redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 0 then return {} end
if redis.call('SISMEMBER', KEYS[3], ARGV[2]) == 0 then return {} end
local items = redis.call('HGETALL', KEYS[2])
for i = 1, #items, 1000 do
  redis.call('HSET', KEYS[4], unpack(items, i, math.min(i + 999, #items)))
end
redis.call('DEL', KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return items
`;

/** Leaves: the lease goes at once, so a queue with something left is adopted without waiting. */
const LEAVE = `
redis.call('DEL', KEYS[1])
if redis.call('HLEN', KEYS[2]) == 0 then redis.call('SREM', KEYS[3], ARGV[1]) end
return 1
`;

/** Fields per script call: Lua's unpack takes a few thousand values at most. */
const FIELDS_PER_CALL = 1_000;

export interface RedisQueueOptions {
  /** The API's tenant id, known from the first snapshot (every key of the API shares its hash tag). */
  tenantId: () => string;
  leaseMs: number;
  onError: (error: Error) => void;
  /** Another process's queue was adopted: its buckets are now this one's, sealed and committed. */
  onAdopted: (buckets: Bucket[]) => void;
  /** This process's queue was adopted by another: what it had committed is no longer its own. */
  onHandedOver: () => void;
  /** Credit holds of finished requests, moved to the committed counters with the commit that commits them. */
  holdMoves: () => HoldMoves | null;
}

type QueueCommands = {
  ghQueueCommit(...args: (string | number)[]): Promise<number>;
  ghQueueAdopt(...args: (string | number)[]): Promise<string[]>;
  ghQueueLeave(...args: (string | number)[]): Promise<number>;
};

export class RedisUsageQueue implements UsageStore {
  readonly #redis: RedisLike & QueueCommands;
  #id = randomUUID();
  #registered: Promise<void> | null = null;
  #writing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #leaseTimer: NodeJS.Timeout | null = null;
  #acked: string[] = [];
  #closed = false;

  constructor(redis: RedisLike, private readonly recorder: Recorder, private readonly options: RedisQueueOptions, private readonly commitIntervalMs = 10) {
    this.#redis = redis as RedisLike & QueueCommands;
    // Its number of keys varies with the hold moves: passed first on every call.
    redis.defineCommand('ghQueueCommit', { lua: COMMIT });
    redis.defineCommand('ghQueueAdopt', { numberOfKeys: 4, lua: ADOPT });
    redis.defineCommand('ghQueueLeave', { numberOfKeys: 3, lua: LEAVE });
  }

  #key(kind: 'lease' | 'queue', id: string) {
    return `gh:{${this.options.tenantId()}}:usage:${kind}:${id}`;
  }

  get #registry() {
    return queueRegistryKey(this.options.tenantId());
  }

  /**
   * This process's id once it is in the set of queues: credit held in flight is held under it
   * (redis-limits.ts), and goes when the id leaves the set.
   */
  async holderId(): Promise<string> {
    await this.#register();
    return this.#id;
  }

  /** Nothing to recover by itself: queues of dead processes are adopted once their lease is gone. */
  async open(): Promise<Bucket[]> {
    return [];
  }

  /** Registers this process once the tenant is known; then renews its lease and adopts orphans. */
  #register(): Promise<void> {
    this.#registered ??= (async () => {
      // The lease first: a process in the set without one would be adopted at once.
      await this.#redis.set(this.#key('lease', this.#id), this.#id, 'PX', this.options.leaseMs);
      await this.#redis.sadd(this.#registry, this.#id);
      // A third of the lease: two renewals can fail before another process may adopt the queue.
      this.#leaseTimer = setInterval(() => void this.#tick().catch(this.options.onError), Math.max(10, Math.floor(this.options.leaseMs / 3)));
      this.#leaseTimer.unref();
    })();
    this.#registered.catch(() => (this.#registered = null));
    return this.#registered;
  }

  /** Renews the lease (an empty commit) and adopts the queues of processes whose lease is gone. */
  async #tick(): Promise<void> {
    if (this.#closed) return;
    await this.commit();
    await this.adoptOrphans();
  }

  /** Adopts every queue whose process's lease has expired; returns how many buckets came with them. */
  async adoptOrphans(): Promise<number> {
    if (!this.options.tenantId()) return 0;
    await this.#register();
    let adopted = 0;
    for (const id of await this.#redis.smembers(this.#registry)) {
      if (id === this.#id || (await this.#redis.exists(this.#key('lease', id)))) continue;
      const flat = await this.#redis.ghQueueAdopt(this.#key('lease', id), this.#key('queue', id), this.#registry, this.#key('queue', this.#id), id, this.#id);
      const buckets: Bucket[] = [];
      for (let i = 0; i + 1 < flat.length; i += 2) {
        const [keyId, policyId, status, hour, count, chargeMicro, customerId] = JSON.parse(flat[i + 1]!) as [string, string | null, number, string, number, number, string];
        buckets.push(recoveredBucket({ key: flat[i]!, keyId, policyId, status, hour, count, chargeMicro, customerId }));
      }
      if (buckets.length > 0) this.options.onAdopted(buckets);
      adopted += buckets.length;
    }
    return adopted;
  }

  schedule(): void {
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      this.commit().catch(this.options.onError);
    }, this.commitIntervalMs);
  }

  /** Writes the whole count of every grown bucket and deletes acknowledged ones (and renews the lease). */
  commit(): Promise<void> {
    // One commit at a time, in order: a later count must never be overwritten by an earlier one.
    const next = (this.#writing ?? Promise.resolve()).catch(() => undefined).then(() => this.#commitNow());
    this.#writing = next;
    return next;
  }

  async #commitNow(): Promise<void> {
    if (!this.options.tenantId()) return; // nothing can be recorded before the first snapshot
    await this.#register();
    const taken = takeForCommit(this.recorder);
    // Taken with the buckets: the charges of exactly the requests this commit makes durable.
    let moves = this.options.holdMoves();
    const acked = this.#acked;
    this.#acked = [];
    let done = 0; // buckets written
    let deleted = 0;
    try {
      do {
        const part = taken.buckets.slice(done, done + FIELDS_PER_CALL);
        const sets: string[] = [];
        for (const b of part) sets.push(b.key, JSON.stringify([b.keyId, b.policyId, b.status, b.hour, b.committedCount, b.committedMicro, b.customerId]));
        const deletes = acked.slice(deleted, deleted + FIELDS_PER_CALL - part.length);
        // The moves go with the first part: should a later part fail, the charges of its requests
        // are held as committed until the retry commits them (over-held for a moment, never under).
        const moveKeys = moves?.keys ?? [];
        const answer = await this.#redis.ghQueueCommit(
          3 + moveKeys.length,
          this.#key('lease', this.#id),
          this.#key('queue', this.#id),
          this.#registry,
          ...moveKeys,
          this.#id,
          this.options.leaseMs,
          part.length,
          moves?.count ?? 0,
          ...(moves?.args ?? []),
          ...sets,
          ...deletes,
        );
        if (answer === 0) {
          // Written parts went to the adopter with the queue; the rest was never committed. Its
          // charges (and the moves, if this was the first part) wait for the commit under a new id.
          taken.undo(done);
          moves?.undo();
          return this.#handOver();
        }
        moves = null;
        done += part.length;
        deleted += deletes.length;
      } while (done < taken.buckets.length || deleted < acked.length);
    } catch (error) {
      taken.undo(done);
      moves?.undo();
      this.#acked.push(...acked.slice(deleted));
      throw error;
    }
  }

  /**
   * Another process adopted this one's queue (this one was too slow to renew its lease): what was
   * committed is the adopter's to deliver; the rest is recorded again under new keys, in a queue
   * under a new id.
   */
  #handOver(): void {
    this.options.onHandedOver();
    if (this.#leaseTimer) clearInterval(this.#leaseTimer);
    this.#leaseTimer = null;
    this.#id = randomUUID();
    this.#registered = null;
    this.#acked = [];
  }

  acknowledge(buckets: Bucket[]): void {
    // Deleted with the next commit; lost in a crash, it only means a resend answered `duplicate`.
    for (const bucket of buckets) this.#acked.push(bucket.key);
    if (buckets.length > 0) this.schedule();
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#leaseTimer) clearInterval(this.#leaseTimer);
    this.#timer = this.#leaseTimer = null;
    if (!this.#registered) return;
    await this.commit();
    await this.#redis.ghQueueLeave(this.#key('lease', this.#id), this.#key('queue', this.#id), this.#registry, this.#id);
  }
}
