// The API's logo on the sign-in pages comes through the tenant host (pages load nothing from
// elsewhere), fetched once through the SSRF guard; raster images only.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { startIssuer, tenantFetch, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
let logoServer: Server;
let logoBase: string;
let fetches = 0;
before(async () => {
  logoServer = createServer((request, response) => {
    fetches++;
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

const setLogo = (url: string) => f.t.services.db.updateTable('apis').set({ logo_url: url }).where('id', '=', f.apiId).execute();

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
  assert.equal((await tenantFetch(f.issuer + '/branding/logo')).status, 404);
});
