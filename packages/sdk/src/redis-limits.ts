/**
 * Limits shared by every process of an API through Redis: one Lua script, one round trip, checks
 * and reserves rate, quota, platform allowance and credit atomically, so processes together never
 * overspend or overshoot. When Redis cannot answer, admission fails closed (503).
 *
 * Credit is reconciled without a writer of its own: each reservation brings the balance of the
 * caller's snapshot (its generated_at and the time its fetch started); the newest one wins. What
 * is held against that balance comes in three parts, each with an owner that outlives it:
 * - in flight: per process (a field per holder in a hash per customer), the price of every
 *   request admitted and not yet committed to the usage queue, and the charge of every request
 *   finished and not yet committed. The holder is the process's usage queue (its id in the API's
 *   set of queues), so when a process dies its queue is adopted, its id leaves the set, and the
 *   next reservation drops its field: a request in flight when its process died holds nothing
 *   after the lease, and usage lost with the process (never committed) is not billed either.
 * - committed: one counter per customer, charges in some process's usage queue not yet
 *   acknowledged. They move there from the holder's field in the same script that commits them
 *   to the queue, so whoever delivers the queue (its process, or the adopter) acknowledges them.
 * - acknowledged: a sorted set by acknowledgement time, counted only while newer than the fetch
 *   behind the stored balance (a snapshot fetched after an acknowledgement shows the debit).
 */

/** The subset of an ioredis client this module uses (ioredis is an optional peer). */
export interface RedisLike {
  /** Without numberOfKeys, the command takes the number of keys as its first argument. */
  defineCommand(name: string, definition: { numberOfKeys?: number; lua: string }): void;
  decrby(key: string, amount: number): Promise<number>;
  set(key: string, value: string, px: 'PX', ms: number): Promise<unknown>;
  sadd(key: string, member: string): Promise<number>;
  smembers(key: string): Promise<string[]>;
  exists(key: string): Promise<number>;
}

/**
 * An acknowledged charge leaves the holds once: after a takeover both the process that sent a
 * bucket and the one that adopted its queue may see it acknowledged (one answer is `duplicate`).
 */
const ACKNOWLEDGE = `
if redis.call('ZADD', KEYS[2], 'NX', ARGV[1], ARGV[2]) == 1 then
  redis.call('DECRBY', KEYS[1], ARGV[3])
end
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1
`;

const RESERVE = `
local rl, q, p, committed, ack, bal, inflight, holders = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6], KEYS[7], KEYS[8]
local now, rps = tonumber(ARGV[1]), tonumber(ARGV[2])
local quota, qfloor = tonumber(ARGV[3]), tonumber(ARGV[4])
local plimit, pfloor, hardcap = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7] == '1'
local price, gen, balance, fetched = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local ttl, holder = tonumber(ARGV[12]), ARGV[13]

-- the newest snapshot balance any process has seen
local stored = redis.call('HMGET', bal, 'gen', 'balance', 'fetched')
if not stored[1] or gen > tonumber(stored[1]) then
  redis.call('HSET', bal, 'gen', gen, 'balance', balance, 'fetched', fetched)
  redis.call('PEXPIRE', bal, ttl)
  redis.call('ZREMRANGEBYSCORE', ack, '-inf', '(' .. fetched)
else
  balance, fetched = tonumber(stored[2]), tonumber(stored[3])
end

-- rate: GCRA, one second of burst
local tat = nil
if rps > 0 then
  local interval = 1000 / rps
  tat = math.max(tonumber(redis.call('GET', rl) or '0'), now)
  local allow_at = tat + interval - 1000
  if allow_at > now then return {1, math.ceil(allow_at - now)} end
  tat = tat + interval
end

local used = math.max(tonumber(redis.call('GET', q) or '0'), qfloor)
if quota >= 0 and used >= quota then return {2, 0} end
local pused = math.max(tonumber(redis.call('GET', p) or '0'), pfloor)
if hardcap and pused >= plimit then return {3, 0} end

if price > 0 then
  local held = tonumber(redis.call('GET', committed) or '0')
  -- in flight, per holder: a holder no longer in the set of queues has died (its queue was
  -- adopted), and what it held goes with it
  local fields = redis.call('HGETALL', inflight)
  for i = 1, #fields, 2 do
    if redis.call('SISMEMBER', holders, fields[i]) == 1 then
      held = held + tonumber(fields[i + 1])
    else
      redis.call('HDEL', inflight, fields[i])
    end
  end
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ack, fetched, '+inf')) do
    held = held + tonumber(string.match(member, '|(-?%d+)$'))
  end
  if balance - held < price then return {4, 0} end
  redis.call('HINCRBY', inflight, holder, price)
  redis.call('PEXPIRE', inflight, ttl)
end

if tat then redis.call('SET', rl, tat, 'PX', 2000) end
redis.call('SET', q, used + 1, 'PX', ttl)
redis.call('SET', p, pused + 1, 'PX', ttl)
return {0, 0}
`;

/** Part of a holder's in-flight hold ends (a request not billed in full); an emptied field goes. */
const RELEASE = `
if redis.call('HINCRBY', KEYS[1], ARGV[1], -tonumber(ARGV[2])) == 0 then redis.call('HDEL', KEYS[1], ARGV[1]) end
return 1
`;

export type SharedOutcome =
  | { ok: true; holder: string }
  | { ok: false; reason: 'rate_limited'; retryAfterMs: number }
  | { ok: false; reason: 'quota_exceeded' | 'platform_limit' | 'insufficient_credit' };

export interface ReserveInput {
  customerId: string;
  now: number;
  rps: number;
  /** null: no quota. */
  quota: number | null;
  monthFloor: number;
  platform: { limit: number; floor: number; hardCap: boolean };
  /** Held while the request is in flight; 0 when the customer is not charged per request. */
  hold: number;
  snapshot: { generatedAt: number; balance: number; fetchStartedAt: number };
  /** Epoch ms of the period end: keys of the period expire a day after it. */
  periodEnd: number;
}

const codes = ['ok', 'rate_limited', 'quota_exceeded', 'platform_limit', 'insufficient_credit'] as const;

/** The API's set of usage queues (usage/redis-queue.ts): membership is what keeps a holder's holds. */
export function queueRegistryKey(tenantId: string): string {
  return `gh:{${tenantId}}:usage:queues`;
}

/** Who holds in-flight credit: this process's usage queue, once registered in the set of queues. */
export interface Holder {
  /** The queue's current id, once it is in the set of queues (rejects when Redis cannot answer). */
  id(): Promise<string>;
}

/** Charges finished under a holder and not yet committed, to move with the next commit. */
export interface HoldMoves {
  /** Per move, the customer's in-flight hash and committed counter. */
  keys: string[];
  /** Per move, the holder and the amount. */
  args: (string | number)[];
  count: number;
  /** The commit did not happen: the charges stay with their holders until the next one. */
  undo(): void;
}

export class SharedLimits {
  readonly #redis: RedisLike & {
    ghReserve?: (...args: (string | number)[]) => Promise<[number, number]>;
    ghRelease?: (...args: (string | number)[]) => Promise<number>;
    ghAcknowledge?: (...args: (string | number)[]) => Promise<number>;
  };
  /** Finished charges by customer and holder, waiting for the next commit of the usage queue. */
  #finished = new Map<string, { customerId: string; holder: string; amount: number }>();

  /** `tenantId` names the API: all its keys share one hash tag, so a reservation is one slot in Redis Cluster. */
  constructor(redis: RedisLike, private readonly tenantId: string, private readonly holder: Holder) {
    this.#redis = redis;
    redis.defineCommand('ghReserve', { numberOfKeys: 8, lua: RESERVE });
    redis.defineCommand('ghRelease', { numberOfKeys: 1, lua: RELEASE });
    redis.defineCommand('ghAcknowledge', { numberOfKeys: 2, lua: ACKNOWLEDGE });
  }

  #key(kind: string, customerId: string | null, period?: number) {
    return `gh:{${this.tenantId}}:${kind}:${customerId ?? '*'}${period ? `:${period}` : ''}`;
  }

  /** Reserves a request's share of every limit; an admitted one names the holder of its hold. */
  async reserve(input: ReserveInput): Promise<SharedOutcome> {
    const ttl = Math.max(60_000, input.periodEnd - input.now + 86_400_000);
    const c = input.customerId;
    // Registered first: a hold under an id not yet in the set of queues would be dropped at once.
    const holder = await this.holder.id();
    const [code, retry] = await this.#redis.ghReserve!(
      this.#key('rl', c),
      this.#key('q', c, input.periodEnd),
      this.#key('p', null, input.periodEnd),
      this.#key('hold', c),
      this.#key('ack', c),
      this.#key('bal', c),
      this.#key('inflight', c),
      queueRegistryKey(this.tenantId),
      input.now,
      input.rps,
      input.quota ?? -1,
      input.monthFloor,
      input.platform.limit,
      input.platform.floor,
      input.platform.hardCap ? '1' : '0',
      input.hold,
      input.snapshot.generatedAt,
      input.snapshot.balance,
      input.snapshot.fetchStartedAt,
      ttl,
      holder,
    );
    const reason = codes[code] ?? 'ok';
    if (reason === 'ok') return { ok: true, holder };
    if (reason === 'rate_limited') return { ok: false, reason, retryAfterMs: retry };
    return { ok: false, reason };
  }

  /**
   * A request admitted under `holder` finished: `released` of its hold ends now (it was not billed
   * in full) and `charge` stays held until the usage queue commits it (see takeMoves).
   */
  async finish(customerId: string, holder: string, released: number, charge: number): Promise<void> {
    if (charge > 0) {
      const id = `${customerId}\n${holder}`;
      const pending = this.#finished.get(id);
      if (pending) pending.amount += charge;
      else this.#finished.set(id, { customerId, holder, amount: charge });
    }
    if (released > 0) await this.#redis.ghRelease!(this.#key('inflight', customerId), holder, released);
  }

  /** The finished charges to move from their holders to the committed counters, with the commit. */
  takeMoves(): HoldMoves | null {
    if (this.#finished.size === 0) return null;
    const taken = this.#finished;
    this.#finished = new Map();
    const keys: string[] = [];
    const args: (string | number)[] = [];
    for (const move of taken.values()) {
      keys.push(this.#key('inflight', move.customerId), this.#key('hold', move.customerId));
      args.push(move.holder, move.amount);
    }
    return {
      keys,
      args,
      count: taken.size,
      undo: () => {
        for (const [id, move] of taken) {
          const pending = this.#finished.get(id);
          if (pending) pending.amount += move.amount;
          else this.#finished.set(id, move);
        }
      },
    };
  }

  /** A committed charge will not be delivered (its usage was set aside): it is held no more. */
  async releaseCommitted(customerId: string, amount: number): Promise<void> {
    if (amount > 0) await this.#redis.decrby(this.#key('hold', customerId), amount);
  }

  /** Gatehouse acknowledged a charge: it leaves the holds and waits for a snapshot to show it. */
  async acknowledge(customerId: string, bucketKey: string, amount: number, at: number): Promise<void> {
    if (amount <= 0) return;
    await this.#redis.ghAcknowledge!(this.#key('hold', customerId), this.#key('ack', customerId), at, `${bucketKey}|${amount}`, amount, 7 * 86_400_000);
  }
}
