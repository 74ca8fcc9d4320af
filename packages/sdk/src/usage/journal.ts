import { writeSync } from 'node:fs';
import { mkdir, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { recoveredBucket, type Bucket, type Recorder } from './recorder.js';
import { takeForCommit, type UsageStore } from './store.js';

/**
 * One line of the journal. A bucket is declared once per file with its number in that file and
 * the requests it had then (`b`); each group commit adds one line of count and charge deltas for
 * every bucket that grew (`d`: flat triples of number, requests, micro units); delivery adds the
 * numbers of acknowledged buckets (`a`). Lines `e` (one per request) and `a` with `k` are what
 * journals of SDK 0.1.0 before group deltas hold, and are still read.
 */
export type JournalLine =
  | { t: 'b'; i: number; k: string; a: string; p: string | null; s: number; h: string; u: string; n: number; c: number }
  | { t: 'd'; d: number[] }
  | { t: 'a'; i: number[] }
  | { t: 'e'; k: string; a: string; p: string | null; s: number; h: string; n: number; c: number; u: string }
  | { t: 'a'; k: string };

/** Past this many bytes appended, the file is rewritten to what is still pending. */
const COMPACT_AFTER_BYTES = 4 * 1024 * 1024;

/** What is pending in journal text: the buckets declared and not acknowledged, with their totals. */
export function replay(text: string): Bucket[] {
  const byNumber = new Map<number, Bucket>();
  const byKey = new Map<string, Bucket>();
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    let line: JournalLine;
    try {
      line = JSON.parse(raw) as JournalLine;
    } catch {
      continue; // a torn last line from a crash mid-write: its group was never committed
    }
    if (line.t === 'b' || line.t === 'e') {
      let bucket = byKey.get(line.k);
      if (!bucket) {
        bucket = recoveredBucket({ key: line.k, keyId: line.a, policyId: line.p, status: line.s, hour: line.h, count: 0, chargeMicro: 0, customerId: line.u });
        byKey.set(line.k, bucket);
      }
      bucket.count += line.n;
      bucket.chargeMicro += line.c;
      if (line.t === 'b') byNumber.set(line.i, bucket);
    } else if (line.t === 'd') {
      for (let j = 0; j + 2 < line.d.length; j += 3) {
        const bucket = byNumber.get(line.d[j]!);
        if (bucket) {
          bucket.count += line.d[j + 1]!;
          bucket.chargeMicro += line.d[j + 2]!;
        }
      }
    } else if ('i' in line) {
      for (const number of line.i) byKey.delete(byNumber.get(number)?.key ?? '');
    } else byKey.delete(line.k);
  }
  return [...byKey.values()].filter((b) => b.count > 0).map((b) => recoveredBucket(b));
}

/**
 * An append-only file of usage not yet acknowledged. Recording a request writes nothing: every
 * `commitIntervalMs` the requests recorded meanwhile are appended as one line of per-bucket deltas
 * (group commit), so the file grows by one short record per bucket per group, not one line per
 * request. A group is in the file, and survives a crash of the process, once its write returns;
 * the file is fsynced every `fsyncIntervalMs` after a write, and always before a delivery
 * (`commit()`), so a crash of the machine loses at most that interval and nothing is ever sent
 * that the disk does not hold. It is rewritten from memory to the pending buckets when it has
 * grown past 4 MiB and when the meter starts.
 */
export class Journal implements UsageStore {
  #file: FileHandle | null = null;
  #nextNumber = 1;
  /** Numbers of acknowledged buckets, written with the next group. */
  #acked: number[] = [];
  #writing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  #fsyncTimer: NodeJS.Timeout | null = null;
  #appended = 0;
  /** Written since the last fsync. */
  #unsynced = false;
  /** When the last fsync started (performance.now()). */
  #syncedAt = 0;
  /**
   * A write or an fsync failed: the file may end in a torn line, or the kernel may have dropped
   * pages it could not write, so it is rewritten from memory before anything is appended.
   */
  #mustRewrite = false;
  readonly path: string;

  constructor(
    dir: string,
    private readonly recorder: Recorder,
    private readonly onError: (error: Error) => void,
    private readonly commitIntervalMs = 10,
    private readonly fsyncIntervalMs = 100,
  ) {
    this.path = join(dir, 'usage-journal.jsonl');
  }

  /** Reads what a previous process left and rewrites the file to it. */
  async open(): Promise<Bucket[]> {
    await mkdir(dirname(this.path), { recursive: true });
    let text = '';
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const pending = replay(text);
    this.recorder.adopt(pending);
    await this.#exclusive(() => this.#rewrite());
    return pending;
  }

  schedule(): void {
    // A short delay gathers the requests of concurrent responses into one write.
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      this.#commit(false).catch(this.onError);
    }, this.commitIntervalMs);
  }

  /** Runs `work` alone: group commits and rewrites never interleave. */
  async #exclusive(work: () => Promise<void>): Promise<void> {
    while (this.#writing) await this.#writing.catch(() => undefined);
    this.#writing = work().finally(() => (this.#writing = null));
    return this.#writing;
  }

  /** Writes every request recorded so far and fsyncs the file: what the reporter calls before sending. */
  commit(): Promise<void> {
    return this.#commit(true);
  }

  /** A group commit: written now, fsynced now when `fsync` or when the last fsync is `fsyncIntervalMs` old. */
  #commit(fsync: boolean): Promise<void> {
    return this.#exclusive(async () => {
      if (!this.#file) return; // closed, or not open yet: open() rewrites everything pending
      if (this.#mustRewrite || this.#appended > COMPACT_AFTER_BYTES) return this.#rewrite();
      const taken = takeForCommit(this.recorder);
      const text = this.#encode(taken.buckets, taken.previous);
      if (text) {
        try {
          appendAll(this.#file.fd, text);
        } catch (error) {
          taken.undo();
          this.#mustRewrite = true;
          throw error;
        }
        this.#appended += text.length;
        this.#unsynced = true;
      }
      if (!this.#unsynced) return;
      if (fsync || performance.now() - this.#syncedAt >= this.fsyncIntervalMs) await this.#fsync();
      else this.#fsyncTimer ??= setTimeout(() => this.#fsyncLater(), this.fsyncIntervalMs - (performance.now() - this.#syncedAt));
    });
  }

  #fsyncLater(): void {
    this.#fsyncTimer = null;
    this.#exclusive(async () => {
      if (this.#file && this.#unsynced) await this.#fsync();
    }).catch(this.onError);
  }

  async #fsync(): Promise<void> {
    if (this.#fsyncTimer) clearTimeout(this.#fsyncTimer);
    this.#fsyncTimer = null;
    this.#syncedAt = performance.now();
    try {
      await this.#file!.datasync();
    } catch (error) {
      // After a failed fsync the kernel may have dropped the pages it could not write, and a
      // later fsync can succeed without them: only a rewrite from memory makes the file whole.
      this.#mustRewrite = true;
      throw error;
    }
    this.#unsynced = false;
  }

  /** The group's text: declarations of buckets new to the file, then one line of deltas. */
  #encode(buckets: Bucket[], previous: number[]): string {
    let text = '';
    if (this.#acked.length > 0) {
      text = `{"t":"a","i":[${this.#acked.join(',')}]}\n`;
      this.#acked = [];
    }
    let deltas = '';
    for (let i = 0; i < buckets.length; i++) {
      const b = buckets[i]!;
      if (b.journalId === 0) text += this.#declaration(b);
      // The bucket's new totals are committed; the delta is what this group adds to the old ones.
      else deltas += `${deltas ? ',' : ''}${b.journalId},${b.committedCount - previous[2 * i]!},${b.committedMicro - previous[2 * i + 1]!}`;
    }
    return deltas ? `${text}{"t":"d","d":[${deltas}]}\n` : text;
  }

  #declaration(b: Bucket): string {
    b.journalId = this.#nextNumber++;
    // The key (a UUID) and the hour need no escaping; names from Gatehouse are quoted by JSON.stringify.
    const policy = b.policyId === null ? 'null' : JSON.stringify(b.policyId);
    return `{"t":"b","i":${b.journalId},"k":"${b.key}","a":${JSON.stringify(b.keyId)},"p":${policy},"s":${b.status},"h":"${b.hour}","u":${JSON.stringify(b.customerId)},"n":${b.count},"c":${b.chargeMicro}}\n`;
  }

  /**
   * Replaces the file with the declarations of every pending bucket at its current totals, built
   * from memory: nothing is read back. Written to a temporary file, fsynced and renamed over the
   * journal, so a crash leaves either file whole.
   */
  async #rewrite(): Promise<void> {
    const old = this.#file;
    this.#file = null;
    await old?.close();
    takeForCommit(this.recorder); // every bucket is written whole below
    this.#acked = []; // numbers of the old file: its acknowledged buckets are simply left out
    this.#nextNumber = 1;
    let text = '';
    for (const bucket of this.recorder.live()) text += this.#declaration(bucket);
    const tmp = `${this.path}.tmp`;
    const file = await open(tmp, 'w');
    await file.writeFile(text);
    await file.sync();
    await file.close();
    await rename(tmp, this.path);
    await syncDirectory(dirname(this.path));
    this.#file = await open(this.path, 'a');
    this.#appended = 0;
    this.#mustRewrite = false;
    this.#unsynced = false;
    this.#syncedAt = performance.now();
  }

  acknowledge(buckets: Bucket[]): void {
    // Written with the next group: an acknowledgement lost in a crash only means a resend, which
    // Gatehouse answers `duplicate`.
    for (const bucket of buckets) if (bucket.journalId > 0) this.#acked.push(bucket.journalId);
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.commit(); // fsyncs, and clears the fsync timer
    const file = this.#file;
    this.#file = null;
    await file?.close();
  }
}

/**
 * Appends a group on the event loop (writeSync), not through the thread pool as FileHandle#write
 * does. A group is a few kilobytes copied into the page cache, about 10 µs of CPU on this
 * machine; the pool's hand-off (a wake-up of one of its threads, then of the loop, and the
 * promise) cost 56 to 138 µs per group, every 10 ms of traffic (issue 28, docs/decisions.md).
 * Nothing waits for the disk here: fsyncs stay on the pool. The file is opened for appending, so
 * a short write (a full disk is the usual cause, and then writeSync throws) continues at the end.
 */
function appendAll(fd: number, text: string): void {
  const bytes = Buffer.from(text);
  for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done, bytes.length - done);
}

/** A rename is durable once its folder is synced (POSIX); where folders cannot be opened, it is skipped. */
async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Windows: folders cannot be synced; NTFS orders the rename itself.
  } finally {
    await handle?.close();
  }
}
