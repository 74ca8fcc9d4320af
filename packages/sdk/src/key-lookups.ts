import type { VerifyBody } from '@gatehouse/protocol';
import { AuthorizationError, type ControlClient } from './control-client.js';

export interface KeyLookupOptions {
  maxConcurrentLookups: number;
  maxQueuedLookups: number;
  negativeCacheTtlMs: number;
  negativeCacheSize: number;
  now: () => number;
  onError: (error: Error) => void;
  onAuthorizationInvalid: () => void;
}

/**
 * Lookups of key hashes missing from the snapshot (wire protocol section 3): one call per hash
 * at a time however many requests carry it, unknown hashes remembered for a while, and a bounded
 * number of calls to Gatehouse at once. A flood of distinct bad keys would otherwise open one
 * call per key: past `maxConcurrentLookups` they wait their turn, and past `maxQueuedLookups`
 * waiting they are refused at once. A refusal is answered as a failed lookup is (503, nothing
 * remembered), so the key is looked up when it comes again.
 */
export class KeyLookups {
  readonly #negative = new Map<string, number>();
  readonly #pending = new Map<string, Promise<VerifyBody | null>>();
  readonly #waiting: (() => void)[] = [];
  #running = 0;
  /** Calls made to Gatehouse. */
  lookups = 0;
  /** Lookups refused because too many were waiting. */
  refused = 0;

  constructor(private readonly client: ControlClient, private readonly options: KeyLookupOptions) {}

  /** Whether `hash` is remembered as unknown at `now`. */
  knownUnknown(hash: string, now: number): boolean {
    const until = this.#negative.get(hash);
    return until !== undefined && until > now;
  }

  /** The verify answer for `hash`, or null when the lookup failed or was refused. */
  lookup(hash: string): Promise<VerifyBody | null> {
    let pending = this.#pending.get(hash);
    if (pending) return pending;
    if (this.#running >= this.options.maxConcurrentLookups) {
      if (this.#waiting.length >= this.options.maxQueuedLookups) {
        this.refused++;
        return Promise.resolve(null);
      }
      // The slot of a call that ends passes straight to the first waiting lookup (see #call).
      pending = new Promise<void>((resolve) => this.#waiting.push(resolve)).then(() => this.#call(hash));
    } else {
      this.#running++;
      pending = this.#call(hash);
    }
    pending = pending.finally(() => this.#pending.delete(hash));
    this.#pending.set(hash, pending);
    return pending;
  }

  /** One call to Gatehouse, in a slot already taken. */
  async #call(hash: string): Promise<VerifyBody | null> {
    this.lookups++;
    try {
      return await this.client.verify(hash);
    } catch (error) {
      if (error instanceof AuthorizationError) this.options.onAuthorizationInvalid();
      this.options.onError(error as Error);
      return null;
    } finally {
      // Handed over rather than freed: freeing first let a new lookup take the slot in between.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }

  remember(hash: string, answer: VerifyBody): void {
    if (answer.valid) return;
    // Deleted first so only a new hash makes room, and a remembered one moves to the newest end.
    // Every concurrent request of one unknown key remembers it: at a full cache, each repeat used to
    // evict an unrelated key, which was then looked up again well within its 30 s.
    this.#negative.delete(hash);
    if (this.#negative.size >= this.options.negativeCacheSize) this.#negative.delete(this.#negative.keys().next().value as string);
    this.#negative.set(hash, this.options.now() + this.options.negativeCacheTtlMs);
  }
}
