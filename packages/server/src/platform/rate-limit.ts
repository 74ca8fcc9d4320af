import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** A named limit: `points` requests per `durationS` seconds for one key (an address, an e-mail). */
export interface RateLimitRule {
  name: string;
  points: number;
  durationS: number;
}

/** `remaining`: what is left of the allowance after this request (0: this one used the last). */
export type RateLimitOutcome = { allowed: true; remaining: number } | { allowed: false; retryAfterS: number };

/**
 * Rate limits shared by every node when Redis is configured, in memory otherwise. When Redis
 * fails, an in-memory limiter stands in so a Redis outage neither opens nor closes the door.
 */
export class RateLimits {
  readonly #limiters = new Map<string, RateLimiterAbstract>();
  constructor(
    private readonly redis: Redis | null,
    private readonly keyPrefix: string,
  ) {}

  #limiter(rule: RateLimitRule): RateLimiterAbstract {
    const id = `${rule.name}:${rule.points}:${rule.durationS}`;
    let limiter = this.#limiters.get(id);
    if (!limiter) {
      const base = { points: rule.points, duration: rule.durationS, keyPrefix: `${this.keyPrefix}:rl:${rule.name}` };
      const memory = new RateLimiterMemory(base);
      limiter = this.redis ? new RateLimiterRedis({ ...base, storeClient: this.redis, insuranceLimiter: memory }) : memory;
      this.#limiters.set(id, limiter);
    }
    return limiter;
  }

  async consume(rule: RateLimitRule, key: string, points = 1): Promise<RateLimitOutcome> {
    try {
      const res = await this.#limiter(rule).consume(key, points);
      return { allowed: true, remaining: res.remainingPoints };
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        return { allowed: false, retryAfterS: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
      }
      throw error;
    }
  }

  /** Whether a key still has allowance, without spending any. */
  async peek(rule: RateLimitRule, key: string): Promise<RateLimitOutcome> {
    const res = await this.#limiter(rule).get(key);
    const consumed = res?.consumedPoints ?? 0;
    if (res && consumed >= rule.points) return { allowed: false, retryAfterS: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
    return { allowed: true, remaining: rule.points - consumed };
  }

  /** Forgets a key's count, for example the failed logins of an address once it signs in. */
  async reset(rule: RateLimitRule, key: string): Promise<void> {
    await this.#limiter(rule).delete(key);
  }
}
