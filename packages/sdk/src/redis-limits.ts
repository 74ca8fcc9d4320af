/**
 * Limits shared by every process of an API through Redis: one Lua script, one round trip, checks
 * and reserves rate, quota, platform allowance and credit atomically, so processes together never
 * overspend or overshoot. When Redis cannot answer, admission fails closed (503).
 *
 * Credit is reconciled without a writer of its own: each reservation brings the balance of the
 * caller's snapshot (its generated_at and the time its fetch started); the newest one wins. Holds of
 * requests in flight or not yet acknowledged are one counter; acknowledged charges are kept in a
 * sorted set by acknowledgement time and count only while newer than the fetch behind the stored
 * balance (a snapshot fetched after an acknowledgement already shows the debit).
 */

/** The subset of an ioredis client this module uses (ioredis is an optional peer). */
export interface RedisLike {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
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
local rl, q, p, hold, ack, bal = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local now, rps = tonumber(ARGV[1]), tonumber(ARGV[2])
local quota, qfloor = tonumber(ARGV[3]), tonumber(ARGV[4])
local plimit, pfloor, hardcap = tonumber(ARGV[5]), tonumber(ARGV[6]), ARGV[7] == '1'
local price, gen, balance, fetched = tonumber(ARGV[8]), tonumber(ARGV[9]), tonumber(ARGV[10]), tonumber(ARGV[11])
local ttl = tonumber(ARGV[12])

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
  local held = tonumber(redis.call('GET', hold) or '0')
  local acked = 0
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', ack, fetched, '+inf')) do
    acked = acked + tonumber(string.match(member, '|(-?%d+)$'))
  end
  if balance - held - acked < price then return {4, 0} end
  redis.call('INCRBY', hold, price)
  redis.call('PEXPIRE', hold, ttl)
end

if tat then redis.call('SET', rl, tat, 'PX', 2000) end
redis.call('SET', q, used + 1, 'PX', ttl)
redis.call('SET', p, pused + 1, 'PX', ttl)
return {0, 0}
`;

export type SharedOutcome =
  | { ok: true }
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

export class SharedLimits {
  readonly #redis: RedisLike & {
    ghReserve?: (...args: (string | number)[]) => Promise<[number, number]>;
    ghAcknowledge?: (...args: (string | number)[]) => Promise<number>;
  };

  /** `tenantId` names the API: all its keys share one hash tag, so a reservation is one slot in Redis Cluster. */
  constructor(redis: RedisLike, private readonly tenantId: string) {
    this.#redis = redis;
    redis.defineCommand('ghReserve', { numberOfKeys: 6, lua: RESERVE });
    redis.defineCommand('ghAcknowledge', { numberOfKeys: 2, lua: ACKNOWLEDGE });
  }

  #key(kind: string, customerId: string | null, period?: number) {
    return `gh:{${this.tenantId}}:${kind}:${customerId ?? '*'}${period ? `:${period}` : ''}`;
  }

  async reserve(input: ReserveInput): Promise<SharedOutcome> {
    const ttl = Math.max(60_000, input.periodEnd - input.now + 86_400_000);
    const c = input.customerId;
    const [code, retry] = await this.#redis.ghReserve!(
      this.#key('rl', c),
      this.#key('q', c, input.periodEnd),
      this.#key('p', null, input.periodEnd),
      this.#key('hold', c),
      this.#key('ack', c),
      this.#key('bal', c),
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
    );
    const reason = codes[code] ?? 'ok';
    if (reason === 'ok') return { ok: true };
    if (reason === 'rate_limited') return { ok: false, reason, retryAfterMs: retry };
    return { ok: false, reason };
  }

  /** A hold ends: the request was not billable, or its usage was set aside. */
  async release(customerId: string, amount: number): Promise<void> {
    if (amount > 0) await this.#redis.decrby(this.#key('hold', customerId), amount);
  }

  /** Gatehouse acknowledged a charge: it leaves the holds and waits for a snapshot to show it. */
  async acknowledge(customerId: string, bucketKey: string, amount: number, at: number): Promise<void> {
    if (amount <= 0) return;
    await this.#redis.ghAcknowledge!(this.#key('hold', customerId), this.#key('ack', customerId), at, `${bucketKey}|${amount}`, amount, 7 * 86_400_000);
  }
}
