import type { Redis } from 'ioredis';
import { BoundedCache } from './bounded-cache.js';
import type { Clock } from './clock.js';

/** A limit of `ratePerS` a second on average with bursts of up to `burst` (a token bucket). */
export interface BucketRule {
  name: string;
  ratePerS: number;
  burst: number;
}

export type BucketOutcome = { allowed: true } | { allowed: false; retryAfterS: number };

// GCRA (the token bucket as one timestamp per key): the "theoretical arrival time" advances by
// one emission interval per request; a request is refused when it would run more than the burst
// ahead of now. KEYS[1] key; ARGV now ms, interval ms, burst tolerance ms.
const GCRA_SCRIPT = `
local now = tonumber(ARGV[1])
local interval = tonumber(ARGV[2])
local tolerance = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local next_tat = tat + interval
if next_tat - now > tolerance then return next_tat - tolerance - now end
redis.call('SET', KEYS[1], next_tat, 'PX', math.ceil(tolerance + interval))
return 0`;

/**
 * Token-bucket limits (spec 8: introspection 100/s with bursts up to 1000). Shared by every node
 * through Redis when configured (one round trip, one script); in memory otherwise. Time comes from
 * the service clock, so tests can hold it still and count to the burst exactly.
 */
export class TokenBuckets {
  readonly #memory = new BoundedCache<string, number>(100_000);
  #scriptLoaded = false;

  constructor(
    private readonly redis: Redis | null,
    private readonly keyPrefix: string,
    private readonly clock: Clock,
  ) {}

  async take(rule: BucketRule, key: string): Promise<BucketOutcome> {
    const now = this.clock.now().getTime();
    const interval = 1000 / rule.ratePerS;
    const tolerance = interval * rule.burst;
    const id = `${this.keyPrefix}:tb:${rule.name}:${key}`;
    let waitMs: number;
    if (this.redis) {
      try {
        waitMs = Number(await this.#eval(id, now, interval, tolerance));
      } catch {
        // Redis down: each node limits on its own rather than letting everything through.
        waitMs = this.#takeInMemory(id, now, interval, tolerance);
      }
    } else {
      waitMs = this.#takeInMemory(id, now, interval, tolerance);
    }
    return waitMs <= 0 ? { allowed: true } : { allowed: false, retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  #takeInMemory(id: string, now: number, interval: number, tolerance: number): number {
    const tat = Math.max(this.#memory.get(id) ?? now, now);
    const next = tat + interval;
    if (next - now > tolerance) return next - tolerance - now;
    this.#memory.set(id, next);
    return 0;
  }

  async #eval(id: string, now: number, interval: number, tolerance: number): Promise<unknown> {
    const redis = this.redis!;
    if (!this.#scriptLoaded) {
      redis.defineCommand('ghGcra', { numberOfKeys: 1, lua: GCRA_SCRIPT });
      this.#scriptLoaded = true;
    }
    return (redis as unknown as { ghGcra(key: string, ...args: number[]): Promise<unknown> }).ghGcra(id, now, interval, tolerance);
  }
}
