import type { UsageItem } from '@gatehouse/protocol';
import { randomUUID } from 'node:crypto';
import type { Journal, JournalLine } from './journal.js';

/** Requests of one key, policy, status and UTC hour, under one idempotency key. */
export interface Bucket {
  key: string;
  keyId: string;
  policyId: string | null;
  status: number;
  hour: string;
  count: number;
  chargeMicro: number;
  customerId: string;
}

export function toItem(bucket: Bucket): UsageItem {
  return {
    idempotency_key: bucket.key,
    api_key_id: bucket.keyId,
    // Omitted, not null, when the customer had no policy (wire protocol section 4).
    ...(bucket.policyId ? { usage_policy_id: bucket.policyId } : {}),
    status_code: bucket.status,
    count: bucket.count,
    period_start: bucket.hour,
  };
}

/** The UTC hour of `ms` as the wire protocol writes period_start. */
export function hourOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 13) + ':00:00Z';
}

/**
 * Merges finished requests into buckets. An open bucket keeps growing; delivery seals it, and
 * later requests start a new bucket with a new idempotency key, because Gatehouse pins a key to
 * the exact payload it first received.
 */
export class Recorder {
  readonly #open = new Map<string, Bucket>();
  /** Sealed buckets waiting for Gatehouse to acknowledge them. */
  readonly sealed = new Map<string, Bucket>();
  #requests = 0;

  constructor(private readonly journal: Journal) {}

  /** Requests recorded and not yet acknowledged. */
  get pendingRequests(): number {
    return this.#requests;
  }

  record(e: { keyId: string; policyId: string | null; status: number; at: number; chargeMicro: number; customerId: string }): void {
    const hour = hourOf(e.at);
    const group = `${e.keyId}|${e.policyId}|${e.status}|${hour}`;
    let bucket = this.#open.get(group);
    if (!bucket) {
      bucket = { key: randomUUID(), keyId: e.keyId, policyId: e.policyId, status: e.status, hour, count: 0, chargeMicro: 0, customerId: e.customerId };
      this.#open.set(group, bucket);
    }
    bucket.count += 1;
    bucket.chargeMicro += e.chargeMicro;
    this.#requests += 1;
    this.journal.append({ t: 'e', k: bucket.key, a: e.keyId, p: e.policyId, s: e.status, h: hour, n: 1, c: e.chargeMicro, u: e.customerId });
  }

  /** Rebuilds sealed buckets from journal lines a previous process left (same keys, same totals). */
  recover(lines: JournalLine[]): Bucket[] {
    for (const line of lines) {
      if (line.t !== 'e') continue;
      let bucket = this.sealed.get(line.k);
      if (!bucket) {
        bucket = { key: line.k, keyId: line.a, policyId: line.p, status: line.s, hour: line.h, count: 0, chargeMicro: 0, customerId: line.u };
        this.sealed.set(line.k, bucket);
      }
      bucket.count += line.n;
      bucket.chargeMicro += line.c;
      this.#requests += line.n;
    }
    return [...this.sealed.values()];
  }

  /** Seals every open bucket; returns all sealed buckets. */
  seal(): Bucket[] {
    for (const bucket of this.#open.values()) this.sealed.set(bucket.key, bucket);
    this.#open.clear();
    return [...this.sealed.values()];
  }

  /** Gatehouse took the bucket (accepted, duplicate) or it was set aside (rejected). */
  settle(key: string): Bucket | undefined {
    const bucket = this.sealed.get(key);
    if (!bucket) return undefined;
    this.sealed.delete(key);
    this.#requests -= bucket.count;
    this.journal.append({ t: 'a', k: key });
    return bucket;
  }

  get idle(): boolean {
    return this.#open.size === 0 && this.sealed.size === 0;
  }
}
