// Issue 15 item 6: the verifier against a real Gatehouse, every caller-side rule of spec 4.4 on
// both sides of its bound, with the verifier's clock moved (the server's stays where it is).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';
import { keyChecksum } from '@gatehouse/protocol';
import { createKey, keyHolder } from '../../server/test/support/end-user-keys.js';
import type { IssuerFixture } from '../../server/test/support/issuer.js';
import { createVerifier, type VerifierResult } from '../src/index.js';
import { cachedKeyHashes } from '../src/verify/verifier.js';
import { unknownKey } from './support/gatehouse.js';
import { bearer, startKeysIssuer, verifierFor } from './support/verifier.js';

let f: IssuerFixture;
before(async () => {
  f = await startKeysIssuer('Verified Keys API');
});
after(() => f.t.close());

const S = 1000;
const MIN = 60 * S;

function assertRefused(result: VerifierResult, status: number, header?: string): asserts result is Extract<VerifierResult, { ok: false }> {
  assert.equal(result.ok, false, `expected ${status}, got an admission`);
  if (result.ok) return;
  assert.equal(result.status, status, JSON.stringify(result));
  if (header !== undefined) assert.equal(result.headers['www-authenticate'], header);
}

const INVALID = 'Bearer error="invalid_token"';

test('createVerifier refuses to start without the server credentials, and starts with both', () => {
  const base = { issuer: 'http://x.localhost:1', resource: 'https://api.example/' };
  const saved = { id: process.env.GATEHOUSE_SERVER_ID, secret: process.env.GATEHOUSE_SERVER_SECRET };
  delete process.env.GATEHOUSE_SERVER_ID;
  delete process.env.GATEHOUSE_SERVER_SECRET;
  try {
    assert.throws(() => createVerifier(base), /credentials/);
    assert.throws(() => createVerifier({ ...base, clientId: 'rs_1' }), /credentials/);
    assert.throws(() => createVerifier({ ...base, clientSecret: 's' }), /credentials/);
    assert.ok(createVerifier({ ...base, clientId: 'rs_1', clientSecret: 's' }));
    process.env.GATEHOUSE_SERVER_ID = 'rs_env';
    process.env.GATEHOUSE_SERVER_SECRET = 'from-env';
    assert.ok(createVerifier(base), 'the environment provides them');
  } finally {
    if (saved.id === undefined) delete process.env.GATEHOUSE_SERVER_ID;
    else process.env.GATEHOUSE_SERVER_ID = saved.id;
    if (saved.secret === undefined) delete process.env.GATEHOUSE_SERVER_SECRET;
    else process.env.GATEHOUSE_SERVER_SECRET = saved.secret;
  }
});

test('an active key is admitted with the person, scope and key id; the answer is cached 30 s by hash, on both sides', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f);
  const { verifier, wire, clock } = await verifierFor(f);
  const first = await verifier.check({ authorization: bearer(secret), clientAddress: '10.0.0.1', scopes: ['read:weather'] });
  assert.ok(first.ok);
  assert.deepEqual(first.principal, { sub: holder.person.id, scope: ['read:weather'], via: 'api_key', keyId: key.id });
  assert.equal(wire.introspections, 1);
  clock.advance(30 * S - 1);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  assert.equal(wire.introspections, 1, 'at 29.999 s the cached answer serves');
  clock.advance(1);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  assert.equal(wire.introspections, 2, 'at 30 s it is asked again');
  await verifier.close();
});

test('a revoked key is refused once its cached answer is 30 s old, not before', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f);
  const { verifier, clock } = await verifierFor(f);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  assert.equal((await holder.api.revoke(key.id)).status, 204);
  clock.advance(30 * S - 1);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok, 'still cached');
  clock.advance(1);
  assertRefused(await verifier.check({ authorization: bearer(secret) }), 401, INVALID);
});

test('a missing, non-Bearer, mistyped or badly shaped credential is 401 invalid_token without calling the service', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier, wire } = await verifierFor(f);
  const body = secret.slice(0, -6);
  const wrongChecksum = body + (keyChecksum(body) === '000000' ? '000001' : '000000');
  for (const authorization of [undefined, '', `Basic ${secret}`, bearer(wrongChecksum), bearer(secret.slice(0, -1)), bearer(secret + 'A'), bearer('Zz_' + secret.slice(3)), bearer('not-a-key')]) {
    const result = await verifier.check({ authorization, clientAddress: `10.1.0.${wire.introspections}` });
    assertRefused(result, 401, INVALID);
    assert.equal(result.body.error, 'invalid_token');
  }
  assert.equal(wire.introspections, 0);
  // The scheme is case-insensitive (RFC 6750 2.1).
  assert.ok((await verifier.check({ authorization: `bearer ${secret}` })).ok);
});

test('403 insufficient_scope names the permission missing; a key holding it passes', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier } = await verifierFor(f);
  assert.ok((await verifier.check({ authorization: bearer(secret), scopes: ['read:weather'] })).ok);
  const refused = await verifier.check({ authorization: bearer(secret), scopes: ['read:weather', 'write:weather'] });
  assertRefused(refused, 403, 'Bearer error="insufficient_scope", scope="write:weather"');
  assert.equal(refused.body.error, 'insufficient_scope');
});

test('concurrent checks of one key make one introspection', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier, wire } = await verifierFor(f);
  const results = await Promise.all(Array.from({ length: 12 }, () => verifier.check({ authorization: bearer(secret) })));
  assert.ok(results.every((r) => r.ok));
  assert.equal(wire.introspections, 1);
});

test('errors are never cached: credentials refused give 503, and the service is asked again once the 5 s back-off is over', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier, wire, clock, errors } = await verifierFor(f, { clientSecret: 'wrong-secret' });
  const refused = await verifier.check({ authorization: bearer(secret) });
  assertRefused(refused, 503);
  assert.equal(refused.headers['retry-after'], '5');
  assert.match(errors[0]!.message, /HTTP 401/);
  clock.advance(5 * S - 1);
  assertRefused(await verifier.check({ authorization: bearer(secret) }), 503);
  assert.equal(wire.introspections, 1, 'within the back-off nothing is sent');
  clock.advance(1);
  assertRefused(await verifier.check({ authorization: bearer(secret) }), 503);
  assert.equal(wire.introspections, 2, 'the 401 was not cached: asked again');
});

test('errors are never cached beyond a 401 (issue 26): an issuer answering 500, then a network failure, each give 503, and once the back-off is over the key is asked again and admitted', async () => {
  const holder = await keyHolder(f);
  const first = await createKey(holder.api, f);
  const second = await createKey(holder.api, f, { name: 'second' });
  const { verifier, wire, clock, errors } = await verifierFor(f);

  wire.failWith = 500;
  assertRefused(await verifier.check({ authorization: bearer(first.secret) }), 503);
  assert.match(errors.at(-1)!.message, /500/);
  assert.equal(verifier.metrics().cachedKeys, 0, 'the 500 left nothing in the cache');
  wire.failWith = null;
  clock.advance(5 * S);
  const afterServerError = await verifier.check({ authorization: bearer(first.secret) });
  assert.ok(afterServerError.ok, 'asked again, and the key is active');
  assert.equal(wire.introspections, 2);

  wire.down = true;
  clock.advance(5 * S);
  assertRefused(await verifier.check({ authorization: bearer(second.secret) }), 503);
  assert.equal(wire.refused, 1);
  assert.equal(verifier.metrics().cachedKeys, 1, 'only the first key\'s good answer is kept');
  wire.down = false;
  clock.advance(5 * S);
  assert.ok((await verifier.check({ authorization: bearer(second.secret) })).ok, 'the network failure was not cached: asked again and admitted');
  assert.equal(wire.introspections, 3);
  await verifier.close();
});

test('the answer cache is keyed by the SHA-256 of the key, never by the key itself (issue 26)', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier, wire } = await verifierFor(f);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  const keys = cachedKeyHashes(verifier);
  assert.deepEqual(keys, [createHash('sha256').update(secret, 'utf8').digest('hex')]);
  assert.ok(keys.every((cached) => !cached.includes(secret) && !secret.includes(cached)), 'the key itself is nowhere in the cache\'s keys');
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  assert.equal(wire.introspections, 1, 'the second check found the answer under that hash');
  await verifier.close();
});

test('outage: a key that was active keeps working 10 minutes past its cached answer, then 503 Retry-After: 5; an unseen key gets 503 at once', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const other = await createKey(holder.api, f, { name: 'desk' });
  const { verifier, wire, clock } = await verifierFor(f);
  const start = clock.now();
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  wire.down = true;
  clock.set(start + 30 * S);
  const stale = await verifier.check({ authorization: bearer(secret) });
  assert.ok(stale.ok, 'served stale');
  assert.equal(wire.refused, 1, 'the service was tried');
  const unseen = await verifier.check({ authorization: bearer(other.secret) });
  assertRefused(unseen, 503);
  assert.equal(unseen.headers['retry-after'], '5');
  clock.set(start + 30 * S + 10 * MIN - 1);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok, 'the last millisecond of stale_if_error');
  clock.set(start + 30 * S + 10 * MIN);
  const gone = await verifier.check({ authorization: bearer(secret) });
  assertRefused(gone, 503);
  assert.equal(gone.headers['retry-after'], '5');
  // Back: fresh answers again once the back-off is over.
  wire.down = false;
  clock.advance(5 * S);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  assert.ok((await verifier.check({ authorization: bearer(other.secret) })).ok);
  assert.ok(verifier.metrics().staleServed >= 2);
});

test('abuse guard: 20 bad keys from one address in a minute, then 429 without asking; other addresses are asked; the minute slides', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier, wire, clock } = await verifierFor(f);
  const address = '203.0.113.7';
  const start = clock.now();
  // Unknown keys (asked), a mistyped one (not asked), all bad: 20 in all.
  for (let i = 0; i < 19; i++) assertRefused(await verifier.check({ authorization: bearer(unknownKey()), clientAddress: address }), 401, INVALID);
  const body = secret.slice(0, -6);
  assertRefused(await verifier.check({ authorization: bearer(body + (keyChecksum(body) === '000000' ? '000001' : '000000')), clientAddress: address }), 401, INVALID);
  assert.equal(wire.introspections, 19);
  const blocked = await verifier.check({ authorization: bearer(unknownKey()), clientAddress: address });
  assertRefused(blocked, 429);
  assert.equal(blocked.headers['retry-after'], '60');
  assert.equal(wire.introspections, 19, 'the 21st reached nobody');
  assertRefused(await verifier.check({ authorization: bearer(secret), clientAddress: address }), 429, undefined);
  assert.equal(wire.introspections, 19, 'while blocked even a good key is not asked about');
  assertRefused(await verifier.check({ authorization: bearer(unknownKey()), clientAddress: '203.0.113.8' }), 401, INVALID);
  assert.equal(wire.introspections, 20, 'another address is still asked');
  clock.set(start + MIN - 1);
  assertRefused(await verifier.check({ authorization: bearer(secret), clientAddress: address }), 429);
  clock.set(start + MIN);
  assert.ok((await verifier.check({ authorization: bearer(secret), clientAddress: address })).ok, 'the first bad key left the window');
  assert.equal(verifier.metrics().abuseRefused, 3);
});

test('19 bad keys leave the address free', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier } = await verifierFor(f);
  for (let i = 0; i < 19; i++) assertRefused(await verifier.check({ authorization: bearer(unknownKey()), clientAddress: '198.51.100.1' }), 401);
  assert.ok((await verifier.check({ authorization: bearer(secret), clientAddress: '198.51.100.1' })).ok);
  // A good key does not wipe the count: the 20th bad one is counted, the next is refused.
  assertRefused(await verifier.check({ authorization: bearer(unknownKey()), clientAddress: '198.51.100.1' }), 401);
  assertRefused(await verifier.check({ authorization: bearer(unknownKey()), clientAddress: '198.51.100.1' }), 429);
});

test('requests_per_minute counts per person across all of their keys, then 429 with Retry-After', async () => {
  const limited = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Limited', resource_url: 'https://limited.example/', permissions: [{ name: 'read:limited' }], requests_per_minute: 3 });
  assert.equal(limited.status, 200, limited.text);
  const server = { clientId: limited.body.client_id as string, secret: limited.body.client_secret as string, resource: 'https://limited.example/' };
  const holder = await keyHolder(f);
  const one = await createKey(holder.api, f, { resources: [server.resource], permissions: [] });
  const two = await createKey(holder.api, f, { name: 'second', resources: [server.resource], permissions: [] });
  const someoneElse = await keyHolder(f);
  const theirs = await createKey(someoneElse.api, f, { resources: [server.resource], permissions: [] });
  const { verifier, clock } = await verifierFor(f, { server });
  for (const secret of [one.secret, two.secret, one.secret]) assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  const over = await verifier.check({ authorization: bearer(two.secret) });
  assertRefused(over, 429);
  assert.equal(over.body.error, 'rate_limited');
  assert.equal(over.headers['retry-after'], '20', 'one request fits again 60 s / 3 later');
  assert.ok((await verifier.check({ authorization: bearer(theirs.secret) })).ok, 'another person has their own count');
  clock.advance(20 * S - 1);
  assertRefused(await verifier.check({ authorization: bearer(one.secret) }), 429);
  clock.advance(1);
  assert.ok((await verifier.check({ authorization: bearer(one.secret) })).ok);
  assertRefused(await verifier.check({ authorization: bearer(two.secret) }), 429);
});

test('a server without requests_per_minute does not count', async () => {
  const holder = await keyHolder(f);
  const { secret } = await createKey(holder.api, f);
  const { verifier } = await verifierFor(f);
  for (let i = 0; i < 50; i++) assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
});

test('a key past its exp is refused even while its answer is cached', async () => {
  const holder = await keyHolder(f);
  const { key, secret } = await createKey(holder.api, f, { expires_in_days: 1 });
  const { verifier, clock } = await verifierFor(f);
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  // The answer's exp is in whole seconds.
  const exp = Math.floor(new Date(key.expires_at as string).getTime() / 1000) * 1000;
  clock.set(exp - 1);
  // The cached answer is old by now, so it is asked again: still active at the server's own time.
  assert.ok((await verifier.check({ authorization: bearer(secret) })).ok);
  clock.set(exp);
  assertRefused(await verifier.check({ authorization: bearer(secret) }), 401, INVALID);
});
