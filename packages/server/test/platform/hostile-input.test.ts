// Hardening, items 1 to 3 and 8 on the console: validation that cannot be made slow or made to
// answer megabytes, one text rule for every string, the dev outbox only where mail has nowhere
// else to go, and malformed JSON or URLs answered as problem+json.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { signUp, type SignedUp } from '../support/flows.js';

let t: TestApp;
let owner: SignedUp;
let apiId: string;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name: 'Hostile API', preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  apiId = created.body.api.id;
});
after(() => t.close());

const manyPermissions = (n: number) => Array.from({ length: n }, (_, i) => ({ server_id: 'srv_x', permission: `p${i}` }));

function assertProblem(answer: { status: number; headers: Headers; body: any; text: string }, status: number) {
  assert.equal(answer.status, status, answer.text.slice(0, 500));
  assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(answer.body.status, status);
  assert.equal(typeof answer.body.title, 'string');
}

test('a route that needs a caller refuses an unknown one before reading the body', async () => {
  const anonymous = t.client();
  // 120,000 items made ajv's pairwise uniqueItems hold the event loop for seconds, and the 422
  // named every item: 15 MB. Without credentials nobody gets that far now.
  const answer = await anonymous.post(`/apis/${apiId}/signin/roles`, { name: 'r', permissions: Array.from({ length: 120_000 }, (_, i) => i) });
  assertProblem(answer, 401);
  assert.ok(answer.text.length < 1000);
  // Not even JSON is parsed: a broken body is still a 401.
  assertProblem(await anonymous.post(`/apis/${apiId}/customers`, undefined, { raw: '{"broken', headers: { 'content-type': 'application/json' } }), 401);
  // Routes meant for strangers still read their bodies.
  assertProblem(await anonymous.post('/auth/login', { email: 'a@b.example' }), 422);
});

test('routes open to strangers take bodies of up to 16 KB, refused by their length', async () => {
  const anonymous = t.client();
  const base = JSON.stringify({ email: 'a@b.example', password: '' }).length;
  const padded = (bytes: number) => JSON.stringify({ email: 'a@b.example', password: 'p'.repeat(bytes - base) });
  const within = padded(16 * 1024);
  assert.equal(Buffer.byteLength(within), 16 * 1024);
  // At the limit the body is read, and its password is refused for its length (at most 200).
  assertProblem(await anonymous.request('POST', '/auth/login', undefined, { raw: within, headers: { 'content-type': 'application/json' } }), 422);
  const over = padded(16 * 1024 + 1);
  assertProblem(await anonymous.request('POST', '/auth/login', undefined, { raw: over, headers: { 'content-type': 'application/json' } }), 413);
  assertProblem(await anonymous.post('/auth/signup', { email: 'x'.repeat(1024 * 1024) }), 413);
  // A signed-in caller's routes keep the larger limit.
  assertProblem(await owner.client.patch(`/workspaces/${owner.workspaceId}`, { name: 'n'.repeat(20 * 1024) }), 422);
});

test('a body past its bounds is refused at the first bound, in a small answer', async () => {
  const answer = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'r', permissions: Array.from({ length: 120_000 }, (_, i) => i) });
  assertProblem(answer, 422);
  assert.ok(answer.text.length < 4000, `the 422 is ${answer.text.length} bytes`);
  assert.deepEqual(answer.body.errors.map((e: { location: string }) => e.location), ['body.permissions']);
  assert.match(answer.body.errors[0].message, /more than 500 items/);
  assert.equal(answer.body.errors[0].value, undefined, 'a huge value is not echoed');
  // 500 items is the bound: the same shape at the bound gets past it to the item checks.
  const atBound = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'r', permissions: manyPermissions(500) });
  assertProblem(atBound, 422);
  assert.doesNotMatch(JSON.stringify(atBound.body.errors), /more than 500 items/);
  // Over the bound by one is refused for the bound.
  const overBound = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'r', permissions: manyPermissions(501) });
  assert.match(overBound.body.errors[0].message, /more than 500 items/);
});

test('an object refusing unknown properties is refused at its property count', async () => {
  const body = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, i]));
  const answer = await owner.client.patch(`/apis/${apiId}`, body);
  assertProblem(answer, 422);
  assert.ok(answer.text.length < 4000, `the 422 is ${answer.text.length} bytes`);
});

test('a 422 lists at most 20 errors and says how many more; long values are cut', async () => {
  const body: Record<string, unknown> = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`unknown_${i}`, 'x'.repeat(5000)]));
  body.name = 42;
  body.rps = 'fast';
  body.price_per_request_micro = -1;
  body.docs_url = 'y'.repeat(301);
  // 12 unknown + 4 bad known fields, 20 errors (docs_url breaks 5 rules): every field is named.
  const all = await owner.client.patch(`/apis/${apiId}`, body);
  assertProblem(all, 422);
  assert.equal(new Set(all.body.errors.map((e: { location: string }) => e.location)).size, 16);
  assert.equal(all.body.errors.length, 20);
  assert.doesNotMatch(all.body.detail, /more$/);
  const long = all.body.errors.find((e: { location: string }) => e.location === 'body.unknown_0');
  assert.equal(long.value, `${'x'.repeat(100)}…`);
  // Past 20 the rest are counted: two bad URLs break 5 rules each.
  const capped = await owner.client.patch(`/apis/${apiId}`, { ...body, privacy_url: 'z'.repeat(301) });
  assertProblem(capped, 422);
  assert.equal(capped.body.errors.length, 20);
  assert.match(capped.body.detail, /; and 5 more$/);
  assert.match(capped.body.detail, /and \d+ more$/);
});

test('uniqueItems compares objects by value, whatever their key order', async () => {
  const server = await owner.client.post(`/apis/${apiId}/signin/servers`, { name: 'S', resource_url: 'https://s.example/', permissions: [{ name: 'read', description: 'Read' }] });
  assert.equal(server.status, 200, server.text);
  const same = [{ server_id: server.body.id, permission: 'read' }, { permission: 'read', server_id: server.body.id }];
  const answer = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'dup', permissions: same });
  assertProblem(answer, 422);
  assert.equal(answer.body.errors[0].location, 'body.permissions');
  assert.match(answer.body.errors[0].message, /duplicate items \(items ## 0 and 1/);
  const distinct = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'one', permissions: [same[0]] });
  assert.equal(distinct.status, 200, distinct.text);
});

test('NUL and lone surrogates are refused in bodies, keys, paths and queries, naming the field', async () => {
  const anonymous = t.client();
  const nulEmail = await anonymous.post('/auth/login', { email: 'a\u0000@b.example', password: 'x' });
  assertProblem(nulEmail, 422);
  assert.deepEqual(nulEmail.body.errors, [{ location: 'body.email', message: 'contains NUL' }]);

  // A lone surrogate would have reached the audit log's jsonb and failed there (500).
  const surrogate = await owner.client.request('PATCH', `/workspaces/${owner.workspaceId}`, undefined, { raw: '{"name":"Acme \\ud800"}', headers: { 'content-type': 'application/json' } });
  assertProblem(surrogate, 422);
  assert.deepEqual(surrogate.body.errors, [{ location: 'body.name', message: 'is not well-formed Unicode' }]);

  const key = await owner.client.request('PATCH', `/apis/${apiId}`, undefined, { raw: '{"na\\u0000me":"x"}', headers: { 'content-type': 'application/json' } });
  assertProblem(key, 422);
  assert.deepEqual(key.body.errors, [{ location: 'body.na\\u0000me', message: 'contains NUL' }]);

  const path = await owner.client.get(`/apis/${apiId}%00/customers`);
  assertProblem(path, 422);
  assert.equal(path.body.errors[0].location, 'path.api');

  const query = await owner.client.get(`/apis/${apiId}/customers?q=a%00b`);
  assertProblem(query, 422);
  assert.deepEqual(query.body.errors, [{ location: 'query.q', message: 'contains NUL' }]);

  const encodedSurrogate = await owner.client.get(`/apis/${apiId}/customers?q=%ED%A0%80`);
  assert.ok(encodedSurrogate.status < 500, encodedSurrogate.text);

  // The same values without the bad character are fine.
  assert.equal((await owner.client.get(`/apis/${apiId}/customers?q=ab`)).status, 200);
  assert.equal((await owner.client.patch(`/workspaces/${owner.workspaceId}`, { name: 'Acme \ud83d\ude00' })).status, 200);
});

test('a session cookie that breaks the text rule counts as absent', async () => {
  const forged = await fetch(`${t.url}/api/me`, { headers: { cookie: 'gh_session=%00' } });
  assert.equal(forged.status, 401);
});

test('JSON nested deeper than the parser allows is a 400 problem, not a stack overflow', async () => {
  // 200 KB: past what routes open to strangers take, so sent by a signed-in owner.
  const deep = '['.repeat(100_000) + ']'.repeat(100_000);
  const answer = await owner.client.request('PATCH', `/workspaces/${owner.workspaceId}`, undefined, { raw: deep, headers: { 'content-type': 'application/json' } });
  assertProblem(answer, 400);
  assert.equal(answer.body.type, 'urn:gatehouse:problem:malformed_json');
  assert.match(answer.body.detail, /deeper than 32 levels/);
  // 32 levels is allowed by the parser (and then refused by the schema, naming the field).
  const nested = `{"email":${'['.repeat(31)}${']'.repeat(31)},"password":"x"}`;
  const atLimit = await t.client().request('POST', '/auth/login', undefined, { raw: nested, headers: { 'content-type': 'application/json' } });
  assertProblem(atLimit, 422);
  const overLimit = `{"email":${'['.repeat(32)}${']'.repeat(32)},"password":"x"}`;
  assertProblem(await t.client().request('POST', '/auth/login', undefined, { raw: overLimit, headers: { 'content-type': 'application/json' } }), 400);
  // Brackets inside strings are text, not nesting.
  const inString = await t.client().post('/auth/login', { email: '['.repeat(1000), password: 'x' });
  assertProblem(inString, 422);
});

test('bad percent-encoding in a path is a problem+json 400', async () => {
  const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: t.port, path: '/api/apis/%E0%A4%A/customers', headers: { host: `127.0.0.1:${t.port}` } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }));
    });
    req.on('error', reject).end();
  });
  assert.equal(answer.status, 400, answer.body);
  assert.match(answer.type, /^application\/problem\+json/);
  assert.equal(JSON.parse(answer.body).type, 'urn:gatehouse:problem:bad_request');
});

test('the dev outbox is 404 when SMTP is configured', async () => {
  // The harness configures SMTP_URL (its own SMTP server): the codes mailed to others stay private.
  for (const path of ['/dev/mail.json', '/dev/mail']) assert.equal((await fetch(t.url + path)).status, 404, path);
});

test('the dev outbox shows mail when there is nowhere else for it to go', async () => {
  const dev = await startTestApp({ SMTP_URL: '' });
  try {
    const email = `dev-${Date.now()}@example.com`;
    assert.equal((await dev.client().post('/auth/signup', { email })).status, 200);
    const outbox = (await (await fetch(`${dev.url}/dev/mail.json`)).json()) as { mails: { to: string }[] };
    assert.ok(outbox.mails.some((mail) => mail.to === email));
  } finally {
    await dev.close();
  }
});
