import { performance } from 'node:perf_hooks';
import type { ChangeFeed } from './db/change-feed.js';

interface Entry<V> {
  value: V;
  expiresAt: number;
  tags: readonly string[];
}

/**
 * A per-node cache of database reads, invalidated by the change feed: every entry carries the
 * tags of what it was read from, and a notification naming a tag drops its entries. Bounded in
 * size (least recently used go first) and in lifetime, so an entry a lost notification should
 * have dropped lives `ttlMs` at most. While the feed is not listening it answers nothing and keeps
 * nothing. Lifetimes run on the machine's monotonic clock, not the service's Clock: they bound
 * staleness in real time, whatever time a test sets.
 */
export class TaggedCache<V> {
  readonly #entries = new Map<string, Entry<V>>();
  readonly #byTag = new Map<string, Set<string>>();

  constructor(
    private readonly feed: ChangeFeed,
    private readonly capacity: number,
    private readonly ttlMs: number,
  ) {
    feed.subscribe((tags) => {
      if (tags === null) this.clear();
      else for (const tag of tags) this.#dropTag(tag);
    });
  }

  get(key: string): V | undefined {
    if (!this.feed.listening) return undefined;
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= performance.now()) {
      this.#delete(key);
      return undefined;
    }
    // Re-insert to mark it recently used (Map iterates in insertion order).
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * The cached value, or the loader's, kept unless a change arrived while it was read (it may
   * have read the row before the change committed). Undefined (not found) is never kept.
   */
  async load(key: string, loader: () => Promise<V | undefined>, tagsOf: (value: V) => readonly string[]): Promise<V | undefined> {
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const generation = this.feed.generation;
    const value = await loader();
    if (value !== undefined && this.feed.listening && this.feed.generation === generation) this.#set(key, value, tagsOf(value));
    return value;
  }

  clear(): void {
    this.#entries.clear();
    this.#byTag.clear();
  }

  get size(): number {
    return this.#entries.size;
  }

  #set(key: string, value: V, tags: readonly string[]): void {
    this.#delete(key);
    this.#entries.set(key, { value, expiresAt: performance.now() + this.ttlMs, tags });
    for (const tag of tags) {
      let keys = this.#byTag.get(tag);
      if (!keys) this.#byTag.set(tag, (keys = new Set()));
      keys.add(key);
    }
    if (this.#entries.size > this.capacity) this.#delete(this.#entries.keys().next().value as string);
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    for (const tag of entry.tags) {
      const keys = this.#byTag.get(tag);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.#byTag.delete(tag);
    }
  }

  #dropTag(tag: string): void {
    const keys = this.#byTag.get(tag);
    if (!keys) return;
    for (const key of [...keys]) this.#delete(key);
  }
}
