import { mkdir, open, readFile, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';

/** One line of the journal: usage added to a bucket, or a bucket Gatehouse acknowledged. */
export type JournalLine =
  | { t: 'e'; k: string; a: string; p: string | null; s: number; h: string; n: number; c: number; u: string }
  | { t: 'a'; k: string };

/**
 * An append-only file of usage not yet acknowledged. Lines are buffered and written with one
 * fsync per group (group commit), so recording a request costs a memory append; a crash loses
 * at most the lines of the group being written. Without a folder it keeps nothing.
 */
export class Journal {
  #file: FileHandle | null = null;
  #buffer: string[] = [];
  #flushing: Promise<void> | null = null;
  #timer: NodeJS.Timeout | null = null;
  readonly path: string | null;

  constructor(dir: string | null, private readonly onError: (error: Error) => void) {
    this.path = dir ? join(dir, 'usage-journal.jsonl') : null;
  }

  /** Reads what a previous process left, compacts it to the unacknowledged lines, and opens for appending. */
  async open(): Promise<JournalLine[]> {
    if (!this.path) return [];
    await mkdir(join(this.path, '..'), { recursive: true });
    const pending = await this.#unacknowledged();
    await this.#rewrite(pending);
    return pending;
  }

  /** The usage lines of the file that no acknowledgement line settles. */
  async #unacknowledged(): Promise<JournalLine[]> {
    let lines: JournalLine[] = [];
    try {
      lines = (await readFile(this.path!, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .flatMap((line) => {
          try {
            return [JSON.parse(line) as JournalLine];
          } catch {
            return []; // a torn last line from a crash mid-write
          }
        });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const acked = new Set(lines.filter((l) => l.t === 'a').map((l) => l.k));
    return lines.filter((l) => l.t === 'e' && !acked.has(l.k));
  }

  async #rewrite(lines: JournalLine[]) {
    const tmp = `${this.path}.tmp`;
    const file = await open(tmp, 'w');
    await file.writeFile(lines.map((l) => JSON.stringify(l) + '\n').join(''));
    await file.sync();
    await file.close();
    await rename(tmp, this.path!);
    this.#file = await open(this.path!, 'a');
  }

  append(line: JournalLine): void {
    this.appendSerialized(JSON.stringify(line) + '\n');
  }

  /** Appends a line already serialized as `append` would write it (JSON and a newline). */
  appendSerialized(text: string): void {
    if (!this.path) return;
    this.#buffer.push(text);
    // A short delay gathers the lines of concurrent requests into one write and one fsync.
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      this.flush().catch(this.onError);
    }, 2);
  }

  /** Writes and fsyncs everything appended so far. */
  async flush(): Promise<void> {
    if (!this.#file) return;
    while (this.#flushing) await this.#flushing;
    if (this.#buffer.length === 0) return;
    const chunk = this.#buffer.join('');
    this.#buffer = [];
    const file = this.#file;
    this.#flushing = (async () => {
      await file.write(chunk);
      await file.datasync();
    })().finally(() => (this.#flushing = null));
    await this.#flushing;
  }

  /**
   * Starts a fresh file holding only the unacknowledged usage lines of the current one. It used to
   * flush, then close and replace the file with a given list: a flush running in between (the
   * group commit of a request recorded meanwhile) wrote to the old file, and the replacement
   * dropped those lines, so a crash before their delivery lost the requests. Now the swap holds
   * the flush lock, the new file is made from what the old one holds, and lines appended during
   * the swap wait in the buffer for the new file.
   */
  async compact(): Promise<void> {
    if (!this.#file) return;
    while (this.#flushing) await this.#flushing;
    const old = this.#file;
    if (!old) return;
    this.#file = null; // flush() keeps lines buffered until the new file is open
    this.#flushing = (async () => {
      await old.close();
      await this.#rewrite(await this.#unacknowledged());
    })().finally(() => (this.#flushing = null));
    await this.#flushing;
    await this.flush();
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush();
    await this.#file?.close();
    this.#file = null;
  }
}
