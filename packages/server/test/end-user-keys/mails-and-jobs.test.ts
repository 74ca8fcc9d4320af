// The jobs of end-user keys with the clock moved across their bounds: the expiry reminder (7 days
// before expiry, for keys used in the last 30 days, once per key) and retention (revoked and
// expired keys deleted 90 days later). The reminder's text and link are read from real mail.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { endUserKeyReminderJob, endUserKeyRetentionJob } from '../../src/jobs/end-user-keys.js';
import { assertActive, createKey, keyHolder, patchKeySettings } from '../support/end-user-keys.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Key Jobs API');
  await patchKeySettings(f, { enabled: true, max_lifetime_days: null });
});
after(() => f.t.close());

const keyIds = async () => (await f.t.services.db.selectFrom('end_user_keys').select('id').where('api_id', '=', f.apiId).execute()).map((k) => k.id);
const reminders = async (to: string) =>
  (await f.t.services.db.selectFrom('mail_outbox').select(['subject', 'text_body']).where('to_address', '=', to).execute()).filter((m) => /expires in 7 days/.test(m.subject));

test('reminder: 7 days before expiry, only for keys used in the last 30 days, once per key', async () => {
  const reminderJob = endUserKeyReminderJob(f.t.clock, f.t.services.outbox, (slug) => f.t.services.apis.portalUrl(slug));
  const run = () => f.t.services.scheduler.runOnce(reminderJob);
  const holder = await keyHolder(f);
  const soon = await createKey(holder.api, f, { name: 'soon', expires_in_days: 10 });
  const unused = await createKey(holder.api, f, { name: 'unused', expires_in_days: 10 });
  const recent = await createKey(holder.api, f, { name: 'recent', expires_in_days: 36 });
  const stale = await createKey(holder.api, f, { name: 'stale', expires_in_days: 40 });
  for (const key of [soon, recent, stale]) await assertActive(f, key.secret);
  const created = new Date(soon.key.created_at as string).getTime();
  const advanceTo = (ms: number) => f.t.clock.advance(ms - f.t.clock.now().getTime());

  // An hour before `soon` comes within 7 days of its expiry: nothing.
  advanceTo(created + 3 * DAY - HOUR);
  await run();
  assert.deepEqual(await reminders(holder.person.email), []);
  // An hour after: `soon` (used 3 days ago) is reminded; `unused` (never used) is not.
  advanceTo(created + 3 * DAY + HOUR);
  f.t.mail.take(holder.person.email);
  await run();
  const mailed = await f.t.mail.waitFor(holder.person.email, /Your Key Jobs API API key expires in 7 days/);
  assert.match(mailed.text, new RegExp(`Your API key "soon" \\(${soon.key.start}…\\) expires on `));
  assert.ok(mailed.text.includes(`${f.issuer}/api-keys`), mailed.text);
  assert.equal((await reminders(holder.person.email)).length, 1);
  // Once per key.
  await run();
  assert.equal((await reminders(holder.person.email)).length, 1);
  // `recent` comes within 7 days at day 29, used 29 days before: reminded.
  advanceTo(created + 29 * DAY + HOUR);
  await run();
  assert.deepEqual((await reminders(holder.person.email)).map((m) => /"(\w+)"/.exec(m.text_body)![1]).sort(), ['recent', 'soon']);
  // `stale` comes within 7 days at day 33, last used 33 days before: no reminder.
  advanceTo(created + 33 * DAY + HOUR);
  await run();
  assert.equal((await reminders(holder.person.email)).length, 2);
  assert.ok(!(await reminders(holder.person.email)).some((m) => m.text_body.includes(unused.key.start)), 'a key never used is not reminded');
});

test('retention: a revoked key is deleted 90 days after revocation, an expired one 90 days after expiry; live keys stay', async () => {
  const retention = endUserKeyRetentionJob(f.t.clock);
  const run = () => f.t.services.scheduler.runOnce(retention);
  await f.t.services.db.deleteFrom('end_user_keys').where('api_id', '=', f.apiId).execute();
  // No roles to give (the owner's console session did not outlive the months moved above): keys
  // with no permissions.
  const holder = await keyHolder(f, { roles: [] });
  const revoked = await createKey(holder.api, f, { name: 'revoked', expires_in_days: 3000, permissions: [] });
  const expiring = await createKey(holder.api, f, { name: 'expiring', expires_in_days: 1, permissions: [] });
  const never = await createKey(holder.api, f, { name: 'never', expires_in_days: null, permissions: [] });
  assert.equal((await holder.api.revoke(revoked.key.id)).status, 204);
  const start = f.t.clock.now().getTime();
  f.t.clock.advance(90 * DAY - HOUR);
  await run();
  assert.deepEqual((await keyIds()).sort(), [revoked.key.id, expiring.key.id, never.key.id].sort(), 'all kept within 90 days');
  f.t.clock.advance(2 * HOUR);
  await run();
  assert.deepEqual((await keyIds()).sort(), [expiring.key.id, never.key.id].sort(), 'the revoked key is gone after 90 days');
  // The expired key expired a day after it was made: gone 90 days after that.
  f.t.clock.advance(start + 91 * DAY - HOUR - f.t.clock.now().getTime());
  await run();
  assert.ok((await keyIds()).includes(expiring.key.id), 'kept until 90 days past its expiry');
  f.t.clock.advance(2 * HOUR);
  await run();
  assert.deepEqual(await keyIds(), [never.key.id], 'the expired key is gone; a key that never expires stays');
});
