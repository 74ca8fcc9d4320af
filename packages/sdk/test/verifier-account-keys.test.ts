// Issue 15 item 6: the owner's web app server calls the account API with the person's token through
// accountKeys, and a create after a sign-in older than 10 minutes becomes a redirect that signs the
// person in again (max_age) and comes back with a code for a fresh token.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { keyHolder } from '../../server/test/support/end-user-keys.js';
import { atInstant, exchangeCode, rememberConsentFor } from './support/account-keys.js';
import { tenantFetch, type IssuerFixture } from '../../server/test/support/issuer.js';
import { startPersonSession } from '../../server/test/support/signin.js';
import { accountKeys, AccountKeysError, newPkce, reauthenticationUrl, ReauthenticationRequired } from '../src/index.js';
import { startKeysIssuer } from './support/verifier.js';

let f: IssuerFixture;
before(async () => {
  f = await startKeysIssuer('Account Keys Helper API');
});
after(() => f.t.close());

test('list, create, rename, roll, revoke and revoke all through accountKeys', async () => {
  const holder = await keyHolder(f);
  const keys = accountKeys(f.issuer, holder.token);
  const options = await keys.options();
  assert.equal(typeof options.allow_no_expiry, 'boolean');
  const made = await keys.create({ name: 'laptop', resources: [f.server.resource], permissions: ['read:weather'], expires_in_days: 30 });
  assert.match(made.secret, /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/);
  assert.deepEqual((await keys.list()).keys.map((k: { id: string }) => k.id), [made.key.id]);
  assert.equal((await keys.rename(made.key.id, 'desk')).name, 'desk');
  const rolled = await keys.roll(made.key.id, 0);
  assert.notEqual(rolled.secret, made.secret);
  await keys.create({ name: 'second', resources: [f.server.resource], permissions: [], expires_in_days: 30 });
  await keys.revoke(made.key.id);
  assert.equal((await keys.list()).keys.length, 1);
  await keys.revokeAll();
  assert.equal((await keys.list()).keys.length, 0);
  const refused = await keys.create({ name: 'x'.repeat(65), resources: [f.server.resource], permissions: [], expires_in_days: 30 }).catch((e: unknown) => e);
  assert.ok(refused instanceof AccountKeysError && !(refused instanceof ReauthenticationRequired));
  assert.equal(refused.status, 422);
  assert.equal(refused.field, 'name');
  const bad = await accountKeys(f.issuer, 'not-a-token').list().catch((e: unknown) => e);
  assert.ok(bad instanceof AccountKeysError && bad.status === 401 && bad.error === 'invalid_token');
});

test('a create 601 s after sign-in is ReauthenticationRequired; its redirect signs the person in again and comes back with a code for a token that creates', async () => {
  const holder = await keyHolder(f);
  const authTime = JSON.parse(Buffer.from(holder.token.split('.')[1]!, 'base64url').toString()).auth_time * 1000;
  const body = { name: 'late', resources: [f.server.resource], permissions: [], expires_in_days: 30 };
  // Exactly 600 s after sign-in: still fresh.
  await atInstant(f.t, authTime + 600_000, async () => {
    assert.ok((await accountKeys(f.issuer, holder.token).create(body)).secret);
  });
  await atInstant(f.t, authTime + 601_000, async () => {
    const error = await accountKeys(f.issuer, holder.token).create(body).catch((e: unknown) => e);
    assert.ok(error instanceof ReauthenticationRequired, String(error));
    assert.equal(error.maxAge, 600);
    const pkce = newPkce();
    const url = new URL(reauthenticationUrl({ issuer: f.issuer, clientId: f.web.clientId, redirectUri: f.web.redirectUri, state: 'back-to-keys', codeChallenge: pkce.challenge, maxAge: error.maxAge }));
    assert.equal(url.origin + url.pathname, `${f.issuer}/oauth/authorize`);
    assert.equal(url.searchParams.get('max_age'), '600');
    assert.equal(url.searchParams.get('scope'), 'openid platform:api_keys');
    assert.equal(url.searchParams.get('resource'), null, 'the account API scope is asked without resource');
    // With the old sign-in the browser is not sent back with a code: it must sign in again.
    const stale = await tenantFetch(url, { headers: { cookie: holder.cookie } });
    const staleBack = stale.headers.get('location');
    assert.ok(!staleBack || !new URL(staleBack, f.issuer).searchParams.has('code'), `no code on an old sign-in: ${stale.status} ${staleBack}`);
    // Signed in again (a new session): the same URL comes back to the app with a code and the state.
    await rememberConsentFor(f, holder.person.id);
    const session = await startPersonSession(f.t, f.apiId, holder.person.id);
    const fresh = await tenantFetch(url, { headers: { cookie: `gh_ps=${session.token}` } });
    assert.equal(fresh.status, 303, await fresh.text());
    const back = new URL(fresh.headers.get('location')!);
    assert.equal(back.origin + back.pathname, f.web.redirectUri);
    assert.equal(back.searchParams.get('state'), 'back-to-keys');
    const tokens = await exchangeCode(f, back.searchParams.get('code')!, pkce.verifier);
    assert.equal(tokens.status, 200, tokens.text);
    assert.ok((await accountKeys(f.issuer, tokens.body.access_token).create(body)).secret, 'the fresh token creates');
  });
});
