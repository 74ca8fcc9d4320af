// The platform's own monthly allowance with a hard cap: past it, every customer of the API gets
// 429 platform_limit (wire protocol section 2, platform_* fields; PLATFORM_PLANS_FILE).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey } from '../../server/test/support/money.js';
import { Meters, patchApi, serve } from './support/gatehouse.js';

const ALLOWANCE = 5;

/** A plans file whose free plan (every new API's) allows ALLOWANCE requests a month, hard-capped. */
function tinyPlansFile(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'platform-plans.json');
  const plan = { code: 'free', name: 'Free', price_monthly_cents: 0, monthly_requests: ALLOWANCE, max_customers: 50, custom_domain: false, teams: false, remove_branding: false, hard_cap: true };
  writeFileSync(file, JSON.stringify({ plans: [plan] }));
  return file;
}

let t: TestApp;
const meters = new Meters();
before(async () => {
  t = await startTestApp({ PLATFORM_PLANS_FILE: tinyPlansFile() });
});
after(async () => {
  await meters.closeAll();
  await t.close();
});

test('past the platform allowance every customer gets 429 platform_limit, and other processes learn it', async () => {
  const api = await createApi(t, { name: 'Tiny Plan' });
  await patchApi(api, { rps: 0 });
  const alice = await createCustomer(t, api, 'Alice');
  const bob = await createCustomer(t, api, 'Bob');
  const aliceKey = await createKey(api, alice.id);
  const bobKey = await createKey(api, bob.id);
  const meter = meters.make(t, api);
  // Every status counts toward the allowance, billable or not.
  for (const [key, status] of [[aliceKey, 200], [bobKey, 404], [aliceKey, 500], [bobKey, 201], [aliceKey, 200]] as const) await serve(meter, key.key, status);
  for (const key of [aliceKey, bobKey]) {
    const d = await meter.admit({ key: key.key });
    assert.equal(d.ok, false);
    if (d.ok) continue;
    assert.deepEqual([d.status, d.reason, d.body.error], [429, 'platform_limit', 'platform_limit']);
    const retryAfter = Number(d.headers['retry-after']);
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 31 * 86_400, `Retry-After ${d.headers['retry-after']}`);
  }
  assert.equal(meter.metrics().admissions.platform_limit, 2);
  await meter.flush();
  // Another process starts from the snapshot's platform_monthly_used and refuses at once.
  const other = meters.make(t, api);
  const d = await other.admit({ key: bobKey.key });
  assert.deepEqual(d.ok ? 'admitted' : [d.status, d.reason], [429, 'platform_limit']);
});
