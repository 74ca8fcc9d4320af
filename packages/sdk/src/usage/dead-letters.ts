import type { UsageItem } from '@gatehouse/protocol';
import { appendFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface DeadLetter {
  item: UsageItem;
  customerId: string;
  chargeMicro: number;
  detail: string;
  at: string;
}

/**
 * Usage Gatehouse refused, kept with the reason instead of being lost, so that it can be sent
 * again once the cause is fixed (`meter.replayDeadLetters()`, or `gatehouse-sdk replay`).
 */
export class DeadLetters {
  readonly path: string | null;
  readonly #memory: DeadLetter[] = [];

  constructor(dir: string | null) {
    this.path = dir ? join(dir, 'dead-letters.jsonl') : null;
  }

  async add(letter: DeadLetter): Promise<void> {
    if (!this.path) {
      this.#memory.push(letter);
      return;
    }
    await mkdir(join(this.path, '..'), { recursive: true });
    await appendFile(this.path, JSON.stringify(letter) + '\n');
  }

  async list(): Promise<DeadLetter[]> {
    if (!this.path) return [...this.#memory];
    try {
      return (await readFile(this.path, 'utf8')).split('\n').filter(Boolean).map((line) => JSON.parse(line) as DeadLetter);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  }

  /** Keeps only `remaining` (after a replay). */
  async replace(remaining: DeadLetter[]): Promise<void> {
    if (!this.path) {
      this.#memory.splice(0, this.#memory.length, ...remaining);
      return;
    }
    await writeFile(this.path, remaining.map((l) => JSON.stringify(l) + '\n').join(''));
  }
}
