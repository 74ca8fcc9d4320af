// The console web app as the server serves it (DESIGN section 11): index.html never cached and
// under a strict policy with no inline script, hashed assets cached for a year and sent
// compressed, client routes answered with index.html, and the server's own paths never the app.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import Fastify from 'fastify';
import { WEB_APP_CSP, webAppRoutes } from '../../src/console/web-app/routes.js';
import { webAppDir } from '../../src/console/web-app/files.js';
import { startTestApp, type TestApp } from '../support/harness.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

const skip = webAppDir() ? false : 'the console web app is not built (npm test builds it first)';

test('/ is the app: index.html, never cached, a policy with no inline script or style and no other origin', { skip }, async () => {
  const answer = await fetch(`${t.url}/`);
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
  assert.equal(answer.headers.get('cache-control'), 'no-cache');
  assert.equal(answer.headers.get('content-security-policy'), WEB_APP_CSP);
  assert.doesNotMatch(WEB_APP_CSP, /unsafe-inline|unsafe-eval|https?:|\*/);
  assert.equal(answer.headers.get('x-frame-options'), 'DENY');
  const body = await answer.text();
  const scripts = [...body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.ok(scripts.length >= 1);
  for (const tag of scripts) assert.match(tag, /\bsrc="\/assets\/[^"]+\.js"/, `every script is a file of ours: ${tag}`);
  assert.doesNotMatch(body, /<style\b|\sstyle="/, 'no inline style');
});

test('hashed assets are immutable for a year, sent as brotli or gzip as asked, and answer 304 to their ETag', { skip }, async () => {
  const index = await (await fetch(`${t.url}/`)).text();
  const asset = /src="(\/assets\/[^"]+\.js)"/.exec(index)![1]!;
  const plain = await rawGet(asset, { 'accept-encoding': 'identity' });
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.match(String(plain.headers['content-type']), /^text\/javascript/);
  assert.equal(plain.headers['content-encoding'], undefined);
  const br = await rawGet(asset, { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.ok(br.length < plain.length / 2, `brotli ${br.length} of ${plain.length} bytes`);
  const gzip = await rawGet(asset, { 'accept-encoding': 'gzip' });
  assert.equal(gzip.headers['content-encoding'], 'gzip');
  const again = await rawGet(asset, { 'if-none-match': String(plain.headers.etag) });
  assert.equal(again.status, 304);
});

test('a client route, the payments provider return included, is answered with the app; the server paths are not', { skip }, async () => {
  // /account and /invites/<token> are portal paths too (on tenant hosts): on the console host they are the app's.
  for (const path of ['/apis/api_x/customers', '/apis/api_x/payments?connect=done', '/apis/api_x/plan?checkout=canceled', '/login?next=%2Fworkspaces', '/account', '/invites/AbC_123-x', '/signup', '/forgot-password']) {
    const answer = await fetch(t.url + path);
    assert.equal(answer.status, 200, path);
    assert.match(await answer.text(), /<div id="root">/, path);
  }
  const unknownApi = await fetch(`${t.url}/api/no-such-route`);
  assert.equal(unknownApi.status, 404);
  assert.match(unknownApi.headers.get('content-type') ?? '', /application\/problem\+json/);
  for (const path of ['/sdk/v1/nothing', '/assets/index-missing.js', '/dev/nothing', '/.well-known/openid-configuration']) {
    assert.equal((await fetch(t.url + path)).status, 404, path);
  }
  // The API's own routes are unchanged by the app's catch-all.
  assert.equal((await fetch(`${t.url}/api/me`)).status, 401);
  assert.equal((await fetch(`${t.url}/healthz`)).status, 200);
});

test('a tenant host never serves the console app', { skip }, async () => {
  const answer = await rawGet('/', { host: 'unknown.example' });
  assert.equal(answer.status, 404);
});

test('without a build, the console host says how to build it rather than a blank page', async () => {
  const bare = Fastify();
  await bare.register(webAppRoutes({ dir: null }));
  const answer = await bare.inject({ url: '/workspaces' });
  assert.equal(answer.statusCode, 503);
  assert.match(answer.body, /npm run build/);
  await bare.close();
});

function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; length: number }> {
  return new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port: t.port, path, headers: { host: `127.0.0.1:${t.port}`, ...headers } }, (res) => {
      let length = 0;
      res.on('data', (chunk: Buffer) => (length += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, length }));
    })
      .on('error', reject)
      .end();
  });
}
