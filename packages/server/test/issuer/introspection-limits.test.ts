// Spec 8 at /oauth/introspect: valid server credentials 100/s with bursts up to 1000 each; every
// other request (wrong secrets, web apps, none) 50/s with bursts up to 500 per network; over
// either, 429 temporarily_unavailable with Retry-After: 1. The app's clock is held still so the
// buckets are counted exactly (the harness clock otherwise moves with real time). Its own file:
// some 1,700 requests want their own time budget on a busy machine.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { holdClock, inBatches, webAuth } from '../support/issuer-flows.js';
import { basic, postForm, startIssuer, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Introspection Limits API');
});
after(() => f.t.close());

const garbage = (headers: Record<string, string>) => postForm(f, '/oauth/introspect', { token: 'not-a-token' }, headers);
function basic2(id: string, secret: string) {
  return { authorization: basic(id, secret) };
}

function assertLimited(answer: Awaited<ReturnType<typeof garbage>>, what: string) {
  assert.equal(answer.status, 429, `${what}: ${answer.status} ${answer.text}`);
  assert.equal(answer.headers.get('retry-after'), '1', what);
  assert.equal(answer.body.error, 'temporarily_unavailable', what);
}

test('introspection with valid server credentials: 100/s with bursts up to 1000, per credentials; a wrong secret is not in that bucket', async () => {
  const clock = holdClock(f.t);
  try {
    clock.advance(20_000); // whatever earlier tests took has refilled
    const server = basic2(f.server.clientId, f.server.secret);
    const burst = await inBatches(1000, 25, () => garbage(server));
    assert.deepEqual([...new Set(burst.map((answer) => answer.status))], [200], 'the whole burst of 1000 passes');
    assertLimited(await garbage(server), 'request 1001');
    // Per credentials: another server of the same API is not limited.
    const tides = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Tides', resource_url: 'https://api.tides.example/', permissions: [] });
    assert.equal(tides.status, 200, tides.text);
    assert.equal((await garbage(basic2(tides.body.client_id, tides.body.client_secret))).status, 200);
    // Others are counted apart: a wrong secret is judged (401), not limited.
    assert.equal((await garbage(basic2(f.server.clientId, 'wrong'))).status, 401);
    clock.advance(10); // one request's worth at 100/s
    assert.equal((await garbage(server)).status, 200);
    assertLimited(await garbage(server), 'after the one refilled');
    clock.advance(1000);
    const second = await inBatches(100, 25, () => garbage(server));
    assert.deepEqual([...new Set(second.map((answer) => answer.status))], [200], '100 more a second later');
    assertLimited(await garbage(server), 'request 101 of that second');
  } finally {
    clock.release();
    f.t.clock.advance(20_000);
  }
});

test('introspection by anyone else (wrong secrets, web apps): 50/s with bursts up to 500 per network; valid server credentials are not in that bucket', async () => {
  const clock = holdClock(f.t);
  try {
    clock.advance(20_000);
    const wrong = basic2(f.server.clientId, 'wrong-secret');
    const burst = await inBatches(500, 25, () => garbage(wrong));
    assert.deepEqual([...new Set(burst.map((answer) => answer.status))], [401], 'the whole burst of 500 is judged');
    assertLimited(await garbage(wrong), 'request 501 with a wrong secret');
    assertLimited(await garbage(webAuth(f)), 'a web app from the same network');
    assertLimited(await garbage({}), 'no credentials at all');
    assert.equal((await garbage(basic2(f.server.clientId, f.server.secret))).status, 200, 'valid server credentials have their own bucket');
    clock.advance(20); // one request's worth at 50/s
    assert.equal((await garbage(webAuth(f))).status, 200);
    assertLimited(await garbage(wrong), 'after the one refilled');
    clock.advance(1000);
    const second = await inBatches(50, 25, () => garbage(wrong));
    assert.deepEqual([...new Set(second.map((answer) => answer.status))], [401], '50 more a second later');
    assertLimited(await garbage(wrong), 'request 51 of that second');
  } finally {
    clock.release();
    f.t.clock.advance(20_000);
  }
});
