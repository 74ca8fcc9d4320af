// What the SDK's integration tests share: meters wired to a test server (one clock for both),
// a fetch that counts and can tamper with what goes over the wire, and console shortcuts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatApiKey, KEY_ALPHABET, type UsageItem } from '@gatehouse/protocol';
import { createMeter, type Meter, type MeterOptions } from '../../src/index.js';
import type { TestApp } from '../../../server/test/support/harness.js';
import type { ApiFixture } from '../../../server/test/support/money.js';

export const journalDir = () => mkdtempSync(join(tmpdir(), 'gh-sdk-'));

/** The server's clock, read as the SDK reads `now`: both sides agree on every age and hour. */
export const serverClock = (t: TestApp) => () => t.clock.now().getTime();

/** Meters made in one test file, closed together in after(). */
export class Meters {
  readonly #all: Meter[] = [];

  /** A meter of `api` on the server's clock, with its own journal folder and errors kept quiet. */
  make(t: TestApp, api: ApiFixture, options: MeterOptions = {}): Meter {
    const meter = createMeter({ secret: api.secret, baseUrl: t.url, journalDir: journalDir(), now: serverClock(t), onError: () => {}, ...options });
    this.#all.push(meter);
    return meter;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.#all.splice(0).map((meter) => meter.close()));
  }
}

export interface WireCall {
  method: string;
  path: string;
  url: URL;
  /** The usage items of a POST /sdk/v1/usage, as sent. */
  items: UsageItem[];
}

export interface WireTap {
  fetch: typeof fetch;
  calls: WireCall[];
  /** Calls whose path starts with `path`. */
  count(path: string): number;
  /** Usage items Gatehouse answered with a 2xx. */
  delivered: UsageItem[];
}

/**
 * A fetch that records every call the meter makes. `tamper` may rewrite a usage body before it
 * leaves, answer in Gatehouse's place (a Response) to simulate a refusal, or hold the call
 * (return a promise) until the test lets it go.
 */
type Tampering = { items?: UsageItem[]; answer?: Response } | void;

export function wireTap(tamper: (call: WireCall) => Tampering | Promise<Tampering> = () => {}): WireTap {
  const calls: WireCall[] = [];
  const delivered: UsageItem[] = [];
  const tapped: typeof fetch = async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = (init?.method ?? 'GET').toUpperCase();
    const items: UsageItem[] = typeof init?.body === 'string' ? ((JSON.parse(init.body) as { items?: UsageItem[] }).items ?? []) : [];
    const call = { method, path: url.pathname, url, items };
    calls.push(call);
    const change = await tamper(call);
    if (change?.answer) return change.answer;
    const body = change?.items ? JSON.stringify({ items: change.items }) : init?.body;
    const response = await fetch(input, { ...init, body });
    if (method === 'POST' && response.ok) delivered.push(...(change?.items ?? items));
    return response;
  };
  return { fetch: tapped, calls, delivered, count: (path) => calls.filter((c) => c.path.startsWith(path)).length };
}

/** A key with the right shape and checksum that no customer holds. */
export function unknownKey(prefix = 'zzz'): string {
  const random = [...randomBytes(40)].map((b) => KEY_ALPHABET[b % 62]).join('');
  return formatApiKey(prefix, random);
}

export async function patchApi(api: ApiFixture, body: Record<string, unknown>): Promise<void> {
  const res = await api.owner.client.patch(`/apis/${api.apiId}`, body);
  assert.equal(res.status, 200, res.text);
}

export async function setLimits(api: ApiFixture, customerId: string, limits: { rps?: number | null; monthly_quota?: number | null; price_per_request_micro?: number | null }): Promise<void> {
  const res = await api.owner.client.put(`/apis/${api.apiId}/customers/${customerId}/limits`, limits);
  assert.equal(res.status, 200, res.text);
}

export async function addCredit(api: ApiFixture, customerId: string, amountMicro: number): Promise<number> {
  const res = await api.owner.client.post(`/apis/${api.apiId}/customers/${customerId}/credit`, { amount_micro: amountMicro, note: 'test' });
  assert.equal(res.status, 200, res.text);
  return res.body.balance_micro as number;
}

/** Admits one request with `key` and finishes it with `status`; fails if it is denied. */
export async function serve(meter: Meter, key: string, status = 200): Promise<void> {
  const decision = await meter.admit({ key });
  assert.ok(decision.ok, decision.ok ? '' : `expected admission, got ${decision.status} ${decision.reason}`);
  decision.finish(status);
}

/** A small seeded generator (mulberry32): random runs that replay the same way. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}
