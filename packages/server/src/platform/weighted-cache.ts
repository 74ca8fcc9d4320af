/**
 * A map bounded by the total weight of its values (their bytes, say) rather than their number:
 * past `capacity` it forgets the least recently used entries. For values whose sizes differ by
 * orders of magnitude, where a count bound says nothing about memory.
 */
export class WeightedCache<K, V> {
  readonly #map = new Map<K, { value: V; weight: number }>();
  #weight = 0;

  constructor(
    private readonly capacity: number,
    private readonly weigh: (value: V) => number,
  ) {}

  get(key: K): V | undefined {
    const entry = this.#map.get(key);
    if (!entry) return undefined;
    // Re-insert to mark it recently used (Map iterates in insertion order).
    this.#map.delete(key);
    this.#map.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` unless it alone is heavier than the whole capacity. */
  set(key: K, value: V): void {
    this.delete(key);
    const weight = this.weigh(value);
    if (weight > this.capacity) return;
    this.#map.set(key, { value, weight });
    this.#weight += weight;
    for (const [oldest, entry] of this.#map) {
      if (this.#weight <= this.capacity) break;
      this.#map.delete(oldest);
      this.#weight -= entry.weight;
    }
  }

  delete(key: K): void {
    const entry = this.#map.get(key);
    if (!entry) return;
    this.#map.delete(key);
    this.#weight -= entry.weight;
  }

  get size(): number {
    return this.#map.size;
  }

  get weight(): number {
    return this.#weight;
  }
}
