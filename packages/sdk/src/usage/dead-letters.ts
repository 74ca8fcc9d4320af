import type { UsageItem } from '@gatehouse/protocol';
import type { ControlClient } from '../control-client.js';
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

/** Sends dead letters again, 500 a report; keeps those still refused, with the new reason. */
export async function replayDeadLetters(client: ControlClient, deadLetters: DeadLetters): Promise<{ delivered: number; remaining: number }> {
  const letters = await deadLetters.list();
  const remaining: DeadLetter[] = [];
  let delivered = 0;
  for (let i = 0; i < letters.length; i += 500) {
    const chunk = letters.slice(i, i + 500);
    let results;
    try {
      results = (await client.usage(chunk.map((l) => l.item))).results;
    } catch (error) {
      remaining.push(...chunk.map((l) => ({ ...l, detail: (error as Error).message })));
      continue;
    }
    const byKey = new Map(results.map((r) => [r.idempotency_key, r]));
    for (const letter of chunk) {
      const result = byKey.get(letter.item.idempotency_key);
      if (result && (result.status === 'accepted' || result.status === 'duplicate')) delivered++;
      else remaining.push({ ...letter, detail: result?.detail ?? letter.detail });
    }
  }
  await deadLetters.replace(remaining);
  return { delivered, remaining: remaining.length };
}
