import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, createKey } from '../../server/test/support/money.js';

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));
let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

// Asynchronous on purpose: the server under test runs in this very process.
function run(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', cli, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
    });
  });
}

test('gatehouse-sdk list shows dead letters, replay delivers them once and empties the file', async () => {
  const api = await createApi(t, { name: 'CLI API' });
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const snapshot = await api.sdk.get('/sdk/v1/snapshot');
  const policy = snapshot.body.customers.find((c: { id: string }) => c.id === customer.id).usage_policy_id;
  const dir = mkdtempSync(join(tmpdir(), 'gh-cli-'));
  const item = { idempotency_key: randomUUID(), api_key_id: key.id, usage_policy_id: policy, status_code: 200, count: 2, period_start: new Date().toISOString().slice(0, 13) + ':00:00Z' };
  writeFileSync(join(dir, 'dead-letters.jsonl'), JSON.stringify({ item, customerId: customer.id, chargeMicro: 2000, detail: 'HTTP 503: down', at: new Date().toISOString() }) + '\n');
  const env = { GATEHOUSE_SECRET_KEY: api.secret, GATEHOUSE_BASE_URL: t.url };

  const listed = await run(['list', '--dir', dir], env);
  assert.equal(listed.code, 0, listed.out);
  assert.match(listed.out, /1 dead letter\(s\)/);
  assert.match(listed.out, new RegExp(item.idempotency_key));

  const replayed = await run(['replay', '--dir', dir], env);
  assert.equal(replayed.code, 0, replayed.out);
  assert.match(replayed.out, /delivered 1, still set aside 0/);
  assert.equal(readFileSync(join(dir, 'dead-letters.jsonl'), 'utf8'), '');
  const balance = (await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.balance_micro;
  assert.equal(balance, 1_000_000 - 2 * 1000);

  assert.equal((await run(['replay', '--dir', dir], env)).code, 0, 'nothing left: a second replay sends nothing');
  assert.equal((await api.owner.client.get(`/apis/${api.apiId}/customers/${customer.id}`)).body.balance_micro, balance);
  assert.equal((await run(['bogus'], env)).code, 2);
});
