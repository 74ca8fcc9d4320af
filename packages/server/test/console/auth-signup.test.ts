// Owner sign-up (spec 2.4 and 5.1, DESIGN 6): the mailed code, the ticket, the account it makes,
// the answer that does not tell whether an address is taken, field bounds and the per-address
// limit on code mails. Lifetimes and wrong tries of codes and tickets are in auth-signup-codes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertInvalid, assertRateLimited, assertSessionCookie } from '../support/assertions.js';
import { requestCode, settledMail, ticketFor, verifyCode } from '../support/codes.js';
import { PASSWORD, signUpOverHttp, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

const MINUTE = 60_000;

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('sign-up: the code arrives by mail, buys a 30-minute ticket, and the ticket makes account, workspace and session', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  assert.match(code, /^\d{6}$/);

  const askedAt = t.clock.now().getTime();
  const verified = await verifyCode(client, 'signup', email, code);
  const answeredAt = t.clock.now().getTime();
  assert.equal(verified.status, 200, verified.text);
  assert.equal(typeof verified.body.ticket, 'string');
  const expiresAt = Date.parse(verified.body.expires_at);
  assert.ok(expiresAt >= askedAt + 30 * MINUTE && expiresAt <= answeredAt + 30 * MINUTE, `expires_at ${verified.body.expires_at} is 30 minutes out`);

  const done = await client.post('/auth/signup/complete', { ticket: verified.body.ticket, name: 'Grace Hopper', password: PASSWORD });
  assert.equal(done.status, 200, done.text);
  assertSessionCookie(done);
  assert.equal(done.body.user.email, email);
  assert.equal(done.body.user.name, 'Grace Hopper');
  assert.equal(done.body.user.two_factor, false);
  assert.match(done.body.user.id, /^usr_/);
  assert.match(done.body.workspace_id, /^ws_/);

  const me = await client.get('/me');
  assert.equal(me.status, 200, me.text);
  assert.equal(me.body.user.id, done.body.user.id);
  assert.deepEqual(me.body.workspaces.map((w: { id: string; name: string; role: string }) => [w.id, w.name, w.role]), [[done.body.workspace_id, 'Grace Hopper', 'owner']]);

  // The account exists: its password signs in from another client.
  const login = await t.client().post('/auth/login', { email, password: PASSWORD });
  assert.equal(login.status, 200, login.text);
  assert.equal(login.body.user.id, done.body.user.id);
});

test('sign-up: `workspace` names the first workspace instead of the person', async () => {
  const client = t.client();
  const { ticket } = await ticketFor(t, client, 'signup', uniqueEmail());
  const done = await client.post('/auth/signup/complete', { ticket, name: 'Lin', password: PASSWORD, workspace: 'Acme Weather' });
  assert.equal(done.status, 200, done.text);
  const me = await client.get('/me');
  assert.deepEqual(me.body.workspaces.map((w: { name: string }) => w.name), ['Acme Weather']);
});

test('sign-up: a taken address gets the same answer and an "already have an account" mail instead of a code', async () => {
  const owner = await signUpOverHttp(t);
  t.mail.take(owner.email);

  const fresh = await t.client().post('/auth/signup', { email: uniqueEmail() });
  const taken = await t.client().post('/auth/signup', { email: owner.email });
  assert.equal(taken.status, fresh.status);
  assert.equal(taken.headers.get('content-type'), fresh.headers.get('content-type'));
  assert.deepEqual(taken.body, fresh.body);
  assert.deepEqual(taken.body, { sent: true });

  const notice = await t.mail.waitFor(owner.email, /already have a Gatehouse account/);
  assert.doesNotMatch(notice.text, /\b\d{6}\b/, 'the notice carries no code');
  const mails = await settledMail(t, owner.email);
  assert.deepEqual(mails.map((mail) => mail.subject), [notice.subject], 'no code mail went to the taken address');
});

test('sign-up: email is at most 254 characters and must be an address', async () => {
  const client = t.client();
  // 64 + 1 + 189 = 254 characters, every DNS label within 63.
  const domain = `${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(61)}.com`;
  const longest = `${'a'.repeat(64)}@${domain}`;
  assert.equal(longest.length, 254);
  // Accepted; the test's SMTP server refuses paths over 253 octets, so its mail is not awaited.
  const accepted = await client.post('/auth/signup', { email: longest });
  assert.equal(accepted.status, 200, accepted.text);
  assert.deepEqual(accepted.body, { sent: true });

  assertInvalid(await client.post('/auth/signup', { email: `a${longest}` }), 'body.email');
  assertInvalid(await client.post('/auth/signup', { email: 'not-an-address' }), 'body.email');
  assertInvalid(await client.post('/auth/signup', {}), 'body.email');
  assertInvalid(await client.post('/auth/signup/verify', { email: `a${longest}`, code: '123456' }), 'body.email');
});

test('sign-up: the code is exactly six digits', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  assertInvalid(await verifyCode(client, 'signup', email, code.slice(0, 5)), 'body.code');
  assertInvalid(await verifyCode(client, 'signup', email, `${code}0`), 'body.code');
  assertInvalid(await verifyCode(client, 'signup', email, `${code.slice(0, 5)}a`), 'body.code');
  // Refused shapes are not wrong tries: the six digits from the mail still work.
  const verified = await verifyCode(client, 'signup', email, code);
  assert.equal(verified.status, 200, verified.text);
});

test('sign-up: name 1..100, password 10..72, workspace up to 100, nothing undeclared', async () => {
  const client = t.client();
  const first = await ticketFor(t, client, 'signup', uniqueEmail());
  const valid = { ticket: first.ticket, name: 'N', password: 'p'.repeat(10) };
  const complete = (body: Record<string, unknown>) => t.client().post('/auth/signup/complete', body);

  assertInvalid(await complete({ ...valid, name: '' }), 'body.name');
  assertInvalid(await complete({ ...valid, name: 'n'.repeat(101) }), 'body.name');
  // Names are stored trimmed: spaces alone would make an empty name (fixed; it was accepted).
  assertInvalid(await complete({ ...valid, name: '   ' }), 'body.name');
  assertInvalid(await complete({ ...valid, password: 'p'.repeat(9) }), 'body.password');
  assertInvalid(await complete({ ...valid, password: 'p'.repeat(73) }), 'body.password');
  assertInvalid(await complete({ ...valid, workspace: 'w'.repeat(101) }), 'body.workspace');
  assertInvalid(await complete({ ...valid, ticket: 't'.repeat(1001) }), 'body.ticket');
  assertInvalid(await complete({ ...valid, extra: true }), 'body.extra');
  const { name: _name, ...withoutName } = valid;
  assertInvalid(await complete(withoutName), 'body.name');

  // The refusals did not spend the ticket; the shortest name and password are accepted.
  const shortest = await complete(valid);
  assert.equal(shortest.status, 200, shortest.text);
  assert.equal(shortest.body.user.name, 'N');

  const second = await ticketFor(t, client, 'signup', uniqueEmail());
  const longest = await complete({ ticket: second.ticket, name: 'n'.repeat(100), password: 'p'.repeat(72), workspace: 'w'.repeat(100) });
  assert.equal(longest.status, 200, longest.text);
  assert.equal(longest.body.user.name, 'n'.repeat(100));
  const me = await t.client().post('/auth/login', { email: longest.body.user.email, password: 'p'.repeat(72) });
  assert.equal(me.status, 200, 'the 72-character password signs in');
});

test('sign-up: undeclared properties are refused on every step', async () => {
  const client = t.client();
  assertInvalid(await client.post('/auth/signup', { email: uniqueEmail(), extra: 1 }), 'body.extra');
  assertInvalid(await client.post('/auth/signup/verify', { email: uniqueEmail(), code: '123456', extra: 1 }), 'body.extra');
});

test('sign-up: five code mails per address per hour, the sixth request answers 429 with Retry-After', async () => {
  const email = uniqueEmail();
  for (let i = 1; i <= 5; i++) {
    const answer = await t.client().post('/auth/signup', { email });
    assert.equal(answer.status, 200, `request ${i}: ${answer.text}`);
  }
  const sixth = await t.client().post('/auth/signup', { email });
  assertRateLimited(sixth, 3600);
  assert.equal((await settledMail(t, email)).length, 5, 'the refused request sent no mail');
  // Another address is not held back by this one's limit.
  assert.equal((await t.client().post('/auth/signup', { email: uniqueEmail() })).status, 200);
});
