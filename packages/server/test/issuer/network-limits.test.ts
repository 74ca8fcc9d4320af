// Issue 26: the per-network limits of the protocol endpoints that spec 8 leaves to us, on both
// sides (protocol/limits.ts): pushed authorization requests of public clients (60 at once, 600
// an hour per network; confidential clients not counted) and every request to the token endpoint
// (spec 7: `temporarily_unavailable` for too many requests from the network; 1000 at once, 100 a
// second per network and API). The app's clock is held still so the buckets are counted exactly.
// The fixture trusts a proxy, so X-Forwarded-For names the client's network.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR, MINUTE } from '../../src/platform/clock.js';
import { holdClock, inBatches, webAuth } from '../support/issuer-flows.js';
import { pkcePair, postForm, startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Network Limits API', { TRUST_PROXY: 'true' });
});
after(() => f.t.close());

const from = (address: string, headers: Record<string, string> = {}) => ({ 'x-forwarded-for': address, ...headers });

function spaRequest() {
  const pkce = pkcePair();
  return { response_type: 'code', client_id: f.spa.clientId, redirect_uri: f.spa.redirectUri, scope: 'openid', state: 'st', code_challenge: pkce.challenge, code_challenge_method: 'S256' };
}
const pushPublic = (address: string, extra: Record<string, string> = {}) => postForm(f, '/oauth/par', { ...spaRequest(), ...extra }, from(address));

function assertLimited(answer: Awaited<ReturnType<typeof postForm>>, what: string) {
  assert.equal(answer.status, 429, `${what}: ${answer.status} ${answer.text}`);
  assert.equal(answer.body.error, 'temporarily_unavailable', what);
  assert.equal(typeof answer.body.error_description, 'string', what);
  assert.match(answer.headers.get('retry-after') ?? '', /^[1-9]\d*$/, what);
}

test('PAR from public clients: 60 at once per network, then 429 temporarily_unavailable; refused requests and confidential clients are not counted; 600 an hour', async () => {
  const clock = holdClock(f.t);
  try {
    clock.advance(2 * HOUR); // whatever earlier tests spent has refilled
    const network = '203.0.113.40';
    // A request refused on its merits keeps nothing and costs nothing.
    for (let i = 0; i < 5; i++) assert.equal((await pushPublic(network, { code_challenge_method: 'plain' })).status, 400);
    const burst = await inBatches(60, 10, () => pushPublic(network));
    assert.deepEqual([...new Set(burst.map((answer) => answer.status))], [201], 'the whole burst of 60 is kept');
    assertLimited(await pushPublic(network), 'request 61');
    // The owner's web app proves its secret: not limited here.
    const web = await postForm(f, '/oauth/par', webRequest(f).params, from(network, webAuth(f)));
    assert.equal(web.status, 201, web.text);
    // Another network is counted apart; an IPv6 /64 is one network.
    assert.equal((await pushPublic('203.0.113.41')).status, 201);
    const v6 = await inBatches(60, 10, (i) => pushPublic(`2001:db8:26:1::${(i + 1).toString(16)}`));
    assert.deepEqual([...new Set(v6.map((answer) => answer.status))], [201]);
    assertLimited(await pushPublic('2001:db8:26:1:ffff::9'), 'same /64');
    // 600 an hour: a minute gives back 10.
    clock.advance(MINUTE);
    const later = await inBatches(11, 1, () => pushPublic(network));
    assert.deepEqual(later.map((answer) => answer.status), [...Array(10).fill(201), 429]);
  } finally {
    clock.release();
  }
});

test('token endpoint: 1000 requests at once per network, then 429 temporarily_unavailable with Retry-After 1, good ones too; 100 a second after', async () => {
  const clock = holdClock(f.t);
  try {
    clock.advance(60_000);
    const network = '192.0.2.77';
    // Every request counts, a wrong secret as much as a good one.
    const wrong = () => postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'ghr_nothing' }, from(network, { authorization: `Basic ${Buffer.from(`${f.web.clientId}:wrong`).toString('base64')}` }));
    const burst = await inBatches(1000, 25, wrong);
    assert.deepEqual([...new Set(burst.map((answer) => answer.status))], [401], 'the whole burst of 1000 is judged');
    const over = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'ghr_nothing' }, from(network, webAuth(f)));
    assertLimited(over, 'request 1001, with the right secret');
    assert.equal(over.headers.get('retry-after'), '1');
    assert.equal(over.headers.get('cache-control'), 'no-store');
    // Another network is not limited: the right secret gets as far as the refresh token.
    const elsewhere = await postForm(f, '/oauth/token', { grant_type: 'refresh_token', refresh_token: 'ghr_nothing' }, from('192.0.2.78', webAuth(f)));
    assert.equal(elsewhere.status, 400, elsewhere.text);
    assert.equal(elsewhere.body.error, 'invalid_grant');
    clock.advance(10); // one request's worth at 100/s
    assert.equal((await wrong()).status, 401);
    assertLimited(await wrong(), 'after the one refilled');
    clock.advance(1000);
    const second = await inBatches(100, 25, wrong);
    assert.deepEqual([...new Set(second.map((answer) => answer.status))], [401], '100 more a second later');
    assertLimited(await wrong(), 'request 101 of that second');
  } finally {
    clock.release();
    f.t.clock.advance(20_000);
  }
});
