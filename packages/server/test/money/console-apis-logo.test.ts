// The logo as the console shows it (GET /apis/{api}/logo): the console's CSP loads images from its
// own host only, so the image an owner's logo address names is fetched through the same guarded
// cache as the portal's and served from the console host, to the API's workspace alone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { createApi, type ApiFixture, startWithApi } from '../support/money.js';
import { startHttpsServer, type TestHttpsServer } from '../support/test-ca.js';
import type { Member } from '../support/workspaces.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let viewer: Member;
let images: TestHttpsServer;
let fetches = 0;
before(async () => {
  images = await startHttpsServer((request, response) => {
    fetches++;
    if (request.url === '/logo.svg') return void response.writeHead(200, { 'content-type': 'image/svg+xml' }).end('<svg onload="alert(1)"/>');
    if (request.url === '/gone.png') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  ({ t, owner, api, viewer } = await startWithApi('Logo Owner', { name: 'Logo API' }, { UNSAFE_OUTBOUND_PRIVATE: 'true' }));
});
after(async () => {
  await t.close();
  await images.close();
});

const logo = (client = owner.client, apiId = api.apiId, query = '') => client.get(`/apis/${apiId}/logo${query}`);

test('no logo is a 404 problem; a set logo is served as the image, fetched once, to viewers too', async () => {
  const none = await logo();
  assert.equal(none.status, 404);
  assert.match(none.headers.get('content-type')!, /problem\+json/);
  assert.equal(none.body.detail, 'This API has no logo');

  assert.equal((await owner.client.put(`/apis/${api.apiId}/logo`, { logo_url: `${images.origin}/logo.png` })).status, 200);
  const before = fetches;
  for (const client of [owner.client, viewer.client]) {
    const image = await fetch(`${t.url}/api/apis/${api.apiId}/logo?v=1`, { headers: { cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } });
    assert.equal(image.status, 200);
    assert.equal(image.headers.get('content-type'), 'image/png');
    assert.equal(image.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(image.headers.get('content-security-policy'), "default-src 'none'");
    assert.equal(image.headers.get('cache-control'), 'private, max-age=3600');
    assert.deepEqual(Buffer.from(await image.arrayBuffer()), PNG);
  }
  assert.equal(fetches - before, 1, 'fetched once, then kept');
});

test('an SVG or a failing address is a 404, never served', async () => {
  assert.equal((await owner.client.put(`/apis/${api.apiId}/logo`, { logo_url: `${images.origin}/logo.svg` })).status, 200);
  const svg = await logo();
  assert.equal(svg.status, 404);
  assert.equal(svg.body.detail, 'The logo could not be fetched from its address');
  assert.equal((await owner.client.put(`/apis/${api.apiId}/logo`, { logo_url: `${images.origin}/gone.png` })).status, 200);
  assert.equal((await logo()).status, 404);
});

test('another workspace and strangers get nothing; v is bounded', async () => {
  assert.equal((await owner.client.put(`/apis/${api.apiId}/logo`, { logo_url: `${images.origin}/logo.png` })).status, 200);
  const stranger = await signUp(t, { name: 'Other Owner' });
  const theirs = await createApi(t, { name: 'Their API' }, stranger);
  assert.equal((await logo(stranger.client)).status, 404, "another workspace's API is not found");
  assert.equal((await logo(owner.client, theirs.apiId)).status, 404);
  assert.equal((await logo(t.client())).status, 401);
  assert.equal((await logo(owner.client, api.apiId, `?v=${'a'.repeat(64)}`)).status, 200);
  const long = await logo(owner.client, api.apiId, `?v=${'a'.repeat(65)}`);
  assert.equal(long.status, 422);
  assert.equal(long.body.errors[0].location, 'query.v');
});
