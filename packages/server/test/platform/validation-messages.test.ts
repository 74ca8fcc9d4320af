// 422 answers a person can act on (issue 25 item 6): a value outside an enum names the allowed
// values once, in words; a value that is a password, secret, key or code is never echoed back.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { PASSWORD, signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { requestCode, verifyCode } from '../support/codes.js';
import { uniqueEmail } from '../support/flows.js';

let t: TestApp;
let owner: SignedUp;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t);
});
after(() => t.close());

const apisOf = (workspaceId: string) => `/workspaces/${workspaceId}/apis`;

test('an unknown preset answers one error naming payg, free or subscriptions; a known one is accepted', async () => {
  const refused = await owner.client.post(apisOf(owner.workspaceId), { name: 'Weather', preset: 'enterprise' });
  assert.equal(refused.status, 422, refused.text);
  assert.deepEqual(refused.body.errors, [{ location: 'body.preset', message: 'must be one of payg, free or subscriptions', value: 'enterprise' }]);
  const accepted = await owner.client.post(apisOf(owner.workspaceId), { name: 'Weather', preset: 'subscriptions' });
  assert.equal(accepted.status, 200, accepted.text);
});

test('a role outside the list of a workspace key names admin, editor or viewer', async () => {
  const refused = await owner.client.post(`/workspaces/${owner.workspaceId}/keys`, { name: 'ci', role: 'owner' });
  assert.equal(refused.status, 422, refused.text);
  assert.deepEqual(refused.body.errors, [{ location: 'body.role', message: 'must be one of admin, editor or viewer', value: 'owner' }]);
});

test('a rejected password is not echoed; a rejected name beside it is', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  const ticket = (await verifyCode(client, 'signup', email, code)).body.ticket as string;
  const tooShort = 'short-pw';
  const refused = await client.post('/auth/signup/complete', { ticket, name: 'x'.repeat(101), password: tooShort });
  assert.equal(refused.status, 422, refused.text);
  const byLocation = Object.fromEntries((refused.body.errors as { location: string; value?: unknown }[]).map((e) => [e.location, e]));
  assert.ok(byLocation['body.password'], refused.text);
  assert.equal('value' in byLocation['body.password']!, false, 'the password is not echoed');
  assert.equal(byLocation['body.name']!.value, 'x'.repeat(100) + '…', 'an ordinary field is echoed (cut at 100 characters)');
  assert.equal(refused.text.includes(tooShort), false);
});

test('a code, a current password and an unknown secret-named property are never echoed', async () => {
  const client = t.client();
  const badCode = await client.post('/auth/signup/verify', { email: uniqueEmail(), code: '1234567' });
  assert.equal(badCode.status, 422, badCode.text);
  assert.equal(badCode.text.includes('1234567'), false, badCode.text);

  const changed = await owner.client.post('/me/password', { current_password: PASSWORD, password: 'tiny-pw-9' });
  assert.equal(changed.status, 422, changed.text);
  assert.equal(changed.text.includes('tiny-pw-9'), false, changed.text);
  assert.equal(changed.text.includes(PASSWORD), false, changed.text);

  const extra = await owner.client.patch('/me', { name: 'Ada', api_secret: 'sk_live_do_not_echo' });
  assert.equal(extra.status, 422, extra.text);
  assert.deepEqual(extra.body.errors, [{ location: 'body.api_secret', message: 'unknown property' }]);
  const other = await owner.client.patch('/me', { name: 'Ada', nickname: 'ada' });
  assert.deepEqual(other.body.errors, [{ location: 'body.nickname', message: 'unknown property', value: 'ada' }], 'other unknown properties are echoed');
});
