// The API's logo on the sign-in pages comes through the tenant host (pages load nothing from
// elsewhere), fetched once through the SSRF guard; raster images only.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { LogoCache } from '../../src/platform/outbound/logo-cache.js';
import { startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';

let f: IssuerFixture;
let logoServer: Server;
let logoBase: string;
let fetches = 0;
/** While set, the logo server holds every answer until it is called. */
let held: Promise<void> | null = null;
before(async () => {
  logoServer = createServer(async (request, response) => {
    fetches++;
    if (held) await held;
    const big = /^\/big-(\d+)\.png(?:\?|$)/.exec(request.url ?? '');
    if (big) return response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(Number(big[1]) * 1024, 7));
    if (request.url === '/logo.svg') return response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg onload="alert(1)"/>');
    response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from('89504e470d0a1a0a', 'hex'));
  });
  await new Promise<void>((resolve) => logoServer.listen(0, '127.0.0.1', resolve));
  logoBase = `http://127.0.0.1:${(logoServer.address() as AddressInfo).port}`;
  f = await startIssuer('Logo API', { UNSAFE_OUTBOUND_PRIVATE: 'true' });
});
after(async () => {
  await f.t.close();
  logoServer.close();
});

const setLogo = async (url: string) => {
  await f.t.services.db.updateTable('apis').set({ logo_url: url }).where('id', '=', f.apiId).execute();
  await notifyChange(f.t.services.db, [changed.api(f.apiId)]);
};

test('the page shows the logo from its own host; the logo is fetched once and served with nosniff', async () => {
  await setLogo(`${logoBase}/logo.png`);
  const url = new URL(f.issuer + '/oauth/authorize');
  for (const [name, value] of Object.entries(webRequest(f).params)) url.searchParams.set(name, value);
  const redirect = await tenantFetch(url);
  const page = await tenantFetch(new URL(redirect.headers.get('location')!, f.issuer), { headers: { cookie: redirect.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ') } });
  const html = await page.text();
  assert.match(html, /<img src="\/branding\/logo"/);
  assert.match(page.headers.get('content-security-policy')!, /img-src 'self'/);
  assert.ok(!html.includes(logoBase), 'the page names no other host');
  const before = fetches;
  for (let i = 0; i < 3; i++) {
    const logo = await tenantFetch(f.issuer + '/branding/logo');
    assert.equal(logo.status, 200);
    assert.equal(logo.headers.get('content-type'), 'image/png');
    assert.equal(logo.headers.get('x-content-type-options'), 'nosniff');
  }
  assert.equal(fetches - before, 1, 'fetched once, then kept');
});

test('an SVG logo is refused (script in our origin), and no logo is 404', async () => {
  await setLogo(`${logoBase}/logo.svg`);
  assert.equal((await tenantFetch(f.issuer + '/branding/logo')).status, 404);
  await f.t.services.db.updateTable('apis').set({ logo_url: null }).where('id', '=', f.apiId).execute();
  await notifyChange(f.t.services.db, [changed.api(f.apiId)]);
  assert.equal((await tenantFetch(f.issuer + '/branding/logo')).status, 404);
});

test('page views at once make one fetch per API (single flight), and all of them get the logo', async () => {
  await setLogo(`${logoBase}/logo.png?flight`);
  let release!: () => void;
  held = new Promise<void>((resolve) => (release = resolve));
  // Count the views that reached the cache, so the answer is held until all of them wait on it.
  const logos = f.t.services.logos as unknown as { get: (...args: unknown[]) => Promise<unknown> };
  const get = logos.get;
  let waiting = 0;
  logos.get = function (this: unknown, ...args: unknown[]) {
    waiting++;
    return get.apply(this, args);
  };
  try {
    const before = fetches;
    const views = Array.from({ length: 50 }, () => tenantFetch(f.issuer + '/branding/logo'));
    while (waiting < 50) await sleep(5);
    release();
    const answers = await Promise.all(views);
    assert.deepEqual([...new Set(answers.map((answer) => answer.status))], [200]);
    assert.equal(fetches - before, 1, '50 views, one fetch');
  } finally {
    held = null;
    release();
    logos.get = get;
  }
});

test('the logo cache is bounded in bytes: past its budget the least recently used logo is fetched again', async () => {
  // Three 100 KB logos of three APIs in a 250 KB budget: the third pushes out the first.
  const logos = new LogoCache(f.t.clock, true, 250 * 1024);
  const logo = (api: string) => logos.get(api, `${logoBase}/big-100.png?${api}`);
  const before = fetches;
  for (const api of ['api_a', 'api_b']) assert.equal((await logo(api)).ok, true);
  await logo('api_a');
  assert.equal(fetches - before, 2, 'both kept');
  await logo('api_c');
  assert.equal(fetches - before, 3);
  await logo('api_a'); // used after b, so b went
  assert.equal(fetches - before, 3, 'a was kept');
  await logo('api_b');
  assert.equal(fetches - before, 4, 'b was forgotten and fetched again');
});
