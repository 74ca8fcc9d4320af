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

/** An open bucket, with the parts of its journal line that do not change between requests. */
interface OpenBucket extends Bucket {
  /** `{"t":"e",…,"n":1,"c":`: everything before the charge (empty until journaled). */
  lineHead: string;
  /** `,"u":"cus_…"}` and the newline: everything after it. */
  lineTail: string;
  /** The key's other open buckets (another policy, status or hour). */
  next: OpenBucket | undefined;
}

const HOUR_MS = 3_600_000;

/**
 * Merges finished requests into buckets. An open bucket keeps growing; delivery seals it, and
 * later requests start a new bucket with a new idempotency key, because Gatehouse pins a key to
 * the exact payload it first received.
 */
export class Recorder {
  /**
   * Open buckets by key id, as a list (one per policy, status and hour the key was used with),
   * newest first: finding a request's bucket is one lookup and, nearly always, one comparison.
   */
  readonly #open = new Map<string, OpenBucket>();
  /** Sealed buckets waiting for Gatehouse to acknowledge them. */
  readonly sealed = new Map<string, Bucket>();
  #requests = 0;
  // Formatting a date costs more than the rest of recording a request, so the hour's text is
  // kept until the clock leaves that hour.
  #hourStart = Number.NaN;
  #hour = '';

  constructor(private readonly journal: Journal) {}

  /** Requests recorded and not yet acknowledged. */
  get pendingRequests(): number {
    return this.#requests;
  }

  #hourOf(ms: number): string {
    const start = Math.floor(ms / HOUR_MS) * HOUR_MS;
    if (start !== this.#hourStart) {
      this.#hour = hourOf(start);
      this.#hourStart = start;
    }
    return this.#hour;
  }

  record(e: { keyId: string; policyId: string | null; status: number; at: number; chargeMicro: number; customerId: string }): void {
    const hour = this.#hourOf(e.at);
    const newest = this.#open.get(e.keyId);
    let bucket = newest;
    while (bucket && !(bucket.status === e.status && bucket.policyId === e.policyId && bucket.hour === hour)) bucket = bucket.next;
    if (!bucket) {
      bucket = { key: randomUUID(), keyId: e.keyId, policyId: e.policyId, status: e.status, hour, count: 0, chargeMicro: 0, customerId: e.customerId, lineHead: '', lineTail: '', next: newest };
      this.#open.set(e.keyId, bucket);
    }
    bucket.count += 1;
    bucket.chargeMicro += e.chargeMicro;
    this.#requests += 1;
    if (this.journal.path === null) return;
    if (!bucket.lineHead) {
      // The same bytes as JSON.stringify of the whole JournalLine, built once per bucket. The key
      // (a UUID) and the hour need no escaping; names from Gatehouse are quoted by JSON.stringify.
      const policy = bucket.policyId === null ? 'null' : JSON.stringify(bucket.policyId);
      bucket.lineHead = `{"t":"e","k":"${bucket.key}","a":${JSON.stringify(bucket.keyId)},"p":${policy},"s":${bucket.status},"h":"${hour}","n":1,"c":`;
      bucket.lineTail = `,"u":${JSON.stringify(bucket.customerId)}}\n`;
    }
    this.journal.appendSerialized(bucket.lineHead + JSON.stringify(e.chargeMicro) + bucket.lineTail);
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
    for (const newest of this.#open.values()) {
      let bucket: OpenBucket | undefined = newest;
      while (bucket) {
        const next: OpenBucket | undefined = bucket.next;
        bucket.next = undefined; // a sealed bucket must not keep settled ones alive
        this.sealed.set(bucket.key, bucket);
        bucket = next;
      }
    }
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
