import type { Clock } from '../../src/platform/clock.js';

/**
 * Real time plus an offset the test moves: lifetimes are crossed without sleeping, and every
 * reading is at least 1 ms after the one before, so "newest first" orders are deterministic.
 */
export class MovableClock implements Clock {
  #offsetMs = 0;
  #last = 0;
  now(): Date {
    const ms = Math.max(Date.now() + this.#offsetMs, this.#last + 1);
    this.#last = ms;
    return new Date(ms);
  }
  /**
   * Moves every later reading on by `ms` from the last one. The last reading moves too: readings in
   * quick succession run ahead of real time (1 ms each), and moving only the offset let a clock
   * set to a moment read a few ms before it on a fast machine (portal-auto-recharge's "connected
   * again, the next run charges" found its customer still inside the cool-down).
   */
  advance(ms: number): void {
    this.#offsetMs += ms;
    this.#last += ms;
  }
}
