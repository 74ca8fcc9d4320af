// Support for the SDK benchmarks: a Gatehouse stand-in (a `fetch` answering the SDK sync API from
// memory, wire protocol sections 2 and 4), so a meter gets a loaded snapshot without a network or
// PostgreSQL; and a build of the SDK, since the benchmarks measure dist/.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { formatApiKey, KEY_ALPHABET, type SnapshotBody, type UsageItem, type UsageResult } from '@gatehouse/protocol';

export interface FakeGatehouseOptions {
  customers?: number;
  keysPerCustomer?: number;
}

export interface FakeGatehouse {
  /** The raw keys, in the order their customers were made (every key is in the snapshot). */
  keys: string[];
  /** SHA-256 hex of each key, as the snapshot carries them. */
  keyHashes: string[];
  fetch: typeof fetch;
  /** Requests reported so far (the sum of `count` over accepted items). */
  reportedRequests(): number;
}

function randomKeyBody(): string {
  const bytes = randomBytes(40);
  let out = '';
  for (const byte of bytes) out += KEY_ALPHABET[byte % KEY_ALPHABET.length];
  return out;
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });

/**
 * Builds customers (active, pay as you go at 1,000 micro a request, so credit holds are taken; no
 * rate limit, no quota, a balance far above anything a benchmark spends) and their keys, and a
 * fetch answering GET /sdk/v1/snapshot, POST /sdk/v1/usage (every item accepted) and key lookups
 * (unknown). Every snapshot is stamped when it is served, so a later sync always replaces the one held.
 */
export function fakeGatehouse(options: FakeGatehouseOptions = {}): FakeGatehouse {
  const customerCount = options.customers ?? 1_000;
  const keysPerCustomer = options.keysPerCustomer ?? 2;
  const policyValidUntil = new Date(Date.now() + 365 * 86_400_000).toISOString();
  const periodEnd = new Date(Date.now() + 30 * 86_400_000).toISOString();
  const customers: SnapshotBody['customers'] = [];
  const wireKeys: SnapshotBody['keys'] = [];
  const keys: string[] = [];
  for (let c = 0; c < customerCount; c++) {
    const id = `cus_bench${c}`;
    customers.push({
      id,
      status: 'active',
      credit_balance_micro: 1_000_000_000_000_000,
      balance_seq: 1,
      month_requests: 0,
      usage_policy_id: randomUUID(),
      policy_valid_until: policyValidUntil,
      effective: { rps: 0, price_per_request_micro: 1_000, monthly_quota: null, billing_model: 'payg', source: 'payg' },
    });
    for (let k = 0; k < keysPerCustomer; k++) {
      const key = formatApiKey('bench', randomKeyBody());
      keys.push(key);
      wireKeys.push({ id: randomUUID(), customer_id: id, key_hash: createHash('sha256').update(key).digest('hex') });
    }
  }
  const limit = Number.MAX_SAFE_INTEGER;
  let served = 0;
  let reported = 0;

  function snapshot(): SnapshotBody {
    const generatedAt = new Date().toISOString();
    return {
      generated_at: generatedAt,
      tenant_id: 'api_bench',
      tenant_name: 'Bench API',
      tenant_status: 'active',
      billable_status_codes: [200, 201],
      platform_monthly_limit: limit,
      platform_monthly_used: 0,
      platform_monthly_remaining: limit,
      platform_period_end: periodEnd,
      platform_hard_cap: true,
      platform_monthly_allowance: { limit, used: 0, remaining: limit, period_start: generatedAt, period_end: periodEnd, hard_cap: true },
      customers,
      keys: wireKeys,
    };
  }

  const fakeFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? 'GET';
    if (method === 'GET' && url.pathname === '/sdk/v1/snapshot') {
      served++;
      return json(snapshot(), { etag: `"bench-${served}"` });
    }
    if (method === 'POST' && url.pathname === '/sdk/v1/usage') {
      const { items } = JSON.parse(String(init?.body)) as { items: UsageItem[] };
      const results: UsageResult[] = items.map((item) => {
        reported += item.count;
        return { idempotency_key: item.idempotency_key, status: 'accepted' };
      });
      return json({ results });
    }
    if (method === 'GET' && url.pathname === '/sdk/v1/keys/verify') return json({ valid: false });
    return new Response('not found', { status: 404 });
  };

  return {
    keys,
    keyHashes: wireKeys.map((k) => k.key_hash),
    fetch: fakeFetch as typeof fetch,
    reportedRequests: () => reported,
  };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/**
 * Builds @gatehouse/sdk (and the protocol package it references). The benchmarks import the
 * build, what users run, rather than src/ through tsx, whose transform wraps every closure in a
 * naming helper and so slows admit + finish down.
 */
export function buildSdk(): void {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const built = spawnSync(process.execPath, [tsc, '-b', 'packages/sdk'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('tsc -b packages/sdk failed');
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
