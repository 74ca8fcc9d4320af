// Lifetimes and single use in sign-up (spec 2.4, 5.1 and 8): the mailed code lives 10 minutes,
// survives 4 wrong tries but not 5, and gives way to a newer code; the ticket works once, for
// 30 minutes. The app clock runs in real time plus what a test adds, so "just before" leaves a
// few seconds for the requests themselves and "just after" is the lifetime itself.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertProblem } from '../support/assertions.js';
import { otherCode, requestCode, ticketFor, verifyCode } from '../support/codes.js';
import { PASSWORD, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const CODE_TTL = 10 * MINUTE;
const TICKET_TTL = 30 * MINUTE;
const MARGIN = 5 * SECOND;

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('code: works just before 10 minutes', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  t.clock.advance(CODE_TTL - MARGIN);
  const verified = await verifyCode(client, 'signup', email, code);
  assert.equal(verified.status, 200, verified.text);
});

test('code: fails at 10 minutes', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  t.clock.advance(CODE_TTL);
  assertProblem(await verifyCode(client, 'signup', email, code), 401, 'invalid_code');
});

test('code: still works after 4 wrong tries', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  for (let i = 0; i < 4; i++) assertProblem(await verifyCode(client, 'signup', email, otherCode(code)), 401, 'invalid_code');
  const verified = await verifyCode(client, 'signup', email, code);
  assert.equal(verified.status, 200, verified.text);
});

test('code: dies after 5 wrong tries, so the right code then fails', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  for (let i = 0; i < 5; i++) assertProblem(await verifyCode(client, 'signup', email, otherCode(code)), 401, 'invalid_code');
  assertProblem(await verifyCode(client, 'signup', email, code), 401, 'invalid_code');
});

test('code: a newer code supersedes an older one', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const older = await requestCode(t, client, 'signup', email);
  const newer = await requestCode(t, client, 'signup', email);
  if (older !== newer) assertProblem(await verifyCode(client, 'signup', email, older), 401, 'invalid_code');
  const verified = await verifyCode(client, 'signup', email, newer);
  assert.equal(verified.status, 200, verified.text);
});

test('code: works once', async () => {
  const client = t.client();
  const email = uniqueEmail();
  const code = await requestCode(t, client, 'signup', email);
  assert.equal((await verifyCode(client, 'signup', email, code)).status, 200);
  assertProblem(await verifyCode(client, 'signup', email, code), 401, 'invalid_code');
});

test('ticket: works once', async () => {
  const { ticket } = await ticketFor(t, t.client(), 'signup', uniqueEmail());
  const first = await t.client().post('/auth/signup/complete', { ticket, name: 'Once', password: PASSWORD });
  assert.equal(first.status, 200, first.text);
  const again = await t.client().post('/auth/signup/complete', { ticket, name: 'Twice', password: PASSWORD });
  assertProblem(again, 401, 'invalid_ticket');
});

test('ticket: works just before 30 minutes', async () => {
  const { ticket } = await ticketFor(t, t.client(), 'signup', uniqueEmail());
  t.clock.advance(TICKET_TTL - MARGIN);
  const done = await t.client().post('/auth/signup/complete', { ticket, name: 'Late', password: PASSWORD });
  assert.equal(done.status, 200, done.text);
});

test('ticket: fails at 30 minutes', async () => {
  const email = uniqueEmail();
  const { ticket } = await ticketFor(t, t.client(), 'signup', email);
  t.clock.advance(TICKET_TTL);
  const done = await t.client().post('/auth/signup/complete', { ticket, name: 'Too Late', password: PASSWORD });
  assertProblem(done, 401, 'invalid_ticket');
  assert.equal(done.headers.getSetCookie().length, 0, 'no session');
  // No account was made: the address still gets a code, not the "already have an account" mail.
  await requestCode(t, t.client(), 'signup', email);
});

test('ticket: an unknown ticket is refused', async () => {
  assertProblem(await t.client().post('/auth/signup/complete', { ticket: 'not-a-ticket', name: 'Nobody', password: PASSWORD }), 401, 'invalid_ticket');
});
