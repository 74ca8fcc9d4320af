import type { UsageResult, WireBalance } from '@gatehouse/protocol';
import { AuthorizationError, TerminalReportError, type ControlClient } from '../control-client.js';
import type { DeadLetters } from './dead-letters.js';
import { toItem, type Bucket, type Recorder } from './recorder.js';
import type { UsageStore } from './store.js';

/** Items per POST, as the public SDK sends them; Gatehouse takes up to 10,000. */
const ITEMS_PER_REPORT = 500;

export interface ReporterHooks {
  /**
   * Gatehouse has the usage (accepted or duplicate): its charge is now in Gatehouse's ledger.
   * `balance` is the customer's balance the answer reported (servers that send them), which
   * shows that charge.
   */
  onAcknowledged(bucket: Bucket, balance: WireBalance | undefined): void;
  /** Set aside as a dead letter: its hold is released. */
  onRejected(bucket: Bucket): void;
  onAuthorizationInvalid(): void;
  now(): number;
}

/**
 * Delivers sealed buckets. A terminal answer (400, 402, 409, 422) to a batch splits it in halves
 * until the one bad item is found and set aside, so one poisoned item never blocks the rest.
 */
export class Reporter {
  #running: Promise<void> | null = null;
  /** The pass that runs after the one under way, shared by everyone who asked meanwhile. */
  #next: Promise<void> | null = null;
  failures = 0;
  deadLettered = 0;

  constructor(
    private readonly client: ControlClient,
    private readonly recorder: Recorder,
    private readonly store: UsageStore,
    private readonly deadLetters: DeadLetters,
    private readonly hooks: ReporterHooks,
  ) {}

  /**
   * One delivery pass that starts after this call, so it includes every request finished before
   * it. Resolves when it ends; throws on transient failure. A pass under way sealed its buckets
   * before the caller's latest requests, so joining it returned with those still queued (and
   * close() left them behind, lost without a journal): the caller gets the next pass instead.
   */
  deliver(): Promise<void> {
    if (this.#running) {
      this.#next ??= this.#running
        .catch(() => undefined)
        .then(() => {
          this.#next = null;
          return this.deliver();
        });
      return this.#next;
    }
    this.#running = this.#pass().finally(() => (this.#running = null));
    return this.#running;
  }

  async #pass(): Promise<void> {
    // Durable first: nothing is sent that the store could not replay after a crash. Sealed
    // before the commit, so every request of a sealed bucket is committed: the other way round, a
    // request finished during the commit was sealed and sent uncommitted, and a crash then left a
    // journal that disagreed with what Gatehouse had.
    let buckets = this.recorder.seal();
    const handOvers = this.recorder.handOvers;
    await this.store.commit();
    if (this.recorder.handOvers !== handOvers) {
      // The commit found this process's Redis queue adopted: what was sealed is the adopter's now,
      // and the rest was recorded again under new keys, which this pass delivers.
      buckets = this.recorder.seal();
      await this.store.commit();
    }
    for (let i = 0; i < buckets.length; i += ITEMS_PER_REPORT) {
      await this.#send(buckets.slice(i, i + ITEMS_PER_REPORT));
    }
  }

  async #send(batch: Bucket[]): Promise<void> {
    let results: UsageResult[];
    let balances: Map<string, WireBalance>;
    try {
      ({ results, balances } = await this.client.usage(batch.map(toItem)));
    } catch (error) {
      if (error instanceof TerminalReportError) {
        if (batch.length === 1) return this.#reject(batch[0]!, error.message);
        const half = Math.ceil(batch.length / 2);
        await this.#send(batch.slice(0, half));
        await this.#send(batch.slice(half));
        return;
      }
      this.failures++;
      if (error instanceof AuthorizationError) this.hooks.onAuthorizationInvalid();
      throw error;
    }
    const byKey = new Map(batch.map((b) => [b.key, b]));
    const seen = new Set<string>();
    const settled: Bucket[] = [];
    for (const result of results) {
      const bucket = result && typeof result === 'object' ? byKey.get(result.idempotency_key) : undefined;
      // A malformed or repeated entry is ignored: that bucket stays sealed and is sent again.
      if (!bucket || seen.has(bucket.key)) continue;
      seen.add(bucket.key);
      if (result.status === 'accepted' || result.status === 'duplicate') {
        // Not ours any more when another process took this one's queue over: it acknowledges it.
        if (!this.recorder.settle(bucket.key)) continue;
        settled.push(bucket);
        this.hooks.onAcknowledged(bucket, balances.get(bucket.customerId));
      } else if (result.status === 'rejected') {
        await this.#reject(bucket, typeof result.detail === 'string' ? result.detail.slice(0, 2000) : 'rejected');
      }
    }
    this.store.acknowledge(settled);
  }

  async #reject(bucket: Bucket, detail: string): Promise<void> {
    if (!this.recorder.sealed.has(bucket.key)) return;
    await this.deadLetters.add({ item: toItem(bucket), customerId: bucket.customerId, chargeMicro: bucket.chargeMicro, detail, at: new Date(this.hooks.now()).toISOString() });
    if (!this.recorder.settle(bucket.key)) return;
    this.store.acknowledge([bucket]);
    this.deadLettered++;
    this.hooks.onRejected(bucket);
  }
}
