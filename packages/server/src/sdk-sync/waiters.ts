import type { ChangeFeed } from '../platform/db/change-feed.js';

/**
 * The tag the numbering of an API's SDK changes notifies at its commit (migration 0020, through
 * the change feed's channel): every node's waiters of that API wake and read.
 */
export const SDK_CHANGES_TAG = 'sdk-changes:';

/**
 * Long polls of GET /sdk/v1/changes (issue 27; docs/decisions.md, "Long polling"). One following
 * SDK process holds one; the bounds keep a runaway owner from holding a node's memory and sockets.
 */
export const MAX_WAITERS_PER_API = 1_000;
export const MAX_WAITERS = 10_000;

/** While the feed is not listening a notification may be lost: waiters read again this often. */
export const DEAF_RECHECK_MS = 1_000;

export interface Waiter {
  /** Resolves when a change of the API may have committed, `ms` passed, or the node closes. */
  until(ms: number): Promise<void>;
  /** Wakes it now (the client went away). */
  wake(): void;
  /** The node is shutting down: answer at once. */
  readonly closing: boolean;
  leave(): void;
}

/** The waiting SDKs of this node, by API, woken by the change feed. */
export class ChangeWaiters {
  readonly #byApi = new Map<string, Set<() => void>>();
  #count = 0;
  #closing = false;

  constructor(
    private readonly feed: ChangeFeed,
    private readonly limits = { perApi: MAX_WAITERS_PER_API, total: MAX_WAITERS },
  ) {
    feed.subscribe((tags) => {
      // Lost or back: changes may have been missed, so everyone reads again.
      if (tags === null) return this.#wakeAll();
      for (const tag of tags) {
        if (!tag.startsWith(SDK_CHANGES_TAG)) continue;
        const waiting = this.#byApi.get(tag.slice(SDK_CHANGES_TAG.length));
        if (waiting) for (const wake of [...waiting]) wake();
      }
    });
  }

  get size(): number {
    return this.#count;
  }

  /** Waits need re-reading on a timer while the feed cannot be trusted to wake them. */
  get deaf(): boolean {
    return !this.feed.listening;
  }

  /**
   * A place among the API's waiters, taken before the read that found nothing, so a change that
   * commits between that read and the wait still wakes it. Null past the bounds.
   */
  enter(apiId: string): Waiter | null {
    const waiting = this.#byApi.get(apiId) ?? new Set<() => void>();
    if (waiting.size >= this.limits.perApi || this.#count >= this.limits.total) return null;
    let pending = false;
    let resolve: (() => void) | null = null;
    const wake = () => {
      pending = true;
      resolve?.();
    };
    waiting.add(wake);
    this.#byApi.set(apiId, waiting);
    this.#count++;
    const self = this;
    let left = false;
    return {
      get closing() {
        return self.#closing;
      },
      wake,
      until(ms: number) {
        if (pending || self.#closing) {
          pending = false;
          return Promise.resolve();
        }
        return new Promise<void>((done) => {
          const finish = () => {
            clearTimeout(timer);
            resolve = null;
            pending = false;
            done();
          };
          const timer = setTimeout(finish, Math.max(0, ms));
          resolve = finish;
        });
      },
      leave() {
        if (left) return;
        left = true;
        waiting.delete(wake);
        self.#count--;
        if (!waiting.size && self.#byApi.get(apiId) === waiting) self.#byApi.delete(apiId);
      },
    };
  }

  /** Shutdown: every waiter answers now, and none waits from here on. */
  close(): void {
    this.#closing = true;
    this.#wakeAll();
  }

  #wakeAll(): void {
    for (const waiting of this.#byApi.values()) for (const wake of [...waiting]) wake();
  }
}
