import type { Bucket, Recorder } from './recorder.js';

/**
 * Where recorded usage is made durable before it is delivered: the journal file (the default),
 * a Redis queue (the `redis` option), or nowhere (`journalDir: null`).
 *
 * The durability point is `commit()`: every request recorded before it was called is durable
 * when it resolves, and the reporter commits before every delivery, so nothing is sent that a
 * store could not replay after a crash. Between deliveries stores commit in groups,
 * `commitIntervalMs` after the first request of a group; the journal's groups are safe from a
 * crash of the process when written and from a crash of the machine when next fsynced
 * (`fsyncIntervalMs`).
 */
export interface UsageStore {
  /** Recovers what an earlier process left: buckets with their keys and committed counts. */
  open(): Promise<Bucket[]>;
  /** The recorder has requests to commit: commit them soon (group commit). */
  schedule(): void;
  /** Makes every request recorded so far durable; resolves once it is. */
  commit(): Promise<void>;
  /** Gatehouse has these buckets (or they were set aside): they must not be replayed. */
  acknowledge(buckets: Bucket[]): void;
  close(): Promise<void>;
}

/**
 * Takes the recorder's uncommitted buckets and marks them committed, returning what to write
 * and how to undo it if the write fails (the buckets are then committed again next time).
 */
export function takeForCommit(recorder: Recorder): { buckets: Bucket[]; previous: number[]; undo(from?: number): void } {
  const buckets = recorder.takeDirty();
  const previous: number[] = new Array(buckets.length * 2);
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i]!;
    previous[2 * i] = b.committedCount;
    previous[2 * i + 1] = b.committedMicro;
    b.committedCount = b.count;
    b.committedMicro = b.chargeMicro;
  }
  return {
    buckets,
    previous,
    /** The buckets from index `from` on were not written after all. */
    undo(from = 0) {
      for (let i = from; i < buckets.length; i++) {
        const b = buckets[i]!;
        b.committedCount = previous[2 * i]!;
        b.committedMicro = previous[2 * i + 1]!;
        recorder.markDirty(b);
      }
    },
  };
}

/** `journalDir: null` without Redis: usage is kept in memory only, and lost if the process dies. */
export class MemoryStore implements UsageStore {
  constructor(private readonly recorder: Recorder) {}
  async open(): Promise<Bucket[]> {
    return [];
  }
  schedule(): void {}
  async commit(): Promise<void> {
    takeForCommit(this.recorder);
  }
  acknowledge(): void {}
  async close(): Promise<void> {}
}
