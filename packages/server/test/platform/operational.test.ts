import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signUp } from '../support/flows.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('/healthz and /readyz answer on any host', async () => {
  for (const path of ['/healthz', '/readyz']) {
    const res = await fetch(t.url + path);
    assert.equal(res.status, 200);
  }
  assert.deepEqual(await (await fetch(t.url + '/readyz')).json(), { ready: true });
});

test('/readyz answers 503 while a migration is pending', async () => {
  await t.services.db.deleteFrom('schema_migrations' as never).where('name' as never, '=', '0002_apis_customers_ledger.sql' as never).execute();
  try {
    const res = await fetch(t.url + '/readyz');
    assert.equal(res.status, 503);
    assert.equal(((await res.json()) as { reason: string }).reason, 'migrations pending');
  } finally {
    await t.services.db.insertInto('schema_migrations' as never).values({ name: '0002_apis_customers_ledger.sql' } as never).execute();
  }
});

test('/metrics counts requests by route pattern and status, and times them', async () => {
  const owner = await signUp(t);
  await owner.client.get('/me');
  await owner.client.get(`/workspaces/${owner.workspaceId}`);
  const text = await (await fetch(t.url + '/metrics')).text();
  assert.match(text, /gatehouse_http_requests_total\{route="\/api\/me",method="GET",status="200"\} \d+/);
  assert.match(text, /gatehouse_http_requests_total\{route="\/api\/workspaces\/:ws",method="GET",status="200"\} 1/);
  assert.match(text, /gatehouse_http_request_duration_seconds_bucket\{le="0\.005",route="\/api\/me"/);
  assert.match(text, /gatehouse_mail_sent_total \d+/);
  // A route pattern, never a concrete id, so labels stay few.
  assert.doesNotMatch(text, new RegExp(owner.workspaceId));
});

test('the OpenAPI document is 3.1, describes every console route with a summary, and the docs page serves', async () => {
  const doc = (await (await fetch(t.url + '/api/openapi.json')).json()) as any;
  assert.equal(doc.openapi, '3.1.0');
  const operations = Object.values(doc.paths as Record<string, Record<string, { summary?: string }>>).flatMap((p) => Object.values(p));
  assert.ok(operations.length > 50);
  for (const op of operations) assert.ok(op.summary, 'every operation has a summary');
  assert.ok(doc.components.schemas.ErrorModel);
  const docs = await fetch(t.url + '/api/docs/');
  assert.equal(docs.status, 200);
  assert.match(docs.headers.get('content-type') ?? '', /text\/html/);
});

test('an unknown host gets 404, also for the landing page and metrics', async () => {
  const { request } = await import('node:http');
  const status = (path: string) =>
    new Promise<number>((resolve, reject) => {
      request({ host: '127.0.0.1', port: t.port, path, headers: { host: 'unknown.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on('error', reject)
        .end();
    });
  assert.equal(await status('/'), 404);
  assert.equal(await status('/metrics'), 404);
  assert.equal(await status('/api/me'), 404);
  assert.equal(await status('/healthz'), 200);
});

test('stopping the app lets a request in flight finish', async () => {
  const other = await startTestApp();
  const client = other.client();
  const arrived = new Promise<void>((resolve) => other.app.server.once('request', () => resolve()));
  const inFlight = client.post('/auth/login', { email: 'nobody@example.com', password: 'x'.repeat(12) });
  await arrived;
  const closing = other.close();
  const answer = await inFlight;
  assert.equal(answer.status, 401, 'the login (an argon2 check) completed with its real answer');
  assert.equal(answer.headers.get('connection'), 'close', 'the client is told to hang up, so shutdown does not wait for keep-alive');
  await closing;
});
