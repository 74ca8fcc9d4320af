// Issue 15 item 6: access tokens checked locally by the verifier (spec 4.3), metering by person for
// keys and tokens, and the Express adapter end to end against a real Gatehouse.
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import express from 'express';
import { createKey, keyHolder } from '../../server/test/support/end-user-keys.js';
import { webTokens } from '../../server/test/support/issuer-flows.js';
import type { IssuerFixture } from '../../server/test/support/issuer.js';
import { customerDetail, type ApiFixture } from '../../server/test/support/money.js';
import { sdkSecretOf } from '../../server/test/support/portal.js';
import { verify } from '../src/adapters/express.js';
import { verify as verifyNode } from '../src/adapters/node.js';
import { createMeter, type Meter } from '../src/index.js';
import { bearer, startKeysIssuer, verifierFor } from './support/verifier.js';

let f: IssuerFixture;
let api: ApiFixture;
let meter: Meter;
before(async () => {
  f = await startKeysIssuer('Verified Tokens API');
  const secret = await sdkSecretOf(f);
  const sdk = f.t.sdkClient();
  sdk.bearer = secret;
  api = { owner: f.owner, apiId: f.apiId, slug: f.slug, secret, sdk };
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { rps: 0 })).status, 200);
  meter = createMeter({ secret, baseUrl: f.t.url, journalDir: null, now: () => f.t.clock.now().getTime(), onError: () => {} });
  await meter.ready;
});
after(async () => {
  await meter?.close();
  await f?.t.close();
});

/** A key holder who also belongs to a customer, as a portal sign-up leaves them. */
async function member() {
  const holder = await keyHolder(f);
  await f.t.services.customerMembers.joinOnVisit(f.apiId, holder.person);
  const [membership] = await f.t.services.customerMembers.membershipsOf(f.apiId, holder.person.id);
  assert.ok(membership);
  return { ...holder, customerId: membership.customer_id as string };
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

test('an access token for this server is checked locally: admitted with its scope; aud, scope and exp each refuse', async () => {
  const holder = await keyHolder(f);
  const { verifier, wire, clock } = await verifierFor(f);
  const tokens = await webTokens(f, holder.cookie, holder.person.id);
  const result = await verifier.check({ authorization: bearer(tokens.access_token), scopes: ['read:weather'] });
  assert.ok(result.ok);
  assert.deepEqual(result.principal, { sub: holder.person.id, scope: tokens.scope.split(' '), via: 'access_token', clientId: f.web.clientId });
  assert.ok(result.principal.scope.includes('read:weather'));
  assert.equal(wire.introspections, 0, 'tokens are never introspected');
  const lacking = await verifier.check({ authorization: bearer(tokens.access_token), scopes: ['write:weather'] });
  assert.ok(!lacking.ok && lacking.status === 403);
  assert.equal(lacking.headers['www-authenticate'], 'Bearer error="insufficient_scope", scope="write:weather"');
  // The account API's token: aud is the issuer alone, not this server.
  const accountOnly = await verifier.check({ authorization: bearer(holder.token) });
  assert.ok(!accountOnly.ok && accountOnly.status === 401);
  assert.equal(accountOnly.headers['www-authenticate'], 'Bearer error="invalid_token"');
  // exp, with the default 30 s of skew: good until exp + 30 s, refused from then on.
  const exp = JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).exp * 1000;
  clock.set(exp + 29_999);
  assert.ok((await verifier.check({ authorization: bearer(tokens.access_token) })).ok);
  clock.set(exp + 30_000);
  const expired = await verifier.check({ authorization: bearer(tokens.access_token) });
  assert.ok(!expired.ok && expired.status === 401);
  const tampered = tokens.access_token.slice(0, -4) + (tokens.access_token.endsWith('AAAA') ? 'BBBB' : 'AAAA');
  clock.set(exp - 60_000);
  const bad = await verifier.check({ authorization: bearer(tampered) });
  assert.ok(!bad.ok && bad.status === 401);
});

test('with a meter, a key or a token is metered to the person\'s customer; a person of no customer is 403 no_customer', async () => {
  const person = await member();
  const { secret } = await createKey(person.api, f);
  const tokens = await webTokens(f, person.cookie, person.person.id);
  const { verifier } = await verifierFor(f, { meter });
  await meter.flush();
  const before = (await customerDetail(api, person.customerId)).month_requests as number;
  for (const credential of [secret, tokens.access_token]) {
    const result = await verifier.check({ authorization: bearer(credential), scopes: ['read:weather'] });
    assert.ok(result.ok, JSON.stringify(result));
    assert.equal(result.principal.customerId, person.customerId);
    assert.equal(result.customer?.id, person.customerId);
    result.finish(200);
  }
  await meter.flush();
  assert.equal((await customerDetail(api, person.customerId)).month_requests, before + 2);
  const loner = await keyHolder(f);
  const lonerKey = await createKey(loner.api, f);
  const refused = await verifier.check({ authorization: bearer(lonerKey.secret) });
  assert.ok(!refused.ok);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error, 'no_customer');
});

test('Express: a route behind verify answers 200 with the principal, 403 without the permission, and 401 within 30 s of revocation', async () => {
  const person = await member();
  const { key, secret } = await createKey(person.api, f);
  const { verifier, clock } = await verifierFor(f, { meter });
  const app = express();
  app.get('/whoami', verify(verifier, { scopes: ['read:weather'] }), (req, res) => res.json(req.principal));
  app.post('/stations', verify(verifier, { scopes: ['write:weather'] }), (_req, res) => res.json({ moved: true }));
  const server = createHttpServer(app);
  const url = await listen(server);
  try {
    const ok = await fetch(`${url}/whoami`, { headers: { authorization: bearer(secret) } });
    assert.equal(ok.status, 200);
    assert.deepEqual(await ok.json(), { sub: person.person.id, scope: ['read:weather'], via: 'api_key', keyId: key.id, customerId: person.customerId });
    const forbidden = await fetch(`${url}/stations`, { method: 'POST', headers: { authorization: bearer(secret) } });
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.headers.get('www-authenticate'), 'Bearer error="insufficient_scope", scope="write:weather"');
    const none = await fetch(`${url}/whoami`);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer error="invalid_token"');
    assert.equal(((await none.json()) as { error: string }).error, 'invalid_token');
    assert.equal((await person.api.revoke(key.id)).status, 204);
    clock.advance(29_999);
    assert.equal((await fetch(`${url}/whoami`, { headers: { authorization: bearer(secret) } })).status, 200);
    clock.advance(1);
    assert.equal((await fetch(`${url}/whoami`, { headers: { authorization: bearer(secret) } })).status, 401);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('node:http: verify wraps a handler; the request\'s final status is metered', async () => {
  const person = await member();
  const { secret } = await createKey(person.api, f);
  const { verifier } = await verifierFor(f, { meter });
  const server = createHttpServer(verifyNode(verifier, (req, res) => void res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify(req.principal)), { scopes: ['read:weather'] }));
  const url = await listen(server);
  try {
    await meter.flush();
    const before = (await customerDetail(api, person.customerId)).month_requests as number;
    const answer = await fetch(url, { headers: { authorization: bearer(secret) } });
    assert.equal(answer.status, 201);
    assert.equal(((await answer.json()) as { sub: string }).sub, person.person.id);
    assert.equal((await fetch(url, { headers: { authorization: 'Bearer nope' } })).status, 401);
    await meter.flush();
    assert.equal((await customerDetail(api, person.customerId)).month_requests, before + 1);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

