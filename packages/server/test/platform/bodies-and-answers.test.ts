// Issue 26 item 6, the console's side: JSON bodies that are not UTF-8 are 400, a foreign charset
// or a content coding is 415, on every JSON route (console, SDK); every problem body is capped
// (20 entries, short texts), the role-permissions 422 included; /metrics asks for its token.
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { after, before, test } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { Problem } from '../../src/platform/errors.js';
import { bodyRefusal, charsetOf } from '../../src/platform/http/json-body.js';
import { metricsAllowed } from '../../src/platform/http/operational-routes.js';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi } from '../support/money.js';

const METRICS_TOKEN = 'm'.repeat(31) + 'T';
let t: TestApp;
let owner: SignedUp;
let api: Awaited<ReturnType<typeof createApi>>;
before(async () => {
  t = await startTestApp({ METRICS_TOKEN });
  owner = await signUp(t);
  api = await createApi(t, { name: 'Bodies API' }, owner);
});
after(() => t.close());

/** A raw POST: bytes and headers exactly as given. */
async function post(path: string, body: Buffer | string, headers: Record<string, string>) {
  const res = await fetch(t.url + path, { method: 'POST', headers, body });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: text ? JSON.parse(text) : null };
}

const loginBody = JSON.stringify({ email: 'nobody@example.com', password: 'not the password 1' });
const invalidUtf8 = Buffer.concat([Buffer.from('{"email":"nobody'), Buffer.from([0xff, 0xfe]), Buffer.from('@example.com","password":"not the password 1"}')]);

test('the console: UTF-8 JSON is read, with or without charset=utf-8; bad bytes are 400, another charset or a content coding 415', async () => {
  for (const contentType of ['application/json', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=utf8']) {
    const read = await post('/api/auth/login', loginBody, { 'content-type': contentType });
    assert.equal(read.status, 401, `${contentType}: read, and the credentials refused`);
  }
  const notUtf8 = await post('/api/auth/login', invalidUtf8, { 'content-type': 'application/json' });
  assert.equal(notUtf8.status, 400);
  assert.equal(notUtf8.body.type, 'urn:gatehouse:problem:malformed_json');
  assert.match(notUtf8.body.detail, /not valid UTF-8/);
  assert.match(notUtf8.type, /^application\/problem\+json/);

  for (const charset of ['iso-8859-1', 'utf-16', 'us-ascii', '"windows-1252"']) {
    const foreign = await post('/api/auth/login', loginBody, { 'content-type': `application/json; charset=${charset}` });
    assert.equal(foreign.status, 415, charset);
    assert.equal(foreign.body.type, 'urn:gatehouse:problem:unsupported_media_type');
    assert.match(foreign.body.detail, /JSON is sent in UTF-8/);
  }
  for (const [coding, bytes] of [['gzip', gzipSync(loginBody)], ['br', Buffer.from(loginBody)], ['identity, gzip', gzipSync(loginBody)]] as const) {
    const encoded = await post('/api/auth/login', bytes, { 'content-type': 'application/json', 'content-encoding': coding });
    assert.equal(encoded.status, 415, coding);
    assert.match(encoded.body.detail, /Content-Encoding .* is not accepted/);
  }
  assert.equal((await post('/api/auth/login', loginBody, { 'content-type': 'application/json', 'content-encoding': 'identity' })).status, 401, 'identity is no coding');
});

test('a signed-in change with bad bytes is refused and changes nothing; so is a usage report to the SDK routes', async () => {
  const cookie = [...owner.client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  const rename = Buffer.concat([Buffer.from('{"name":"Bad '), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  const refused = await fetch(`${t.url}/api/workspaces/${owner.workspaceId}`, { method: 'PATCH', headers: { 'content-type': 'application/json', cookie, 'x-requested-with': 'test' }, body: rename });
  assert.equal(refused.status, 400);
  const workspace = await owner.client.get(`/workspaces/${owner.workspaceId}`);
  assert.doesNotMatch(workspace.body.name, /\uFFFD/, 'nothing was stored with U+FFFD');

  const report = JSON.stringify({ items: [] });
  const auth = { authorization: `Bearer ${api.secret}` };
  assert.equal((await post('/sdk/v1/usage', report, { ...auth, 'content-type': 'application/json; charset=latin1' })).status, 415);
  assert.equal((await post('/sdk/v1/usage', gzipSync(report), { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' })).status, 415);
  assert.equal((await post('/sdk/v1/usage', Buffer.from([0x7b, 0xff, 0x7d]), { ...auth, 'content-type': 'application/json' })).status, 400);
});

test('the unit: charset and refusals', () => {
  assert.equal(charsetOf('application/json'), undefined);
  assert.equal(charsetOf('application/json; Charset="UTF-8"'), 'utf-8');
  assert.equal(charsetOf('application/json; foo=bar; charset=latin1'), 'latin1');
  assert.equal(bodyRefusal({ 'content-type': 'application/json' }, Buffer.from('{"a":"é ✓ 😀"}')), null);
  assert.equal(bodyRefusal({ 'content-type': 'application/json' }, Buffer.from([0xed, 0xa0, 0x80]))?.statusCode, 400, 'an encoded surrogate is not UTF-8');
  assert.equal(bodyRefusal({ 'content-type': 'application/json' }, Buffer.from([0xc0, 0xaf]))?.statusCode, 400, 'an overlong form is not UTF-8');
  assert.equal(bodyRefusal({ 'content-type': 'application/json', 'content-encoding': ['gzip'] }, Buffer.from('{}'))?.statusCode, 415);
});

test('500 unknown permissions: a 422 of 20 entries that counts the other 480, in a few kilobytes', async () => {
  const permissions = Array.from({ length: 500 }, (_, i) => ({ server_id: 'srv_x', permission: `p${i}` }));
  const answer = await owner.client.post(`/apis/${api.apiId}/signin/roles`, { name: 'r', permissions });
  assert.equal(answer.status, 422, answer.text.slice(0, 300));
  assert.equal(answer.body.errors.length, 20);
  assert.match(answer.body.detail, /; and 480 more$/);
  assert.ok(answer.text.length < 8000, `the 422 is ${answer.text.length} bytes (it was 105 KB)`);
  // At the bound nothing is cut.
  const twenty = await owner.client.post(`/apis/${api.apiId}/signin/roles`, { name: 'r', permissions: permissions.slice(0, 20) });
  assert.equal(twenty.body.errors.length, 20);
  assert.doesNotMatch(twenty.body.detail, /more$/);
});

test('every problem is capped, whoever builds it', () => {
  const errors = Array.from({ length: 21 }, (_, i) => ({ location: `body.items.${i}`, message: 'is wrong', value: 'v'.repeat(5000) }));
  const joined = new Problem('validation', errors.map((e) => `${e.location} ${e.message}`).join('; '), errors);
  assert.equal(joined.errors!.length, 20);
  assert.equal(joined.detail, `${errors.slice(0, 20).map((e) => `${e.location} ${e.message}`).join('; ')}; and 1 more`);
  assert.equal((joined.errors![0]!.value as string).length, 101, '100 characters and an ellipsis');
  const own = new Problem('validation', 'd'.repeat(50_000), [{ location: 'body.x', message: 'm'.repeat(1000), value: { big: 'x'.repeat(500) } }]);
  assert.equal(own.detail!.length, 4001, '4,000 characters and an ellipsis');
  assert.equal(own.errors![0]!.message!.length, 301);
  const counted = new Problem('validation', `${'e'.repeat(5000)}; and 7 more`);
  assert.match(counted.detail!, /…; and 7 more$/, 'the count survives the cut');
  assert.equal(own.errors![0]!.value, undefined, 'a large object is not echoed');
  assert.deepEqual(new Problem('validation', 'one', [{ location: 'body.a', message: 'm', value: 3 }]).errors, [{ location: 'body.a', message: 'm', value: 3 }]);
});

test('/metrics asks for METRICS_TOKEN; without one, loopback only, and never behind a proxy', async () => {
  const scrape = (headers: Record<string, string> = {}) => fetch(`${t.url}/metrics`, { headers });
  const anonymous = await scrape();
  assert.equal(anonymous.status, 401);
  assert.match(anonymous.headers.get('www-authenticate') ?? '', /^Bearer/);
  assert.equal((await scrape({ authorization: `Bearer ${METRICS_TOKEN.slice(0, -1)}x` })).status, 401);
  assert.equal((await scrape({ authorization: `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString('base64')}` })).status, 401);
  const scraped = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` });
  assert.equal(scraped.status, 200);
  assert.match(await scraped.text(), /gatehouse_http_requests_total/);

  const token = { token: METRICS_TOKEN, trustProxy: false };
  assert.equal(metricsAllowed(token, `Bearer ${METRICS_TOKEN}`, '203.0.113.9'), 'allowed', 'a token works from anywhere');
  const none = { token: null, trustProxy: false };
  for (const loopback of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) assert.equal(metricsAllowed(none, undefined, loopback), 'allowed', loopback);
  for (const outside of ['203.0.113.9', '::ffff:203.0.113.9', '2001:db8::1', undefined]) assert.equal(metricsAllowed(none, undefined, outside), 'hidden', String(outside));
  assert.equal(metricsAllowed({ token: null, trustProxy: true }, undefined, '127.0.0.1'), 'hidden', 'behind a proxy every connection may come from loopback');

  assert.throws(() => loadConfig({ METRICS_TOKEN: 'short' }, false), /METRICS_TOKEN/);
  assert.equal(loadConfig({ METRICS_TOKEN }, false).metricsToken, METRICS_TOKEN);
  assert.equal(loadConfig({}, false).metricsToken, null);
});
