/** Drops the oldest-inserted entry of a Map at its bound: every cache of the verifier is bounded so. */
export function setBounded<K, V>(map: Map<K, V>, key: K, value: V, bound: number): void {
  if (!map.has(key) && map.size >= bound) map.delete(map.keys().next().value as K);
  map.set(key, value);
}

/**
 * Spec 4.4's abuse guard: after `limit` bad keys (unknown, revoked, mistyped) from one client
 * address within `windowMs`, that address gets 429 without asking the service. A sliding window
 * kept exactly: the times of the last `limit` bad keys of each address, oldest first.
 */
export class BadKeyGuard {
  readonly #times = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly maxAddresses: number,
  ) {}

  /** Milliseconds until `address` may try keys again; 0 when it may now. */
  blockedFor(address: string, now: number): number {
    if (this.#times.size === 0) return 0;
    const times = this.#times.get(address);
    if (!times || times.length < this.limit) return 0;
    const until = times[0]! + this.windowMs;
    return until > now ? until - now : 0;
  }

  recordBad(address: string, now: number): void {
    let times = this.#times.get(address);
    if (!times) setBounded(this.#times, address, (times = []), this.maxAddresses);
    times.push(now);
    if (times.length > this.limit) times.shift();
  }

  get size(): number {
    return this.#times.size;
  }
}

/**
 * `requests_per_minute` per person (`sub`), across all of their keys (spec 4.4): a token bucket
 * holding at most `rpm` requests, refilled at `rpm` per minute. A full minute's requests may come
 * at once, and no window edge lets twice the limit through. Buckets of people not seen for a
 * while are dropped at the bound, oldest first (they would be full again anyway after a minute).
 */
export class PersonRate {
  readonly #buckets = new Map<string, { tokens: number; at: number; rpm: number }>();

  constructor(private readonly maxPeople: number) {}

  /** Takes one request for `sub` under `rpm`: 0 when admitted, else milliseconds until one fits. */
  take(sub: string, rpm: number, now: number): number {
    let bucket = this.#buckets.get(sub);
    if (!bucket) {
      bucket = { tokens: rpm, at: now, rpm };
      setBounded(this.#buckets, sub, bucket, this.maxPeople);
    } else {
      // A changed limit (the owner edited the server) applies from now, keeping what was used.
      if (bucket.rpm !== rpm) {
        bucket.tokens = Math.min(bucket.tokens, rpm);
        bucket.rpm = rpm;
      }
      const refill = ((now - bucket.at) * rpm) / 60_000;
      if (refill > 0) bucket.tokens = Math.min(rpm, bucket.tokens + refill);
      bucket.at = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.ceil(((1 - bucket.tokens) * 60_000) / rpm);
  }

  get size(): number {
    return this.#buckets.size;
  }
}
