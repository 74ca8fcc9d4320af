import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SECOND } from '../../src/platform/clock.js';
import { retryDelayMs } from '../../src/platform/mail/outbox.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { TestMailbox } from '../support/mailbox.js';
import { uniqueEmail } from '../support/flows.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('retry delays double from 10 s and stop growing at one hour', () => {
  assert.equal(retryDelayMs(1), 10 * SECOND);
  assert.equal(retryDelayMs(2), 20 * SECOND);
  assert.equal(retryDelayMs(3), 40 * SECOND);
  assert.equal(retryDelayMs(30), 3600 * SECOND);
});

test('a mail that cannot be delivered stays in the outbox and goes out once SMTP is back', async () => {
  const port = t.mail.port;
  await t.mail.close();
  const email = uniqueEmail('retry');
  assert.equal((await t.client().post('/auth/signup', { email })).status, 200, 'the answer does not wait for mail');
  // The delivery attempt after commit fails: the row keeps the error and a later attempt time.
  let row;
  for (let i = 0; i < 50; i++) {
    row = await t.services.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', email).executeTakeFirst();
    if (row?.last_error) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(row?.last_error, 'the failure is recorded');
  assert.equal(row.sent_at, null);
  assert.ok(row.attempts >= 1);

  const revived = new TestMailbox();
  await revived.start(port);
  try {
    // Not due yet: nothing is sent before its retry time.
    assert.equal(await t.services.outbox.deliverDue(), 0);
    t.clock.advance(retryDelayMs(row.attempts) + SECOND);
    assert.equal(await t.services.outbox.deliverDue(), 1);
    const mail = await revived.waitFor(email, /sign-up code/);
    assert.match(mail.text, /\b\d{6}\b/);
    const sent = await t.services.db.selectFrom('mail_outbox').select(['sent_at', 'last_error']).where('to_address', '=', email).executeTakeFirstOrThrow();
    assert.ok(sent.sent_at);
    assert.equal(sent.last_error, null);
    assert.equal(await t.services.outbox.deliverDue(), 0, 'sent once, never again');
  } finally {
    await revived.close();
  }
});
