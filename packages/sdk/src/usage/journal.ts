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
    let lines: JournalLine[] = [];
    try {
      lines = (await readFile(this.path, 'utf8'))
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
    const pending = lines.filter((l) => l.t === 'e' && !acked.has(l.k));
    await this.#rewrite(pending);
    return pending;
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
    if (!this.path) return;
    this.#buffer.push(JSON.stringify(line) + '\n');
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

  /** Starts a fresh file holding only `pending` (when everything else was acknowledged). */
  async compact(pending: JournalLine[]): Promise<void> {
    if (!this.#file) return;
    await this.flush();
    await this.#file.close();
    this.#file = null;
    await this.#rewrite(pending);
  }

  async close(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.flush();
    await this.#file?.close();
    this.#file = null;
  }
}
