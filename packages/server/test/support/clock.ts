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
  advance(ms: number): void {
    this.#offsetMs += ms;
  }
}
