// verifyWebhook (`@gatehouse/sdk/webhooks`, issue 24 item 6): it accepts what the Standard
// Webhooks reference library signs and refuses anything else (another secret, a changed body, a
// stale or future time, missing headers); and the README's Express receiver, run as written,
// verifies a real delivery from Gatehouse.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src/webhooks.js';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { createApi, createCustomer, type ApiFixture } from '../../server/test/support/money.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const other = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ type: 'customer.created', timestamp: '2026-11-01T12:00:00.000Z', data: { object: { object: 'customer', id: 'cus_1', updated_seq: 0 } } });

function signed(payload: string, at = new Date(), id = 'evt_abc', secrets = [secret]) {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((s) => new Webhook(s).sign(id, at, payload)).join(' '),
  };
}

test("verifyWebhook accepts the reference library's signatures, with any body type and header shape", () => {
  const headers = signed(body);
  const event = verifyWebhook(Buffer.from(body), headers, secret);
  assert.deepEqual(event, { id: 'evt_abc', type: 'customer.created', timestamp: '2026-11-01T12:00:00.000Z', data: { object: { object: 'customer', id: 'cus_1', updated_seq: 0 } } });
  assert.equal(verifyWebhook(body, headers, secret).id, 'evt_abc');
  assert.equal(verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret).type, 'customer.created');
  assert.equal(verifyWebhook(body, { 'Webhook-Id': headers['webhook-id'], 'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'], 'webhook-signature': [headers['webhook-signature']] }, secret).id, 'evt_abc');
  // During a rotation Gatehouse signs with both secrets: either one verifies, and so does a list.
  const both = signed(body, new Date(), 'evt_rot', [other, secret]);
  assert.equal(verifyWebhook(body, both, secret).id, 'evt_rot');
  assert.equal(verifyWebhook(body, both, other).id, 'evt_rot');
  assert.equal(verifyWebhook(body, signed(body), [other, secret]).id, 'evt_abc');
  // The reference library accepts what verifyWebhook accepts.
  assert.deepEqual(new Webhook(secret).verify(body, headers), JSON.parse(body));
});

test('verifyWebhook refuses another secret, a changed body, a stale or future time, and missing headers', () => {
  const refused = (fn: () => unknown, message: RegExp) => assert.throws(fn, (e: unknown) => e instanceof WebhookVerificationError && message.test(e.message));
  const headers = signed(body);
  refused(() => verifyWebhook(body, headers, other), /no signature matches/);
  refused(() => verifyWebhook(body.replace('cus_1', 'cus_2'), headers, secret), /no signature matches/);
  refused(() => verifyWebhook(JSON.stringify(JSON.parse(body), null, 1), headers, secret), /no signature matches/);
  refused(() => verifyWebhook(body, { ...headers, 'webhook-id': 'evt_other' }, secret), /no signature matches/);
  refused(() => verifyWebhook(body, { ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }, secret), /no signature matches/);
  const now = Date.now();
  const old = signed(body, new Date(now - 301_000));
  refused(() => verifyWebhook(body, old, secret), /too far from now/);
  assert.equal(verifyWebhook(body, old, secret, { toleranceSeconds: 400 }).id, 'evt_abc');
  refused(() => verifyWebhook(body, signed(body, new Date(now + 301_000)), secret), /too far from now/);
  assert.equal(verifyWebhook(body, signed(body, new Date(now - 3_600_000)), secret, { now: () => now - 3_600_000 }).id, 'evt_abc');
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
    const partial: Record<string, string> = { ...headers };
    delete partial[name];
    refused(() => verifyWebhook(body, partial, secret), /missing/);
  }
  refused(() => verifyWebhook(body, { ...headers, 'webhook-timestamp': '12e9' }, secret), /not a time/);
  assert.throws(() => verifyWebhook(body, headers, 'whsec_'), TypeError);
});

// ---- The README's receiver against a real Gatehouse ----

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
let t: TestApp;
let api: ApiFixture;
let child: ChildProcess | undefined;
let folder: string | undefined;

before(async () => {
  t = await startTestApp({ UNSAFE_OUTBOUND_PRIVATE: 'true' });
  api = await createApi(t, { name: 'Readme Hooks' });
});
after(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  if (folder) rmSync(folder, { recursive: true, force: true });
  await t.close();
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

test('"Receiving events (webhooks)": the README receiver verifies a real delivery, and refuses one signed with another secret', async () => {
  const readme = readFileSync(join(packageRoot, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('\n## Receiving events (webhooks)\n'));
  const code = /```js\n([\s\S]*?)```/.exec(section)![1]!;
  assert.match(code, /\.listen\(3000\)/);
  const port = await freePort();
  const created = await api.owner.client.post(`/apis/${api.apiId}/webhooks`, { url: `http://127.0.0.1:${port}/webhooks/gatehouse`, event_types: ['customer.created'] });
  assert.equal(created.status, 200, created.text);

  folder = mkdtempSync(join(packageRoot, '.readme-example-'));
  writeFileSync(join(folder, 'receiver.mjs'), code.replace('.listen(3000)', '.listen(Number(process.env.PORT))'));
  child = spawn(process.execPath, [join(folder, 'receiver.mjs')], {
    cwd: folder,
    env: { ...process.env, PORT: String(port), GATEHOUSE_WEBHOOK_SECRET: created.body.secret },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (let tries = 0; ; tries++) {
    assert.equal(child.exitCode, null, `the receiver exited: ${stderr}`);
    if (await fetch(`http://127.0.0.1:${port}/`).then(() => true, () => false)) break;
    assert.ok(tries < 200, `the receiver never answered: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }

  const customer = await createCustomer(t, api, 'Heard Co');
  assert.deepEqual(await t.services.webhookDelivery.deliverDue(), { attempted: 1, succeeded: 1 });
  // The listing shows an event once every older transaction on the database server has ended.
  let event: { id: string } | undefined;
  for (let tries = 0; !event && tries < 100; tries++) {
    event = (await api.owner.client.get(`/apis/${api.apiId}/events?type=customer.created`)).body.events[0];
    if (!event) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.equal(stdout.trim(), `customer.created ${event!.id} ${customer.id}`);

  const forged = await fetch(`http://127.0.0.1:${port}/webhooks/gatehouse`, { method: 'POST', headers: { 'content-type': 'application/json', ...signed(body, new Date(), 'evt_forged', [other]) }, body });
  assert.equal(forged.status, 400);
  assert.equal(await forged.text(), 'no signature matches the secret');
  assert.equal(stdout.trim().split('\n').length, 1, 'the forged event was not taken');
});
