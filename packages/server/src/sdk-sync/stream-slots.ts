/**
 * Snapshot streams a node holds at once (issue 27). A streamed snapshot keeps one pooled connection
 * in its transaction until the client has read the last byte: minutes at a million customers. A
 * fleet of SDK processes restarting together would otherwise take every connection of the pool,
 * and the console, the sign-in service, usage reports and change polls of every API on the node
 * would wait behind them. So streams take a slot: at most two fifths of the pool (4 of 10), the
 * rest kept for everything else. A request finding no slot waits its turn for a short while, then
 * is told to come back (SdkSnapshotBusy in the route).
 */
export class StreamSlots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly capacity: number) {
    this.#free = capacity;
  }

  /** The slots a pool of `poolSize` connections gives snapshot streams. */
  static forPool(poolSize: number): StreamSlots {
    return new StreamSlots(Math.max(1, Math.floor((poolSize * 2) / 5)));
  }

  /** Streams holding a slot now. */
  get inUse(): number {
    return this.capacity - this.#free;
  }

  /** Requests waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * A slot, as the function that gives it back (once; later calls do nothing), or null when none
   * came free within `waitMs`. Waiters are served in turn.
   */
  take(waitMs: number): Promise<(() => void) | null> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => {
      const granted = () => {
        clearTimeout(timer);
        resolve(this.#releaser());
      };
      const timer = setTimeout(() => {
        const at = this.#waiting.indexOf(granted);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve(null);
      }, waitMs);
      this.#waiting.push(granted);
    });
  }

  #releaser(): () => void {
    let given = false;
    return () => {
      if (given) return;
      given = true;
      // Handed straight to the next waiter, so a slot freed is never taken twice.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free++;
    };
  }
}
