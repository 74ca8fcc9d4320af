// Unknown keys cost Gatehouse at most one lookup each per 30 seconds, however many requests carry
// them (issue 4: "a flood of 10,000 distinct bad keys causes at most one lookup per key per 30
// seconds"; wire protocol section 3: single flight, negative cache of 30 s and 10,000 entries).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Meter } from '../src/index.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey, sha256, type ApiFixture } from '../../server/test/support/money.js';
import { Meters, patchApi, serve, unknownKey, wireTap, type WireTap } from './support/gatehouse.js';

let t: TestApp;
let api: ApiFixture;
const meters = new Meters();
before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Key Flood' });
  await patchApi(api, { rps: 0 });
});
after(async () => {
  await meters.closeAll();
  await t.close();
});

/** How many times each key hash was looked up. */
function lookups(tap: WireTap): Map<string, number> {
  const counts = new Map<string, number>();
  for (const call of tap.calls) {
    if (call.path !== '/sdk/v1/keys/verify') continue;
    const hash = call.url.searchParams.get('key_hash')!;
    counts.set(hash, (counts.get(hash) ?? 0) + 1);
  }
  return counts;
}

/** Sends every key `copies` times at once, `keysAtOnce` keys at a time; every answer must be 401. */
async function flood(meter: Meter, keys: string[], copies: number, keysAtOnce = 100) {
  for (let i = 0; i < keys.length; i += keysAtOnce) {
    const chunk = keys.slice(i, i + keysAtOnce).flatMap((key) => Array.from({ length: copies }, () => key));
    const decisions = await Promise.all(chunk.map((key) => meter.admit({ key })));
    for (const d of decisions) assert.deepEqual(d.ok ? 'admitted' : [d.status, d.reason], [401, 'invalid_key']);
  }
}

/**
 * A tap whose key lookups reach Gatehouse for the first `real` keys, then are answered with the
 * answer Gatehouse gave to the last of those (every unknown key gets the same one): the rule under
 * test is how often the meter asks, and 10,000 real lookups cost minutes of a loaded test machine.
 */
function replayingTap(real: number): WireTap {
  let recorded: { status: number; body: string; type: string } | null = null;
  let asked = 0;
  const tap = wireTap((call) => {
    if (call.path !== '/sdk/v1/keys/verify' || asked++ < real || !recorded) return;
    return { answer: new Response(recorded.body, { status: recorded.status, headers: { 'content-type': recorded.type } }) };
  });
  const fetchThrough = tap.fetch;
  tap.fetch = async (input, init) => {
    const response = await fetchThrough(input, init);
    if (!recorded && new URL(String(input)).pathname === '/sdk/v1/keys/verify') {
      recorded = { status: response.status, body: await response.clone().text(), type: response.headers.get('content-type') ?? 'application/json' };
    }
    return response;
  };
  return tap;
}

test('10,000 distinct unknown keys, each sent twice at once: one lookup per key; none again within 30 s; looked up again after', async () => {
  const tap = replayingTap(200);
  // The meter's clock moves only when the test moves it, so "within 30 s" does not depend on speed.
  let now = t.clock.now().getTime();
  const meter = meters.make(t, api, { fetch: tap.fetch, now: () => now });
  await meter.ready;
  const keys = Array.from({ length: 10_000 }, () => unknownKey());
  await flood(meter, keys, 2);
  let counts = lookups(tap);
  assert.equal(counts.size, 10_000, 'every key was looked up');
  assert.equal(Math.max(...counts.values()), 1, 'and none twice, though each came twice at once');
  assert.equal(meter.metrics().verifyLookups, 10_000);

  now += 29_999;
  const before = tap.count('/sdk/v1/keys/verify');
  await flood(meter, keys, 1, 2_000);
  assert.equal(tap.count('/sdk/v1/keys/verify'), before, 'all 10,000 answered from the negative cache');

  now += 2;
  const sample = keys.filter((_, i) => i % 50 === 0); // 200 of them
  await flood(meter, sample, 3);
  counts = lookups(tap);
  assert.equal(tap.count('/sdk/v1/keys/verify'), before + sample.length, 'past the 30 s, looked up again once each');
  for (const key of sample) assert.equal(counts.get(sha256(key)), 2);
  assert.equal(meter.metrics().admissions.invalid_key, 30_000 + sample.length * 3);
});

test('the negative cache holds at most negativeCacheSize keys: the oldest go first', async () => {
  const tap = wireTap();
  const meter = meters.make(t, api, { fetch: tap.fetch, negativeCacheSize: 5 });
  await meter.ready;
  const keys = Array.from({ length: 10 }, () => unknownKey());
  const verifies = () => tap.count('/sdk/v1/keys/verify');
  // One key at a time: the order they are remembered in is the order they were sent.
  await flood(meter, keys, 1, 1);
  assert.equal(verifies(), 10);
  await flood(meter, keys.slice(5), 1, 1);
  assert.equal(verifies(), 10, 'the 5 newest are remembered');
  await flood(meter, keys.slice(0, 5), 1, 1);
  assert.equal(verifies(), 15, 'the 5 oldest were let go, so the cache never held more than 5');
  await flood(meter, [keys[9]!], 1);
  assert.equal(verifies(), 16, 'and remembering those let the newest 5 go in turn');
});

test('a real key is never cached as unknown: a key made after the snapshot is admitted at once', async () => {
  const tap = wireTap();
  // Not following changes, which could bring the key before the request and skip the lookup.
  const meter = meters.make(t, api, { fetch: tap.fetch, followChanges: false });
  await meter.ready;
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  await serve(meter, key.key);
  await serve(meter, key.key);
  assert.equal(tap.count('/sdk/v1/keys/verify'), 1, 'looked up once, then known');
});

test('lookups are capped: maxConcurrentLookups at once, maxQueuedLookups waiting, the rest refused 503 and not remembered', async () => {
  // Lookups are held at Gatehouse's door until the test lets them through, so what waits and what
  // is refused does not depend on speed.
  const held: (() => void)[] = [];
  let holding = true;
  let inFlight = 0;
  let most = 0;
  const holdingFetch: typeof fetch = async (input, init) => {
    if (new URL(String(input)).pathname !== '/sdk/v1/keys/verify') return fetch(input, init);
    inFlight++;
    most = Math.max(most, inFlight);
    try {
      if (holding) await new Promise<void>((resolve) => held.push(resolve));
      return await fetch(input, init);
    } finally {
      inFlight--;
    }
  };
  const meter = meters.make(t, api, { fetch: holdingFetch, maxConcurrentLookups: 4, maxQueuedLookups: 10 });
  await meter.ready;
  const keys = Array.from({ length: 30 }, () => unknownKey());
  const answers = keys.map((key) => meter.admit({ key }));
  while (held.length < 4) await new Promise((resolve) => setImmediate(resolve));
  // The 16 beyond 4 under way and 10 waiting are answered at once, without a call.
  const refused = await Promise.all(answers.slice(14));
  for (const d of refused) assert.deepEqual(d.ok ? 'admitted' : [d.status, d.reason, d.headers['retry-after']], [503, 'unavailable', '5']);
  assert.equal(meter.metrics().verifyRefused, 16);
  assert.equal(meter.metrics().verifyLookups, 4, 'the 10 waiting have not called yet');
  holding = false;
  for (const release of held.splice(0)) release();
  for (const d of await Promise.all(answers.slice(0, 14))) assert.deepEqual(d.ok ? 'admitted' : [d.status, d.reason], [401, 'invalid_key']);
  assert.equal(most, 4, 'never more than 4 lookups at once');
  assert.equal(meter.metrics().verifyLookups, 14);
  // A refusal is not remembered: the same keys are looked up when they come again.
  await flood(meter, keys.slice(14), 1, 14); // 14 at a time: 4 under way and 10 waiting, none refused
  assert.equal(meter.metrics().verifyLookups, 30);
  await flood(meter, keys, 1);
  assert.equal(meter.metrics().verifyLookups, 30, 'and now all 30 are remembered as unknown');
});
