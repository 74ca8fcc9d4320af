// Endpoints are public https addresses (issue 24 item 3), under the outbound guard of logos and
// metadata documents: in production a private address is refused when the endpoint is registered
// and again at every attempt (a name that moved to one later); loopback receivers work only
// outside production with UNSAFE_OUTBOUND_PRIVATE=true.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { loadConfig, ConfigError } from '../../src/config.js';
import { safePost } from '../../src/platform/outbound/safe-post.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertRefusedAt, createApi, createCustomer, type ApiFixture } from '../support/money.js';
import { startReceiver, type Receiver } from '../support/webhooks.js';

let production: TestApp;
let development: TestApp;
let receiver: Receiver;
let prodApi: ApiFixture;
let devApi: ApiFixture;

before(async () => {
  production = await startTestApp({ NODE_ENV: 'production' });
  development = await startTestApp();
  prodApi = await createApi(production, { name: 'Production API' });
  devApi = await createApi(development, { name: 'Development API' });
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
  await production?.close();
  await development?.close();
});

const PRIVATE = [
  (port: number) => `http://127.0.0.1:${port}/hooks`,
  (port: number) => `https://127.0.0.1:${port}/hooks`,
  (port: number) => `https://localhost:${port}/hooks`,
  (port: number) => `https://hooks.localhost:${port}/hooks`,
  () => 'https://[::1]/hooks',
  () => 'https://[::ffff:127.0.0.1]/hooks',
  () => 'https://10.1.2.3/hooks',
  () => 'https://192.168.1.20/hooks',
  () => 'https://169.254.169.254/latest/meta-data',
  () => 'https://[fd00::1]/hooks',
  () => 'https://intranet/hooks',
];

test('in production a private address is refused when an endpoint is registered or moved there; a public one is taken', async () => {
  for (const url of PRIVATE.map((make) => make(receiver.port))) {
    const created = await prodApi.owner.client.post(`/apis/${prodApi.apiId}/webhooks`, { url });
    assertRefusedAt(created, 'body.url');
  }
  for (const url of ['ftp://hooks.example.com/x', 'https://user:pass@hooks.example.com/x', 'https://hooks.example.com/x#frag', 'not a url']) {
    assertRefusedAt(await prodApi.owner.client.post(`/apis/${prodApi.apiId}/webhooks`, { url }), 'body.url');
  }
  const listed = await prodApi.owner.client.get(`/apis/${prodApi.apiId}/webhooks`);
  assert.deepEqual(listed.body.webhooks, [], 'nothing was registered');
  const created = await prodApi.owner.client.post(`/apis/${prodApi.apiId}/webhooks`, { url: 'https://hooks.example.com/gatehouse' });
  assert.equal(created.status, 200, created.text);
  const moved = await prodApi.owner.client.patch(`/apis/${prodApi.apiId}/webhooks/${created.body.id}`, { url: `https://127.0.0.1:${receiver.port}/hooks` });
  assertRefusedAt(moved, 'body.url');
});

test('in production an attempt to a name that now resolves to a private address is refused before connecting', async () => {
  receiver.received.length = 0;
  const created = await prodApi.owner.client.post(`/apis/${prodApi.apiId}/webhooks`, { url: 'https://hooks.example.org/gatehouse', event_types: ['customer.created'] });
  assert.equal(created.status, 200, created.text);
  // The owner's DNS now answers loopback for the name (as a rebinding attacker's would): the
  // stored address stands in for that answer, since `localhost` resolves to loopback here.
  await sql`update webhook_endpoints set url = ${`https://localhost:${receiver.port}/hooks`} where id = ${created.body.id}`.execute(production.services.db);
  await createCustomer(production, prodApi, 'Rebound Co');
  await production.services.webhookDelivery.deliverDue();
  const [delivery] = (await prodApi.owner.client.get(`/apis/${prodApi.apiId}/webhooks/${created.body.id}/deliveries`)).body.deliveries;
  assert.equal(delivery.status, 'pending');
  assert.equal(delivery.error, 'the host is not on the public internet');
  assert.equal(delivery.status_code, undefined);
  assert.equal(receiver.received.length, 0, 'nothing reached the loopback receiver');
});

test('outside production, loopback receivers need UNSAFE_OUTBOUND_PRIVATE=true, which production refuses', async () => {
  assertRefusedAt(await devApi.owner.client.post(`/apis/${devApi.apiId}/webhooks`, { url: receiver.url }), 'body.url');
  assertRefusedAt(await devApi.owner.client.post(`/apis/${devApi.apiId}/webhooks`, { url: `https://127.0.0.1:${receiver.port}/hooks` }), 'body.url');
  assert.throws(() => loadConfig({ NODE_ENV: 'production', UNSAFE_OUTBOUND_PRIVATE: 'true', SECRET_KEY: Buffer.alloc(32).toString('base64'), DATA_DIR: '/tmp/gh-webhooks-config' }), (e: unknown) => e instanceof ConfigError && e.setting === 'UNSAFE_OUTBOUND_PRIVATE');
});

test('an attempt is bounded in time, does not follow redirects, and reads only what it keeps', async () => {
  receiver.received.length = 0;
  receiver.answer = () => 'hold';
  const held = await safePost(receiver.url, { body: '{}', headers: {}, timeoutMs: 300, keepBytes: 2048, allowPrivateAddresses: true });
  assert.deepEqual(held, { ok: false, reason: 'timed out' });
  receiver.answer = () => ({ status: 200, body: 'x'.repeat(1_000_000) });
  const long = await safePost(receiver.url, { body: '{}', headers: {}, timeoutMs: 5000, keepBytes: 2048, allowPrivateAddresses: true });
  assert.ok(long.ok);
  assert.equal(long.excerpt.length, 2048);
  receiver.answer = () => ({ status: 200, body: 'x\u0000y' });
  const nul = await safePost(receiver.url, { body: '{}', headers: {}, timeoutMs: 5000, keepBytes: 2048, allowPrivateAddresses: true });
  assert.deepEqual(nul, { ok: true, status: 200, excerpt: 'x\uFFFDy' }, 'text the database can hold');
  const refused = await safePost(`https://localhost:${receiver.port}/hooks`, { body: '{}', headers: {}, timeoutMs: 5000, keepBytes: 2048 });
  assert.deepEqual(refused, { ok: false, reason: 'the host is not on the public internet' });
  receiver.answer = () => ({ status: 200 });
});
