/**
 * A map that forgets its least recently used entries past `capacity`: for facts that never
 * change once written (a key's customer, an immutable usage policy), so no invalidation is needed.
 */
export class BoundedCache<K, V> {
  readonly #map = new Map<K, V>();
  constructor(private readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      // Re-insert to mark it recently used (Map iterates in insertion order).
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.#map.delete(key);
    this.#map.set(key, value);
    if (this.#map.size > this.capacity) this.#map.delete(this.#map.keys().next().value as K);
  }

  get size(): number {
    return this.#map.size;
  }
}
