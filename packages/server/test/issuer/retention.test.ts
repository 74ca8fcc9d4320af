// The sign-in retention job: expired codes and refresh tokens kept a day past expiry, ended
// sessions and revoked grants kept 7 days; each bound on both sides.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DAY, HOUR } from '../../src/platform/clock.js';
import { signinRetentionJob } from '../../src/jobs/signin-retention.js';
import { authorize, rememberConsent, signedInPerson, startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Retention API');
});
after(() => f.t.close());

const count = async (table: 'authorization_codes' | 'person_sessions' | 'token_grants') =>
  (await f.t.services.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).where('api_id', '=', f.apiId).executeTakeFirstOrThrow()).n;

test('an expired code is kept a day past expiry, then deleted; an ended session and its revoked grant 7 days', async () => {
  const job = signinRetentionJob(f.t.clock);
  const { person, session, cookie } = await signedInPerson(f);
  const { params } = webRequest(f);
  await rememberConsent(f, person.id, f.web.clientId, null, params.scope!.split(' '));
  const answer = await authorize(f, cookie, params);
  assert.ok(answer.get('code'));
  assert.equal(Number(await count('authorization_codes')), 1);

  f.t.clock.advance(DAY - HOUR);
  await f.t.services.scheduler.runOnce(job);
  assert.equal(Number(await count('authorization_codes')), 1, 'kept within a day of expiry');
  f.t.clock.advance(2 * HOUR);
  await f.t.services.scheduler.runOnce(job);
  assert.equal(Number(await count('authorization_codes')), 0, 'deleted after a day');

  // Ended now, though it would have lasted long: the end is what counts.
  await f.t.services.db.updateTable('person_sessions').set({ expires_at: new Date(f.t.clock.now().getTime() + 365 * DAY) }).where('id', '=', session.id).execute();
  await f.t.services.personSessions.end(f.apiId, session.id);
  await f.t.services.db.updateTable('token_grants').set({ revoked_at: f.t.clock.now() }).where('api_id', '=', f.apiId).execute();
  f.t.clock.advance(7 * DAY - HOUR);
  await f.t.services.scheduler.runOnce(job);
  assert.equal(Number(await count('person_sessions')), 1);
  assert.equal(Number(await count('token_grants')), 1);
  f.t.clock.advance(2 * HOUR);
  await f.t.services.scheduler.runOnce(job);
  assert.equal(Number(await count('person_sessions')), 0);
  assert.equal(Number(await count('token_grants')), 0);
});
