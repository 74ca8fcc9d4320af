import type { UsageItem } from '@gatehouse/protocol';
import { randomUUID } from 'node:crypto';

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
  /** The count and charge already durable in the usage store (journal file or Redis queue). */
  committedCount: number;
  committedMicro: number;
  /** In the recorder's list of buckets with requests not yet committed. */
  dirty: boolean;
  /** The bucket's number in the current journal file; 0 while not declared there. */
  journalId: number;
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

/** A bucket as a store recovers it: its requests are all committed. */
export function recoveredBucket(b: Pick<Bucket, 'key' | 'keyId' | 'policyId' | 'status' | 'hour' | 'count' | 'chargeMicro' | 'customerId'>): Bucket {
  return { ...b, committedCount: b.count, committedMicro: b.chargeMicro, dirty: false, journalId: 0 };
}

interface OpenBucket extends Bucket {
  /** The key's other open buckets (another policy, status or hour). */
  next: OpenBucket | undefined;
}

/**
 * Where a caller keeps the bucket its key's last request went to (the meter keeps one per key of
 * the snapshot): a request of the same policy, status and hour then adds to it without a map
 * lookup. It is good while no bucket has been sealed or handed over since (`generation`).
 */
export interface BucketHint {
  bucket: Bucket | undefined;
  generation: number;
}

const HOUR_MS = 3_600_000;
/** Wire protocol section 4: live merging puts at most 10,000 requests in one item. */
export const MAX_LIVE_COUNT = 10_000;

/**
 * Merges finished requests into buckets. An open bucket keeps growing; delivery seals it, and
 * later requests start a new bucket with a new idempotency key, because Gatehouse pins a key to
 * the exact payload it first received. Recording a request only counts: the usage store makes
 * the counts durable in groups (`takeDirty`), one record per bucket per group, not per request.
 */
export class Recorder {
  /**
   * Open buckets by key id, as a list (one per policy, status and hour the key was used with),
   * newest first: finding a request's bucket is one lookup and, nearly always, one comparison.
   */
  readonly #open = new Map<string, OpenBucket>();
  /** Sealed buckets waiting for Gatehouse to acknowledge them. */
  readonly sealed = new Map<string, Bucket>();
  #dirty: Bucket[] = [];
  /** Changes whenever an open bucket stops being open (sealed, handed over): hints older than it are stale. */
  #generation = 0;
  #requests = 0;
  #openBuckets = 0;
  /** How many times this recorder handed its committed usage over (see handOver). */
  handOvers = 0;
  // Formatting a date costs more than the rest of recording a request, so the hour's text is
  // kept until the clock leaves that hour.
  #hourStart = Number.NaN;
  #hourEnd = Number.NaN;
  #hour = '';

  /** @param onDirty called when a bucket gets requests to commit and none had any before. */
  constructor(private readonly onDirty: () => void) {}

  /** Requests recorded and not yet acknowledged. */
  get pendingRequests(): number {
    return this.#requests;
  }

  /** Open buckets: the items the next delivery will send besides those already sealed. */
  get openBuckets(): number {
    return this.#openBuckets;
  }

  #hourOf(ms: number): string {
    if (!(ms >= this.#hourStart && ms < this.#hourEnd)) {
      this.#hourStart = Math.floor(ms / HOUR_MS) * HOUR_MS;
      this.#hourEnd = this.#hourStart + HOUR_MS;
      this.#hour = hourOf(this.#hourStart);
    }
    return this.#hour;
  }

  /** Records one finished request; `hint`, when given, is read and updated (see BucketHint). */
  record(keyId: string, policyId: string | null, status: number, at: number, chargeMicro: number, customerId: string, hint?: BucketHint): void {
    const hour = this.#hourOf(at);
    const last = hint?.bucket;
    if (last !== undefined && hint!.generation === this.#generation && last.status === status && last.policyId === policyId && last.hour === hour && last.count < MAX_LIVE_COUNT) {
      this.#grow(last, 1, chargeMicro);
      return;
    }
    const bucket = this.#add(keyId, policyId, status, hour, 1, chargeMicro, customerId);
    if (hint) {
      hint.bucket = bucket;
      hint.generation = this.#generation;
    }
  }

  #add(keyId: string, policyId: string | null, status: number, hour: string, count: number, chargeMicro: number, customerId: string): Bucket {
    const newest = this.#open.get(keyId);
    let bucket = newest;
    while (bucket !== undefined && !(bucket.status === status && bucket.policyId === policyId && bucket.hour === hour)) bucket = bucket.next;
    if (bucket === undefined || bucket.count + count > MAX_LIVE_COUNT) {
      if (bucket !== undefined) this.#sealOne(keyId, bucket);
      bucket = { key: randomUUID(), keyId, policyId, status, hour, count: 0, chargeMicro: 0, customerId, committedCount: 0, committedMicro: 0, dirty: false, journalId: 0, next: this.#open.get(keyId) };
      this.#open.set(keyId, bucket);
      this.#openBuckets++;
    }
    this.#grow(bucket, count, chargeMicro);
    return bucket;
  }

  #grow(bucket: Bucket, count: number, chargeMicro: number): void {
    bucket.count += count;
    bucket.chargeMicro += chargeMicro;
    this.#requests += count;
    if (!bucket.dirty) {
      bucket.dirty = true;
      this.#dirty.push(bucket);
      if (this.#dirty.length === 1) this.onDirty();
    }
  }

  /** A full bucket leaves the open list for the sealed ones (it is sent with the next delivery). */
  #sealOne(keyId: string, full: OpenBucket) {
    let previous: OpenBucket | undefined;
    for (let b = this.#open.get(keyId); b !== undefined && b !== full; b = b.next) previous = b;
    if (previous) previous.next = full.next;
    else if (full.next) this.#open.set(keyId, full.next);
    else this.#open.delete(keyId);
    full.next = undefined;
    this.sealed.set(full.key, full);
    this.#openBuckets--;
    this.#generation++;
  }

  /** Buckets with requests not yet committed; the caller commits them and marks them so. */
  takeDirty(): Bucket[] {
    const dirty = this.#dirty;
    this.#dirty = [];
    for (const bucket of dirty) bucket.dirty = false;
    return dirty;
  }

  /** A bucket whose commit failed: committed again with the next group. */
  markDirty(bucket: Bucket): void {
    if (bucket.dirty || bucket.count === bucket.committedCount) return;
    bucket.dirty = true;
    this.#dirty.push(bucket);
    if (this.#dirty.length === 1) this.onDirty();
  }

  /** Every bucket not yet acknowledged, open or sealed (what a compacted journal must hold). */
  *live(): IterableIterator<Bucket> {
    for (const newest of this.#open.values()) for (let b: OpenBucket | undefined = newest; b; b = b.next) yield b;
    yield* this.sealed.values();
  }

  /** Adds buckets a store recovered (a previous process's, or a dead one's): sealed, committed. */
  adopt(buckets: Bucket[]): void {
    for (const bucket of buckets) {
      this.sealed.set(bucket.key, bucket);
      this.#requests += bucket.count;
    }
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
    this.#openBuckets = 0;
    this.#generation++;
    return [...this.sealed.values()];
  }

  /** Gatehouse took the bucket (accepted, duplicate) or it was set aside (rejected). */
  settle(key: string): Bucket | undefined {
    const bucket = this.sealed.get(key);
    if (!bucket) return undefined;
    this.sealed.delete(key);
    this.#requests -= bucket.count;
    return bucket;
  }

  /**
   * Everything committed so far now belongs to another process (it took over this process's
   * Redis queue): forgets those requests, and keeps the uncommitted rest under new keys.
   * Returns the buckets let go, so their credit holds can be released locally.
   */
  handOver(): Bucket[] {
    const all = [...this.live()];
    this.handOvers++;
    this.#generation++;
    this.#open.clear();
    this.sealed.clear();
    this.#dirty = [];
    this.#requests = 0;
    this.#openBuckets = 0;
    for (const bucket of all) {
      bucket.dirty = false;
      const count = bucket.count - bucket.committedCount;
      if (count > 0) this.#add(bucket.keyId, bucket.policyId, bucket.status, bucket.hour, count, bucket.chargeMicro - bucket.committedMicro, bucket.customerId);
      bucket.count = bucket.committedCount;
      bucket.chargeMicro = bucket.committedMicro;
    }
    return all;
  }

  get idle(): boolean {
    return this.#open.size === 0 && this.sealed.size === 0;
  }
}
