import type { ChangesBody } from '@gatehouse/protocol';
import { AuthorizationError, CursorExpiredError, type ControlClient } from './control-client.js';
import type { MeterState } from './state.js';

/** Seconds a changes request asks the server to wait for a change (the server allows at most 30). */
export const CHANGES_WAIT_SECONDS = 25;
/**
 * The least time between two polls that brought nothing: a server that does not know `wait`
 * answers at once, and is then asked once a second rather than in a tight loop.
 */
const QUIET_POLL_MS = 1_000;
/** Failed polls in a row after which the snapshot is read (the fallback), and the longest pause between tries. */
const FAILURES_BEFORE_SNAPSHOT = 3;
const MAX_BACKOFF_MS = 30_000;

export interface FollowerHooks {
  /** Reads the snapshot (the meter's single-flight sync); it sets the state's cursor. */
  snapshot(): Promise<void>;
  /** The snapshot read under way, if any: an answer waits for it before it is applied. */
  snapshotInFlight(): Promise<void> | null;
  onError(error: Error): void;
  /** The secret was refused: the meter answers 503 until a snapshot fetch succeeds (wire protocol section 1), and says why. */
  onAuthorizationInvalid(): void;
  /** After every answer applied (tests and benchmarks wait on it). */
  onApplied(body: ChangesBody): void;
  now(): number;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

const isEmpty = (b: ChangesBody) => b.customers.length + b.keys.length + b.removed_keys.length + b.removed_customers.length + b.balances.length === 0;

/**
 * Follows GET /sdk/v1/changes from the state's cursor by long polling, and applies each answer to
 * the state admission reads (docs/decisions.md, "SDK following changes"). One loop, one request
 * at a time; `stop()` ends the request under way.
 */
export class ChangeFollower {
  readonly #stop = new AbortController();
  #loop: Promise<void> | null = null;
  /** Polls failed in a row; 0 while following works. */
  failures = 0;
  /** Answers applied since the start. */
  applied = 0;

  constructor(
    private readonly client: ControlClient,
    private readonly state: MeterState,
    private readonly hooks: FollowerHooks,
    private readonly waitSeconds = CHANGES_WAIT_SECONDS,
  ) {}

  /** Following works: the last poll was answered. */
  get healthy(): boolean {
    return this.#loop !== null && this.failures === 0 && this.state.cursor !== null;
  }

  start(): void {
    this.#loop ??= this.#run().catch((error: Error) => this.hooks.onError(error));
  }

  async stop(): Promise<void> {
    this.#stop.abort();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const signal = this.#stop.signal;
    while (!signal.aborted) {
      const since = this.state.cursor;
      if (since === null) {
        // No cursor: no snapshot yet, or a server that does not offer changes. The meter's
        // periodic snapshot keeps the state; look again at the pace of a failing poll.
        this.failures++;
        await sleep(this.#backoff(), signal);
        continue;
      }
      const startedAt = this.hooks.now();
      const began = performance.now();
      let body: ChangesBody;
      try {
        body = await this.client.changes(since, this.waitSeconds, signal);
      } catch (error) {
        if (signal.aborted) return;
        await this.#failed(error as Error, signal);
        continue;
      }
      this.failures = 0;
      // A snapshot read under way may be newer than this answer: wait for it, then apply the
      // answer only if it still follows what the state holds (else poll again from the new cursor).
      const inFlight = this.hooks.snapshotInFlight();
      if (inFlight) await inFlight.catch(() => undefined);
      if (signal.aborted) return;
      if (this.state.cursor !== since) continue;
      this.state.lastFetchStart = Math.max(this.state.lastFetchStart, startedAt);
      if (this.state.applyChanges(body, startedAt) === 'resnapshot') {
        await this.hooks.snapshot().catch((error: Error) => this.hooks.onError(error));
        continue;
      }
      this.applied++;
      this.hooks.onApplied(body);
      if (!body.has_more && body.cursor === since && isEmpty(body)) {
        const elapsed = performance.now() - began;
        if (elapsed < QUIET_POLL_MS) await sleep(QUIET_POLL_MS - elapsed, signal);
      }
    }
  }

  /** A failed poll: 410 reads the snapshot at once; other failures back off, and read it after a few in a row. */
  async #failed(error: Error, signal: AbortSignal): Promise<void> {
    if (error instanceof CursorExpiredError) {
      await this.hooks.snapshot().catch((e: Error) => this.hooks.onError(e));
      return;
    }
    this.failures++;
    // A refused secret is the snapshot's to report and to clear (it is read at once, and every
    // syncIntervalMs while the secret stays refused), so it is said once, naming the snapshot.
    if (error instanceof AuthorizationError) {
      this.hooks.onAuthorizationInvalid();
      await this.hooks.snapshot().catch((e: Error) => this.hooks.onError(e));
    } else this.hooks.onError(error);
    await sleep(this.#backoff(), signal);
    if (signal.aborted) return;
    if (this.failures % FAILURES_BEFORE_SNAPSHOT === 0) await this.hooks.snapshot().catch((e: Error) => this.hooks.onError(e));
  }

  /** 1 s, 2 s, 4 s … up to 30 s, with a random part so that many processes do not come back together. */
  #backoff(): number {
    const base = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.min(this.failures - 1, 5));
    return base / 2 + Math.random() * (base / 2);
  }
}
