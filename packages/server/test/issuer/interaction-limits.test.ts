// New interactions (an authorization handed to the sign-in pages) are bounded per network: 20 a
// minute with bursts of 60, over every API (issue 11 item 8: 1,160 rows in 20 s from one address).
// Over the bound the app hears temporarily_unavailable on its redirect URI, and no row is written.
// The app's clock is held still so the bucket is counted exactly.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertRedirectedError, authorizeRaw, holdClock, inBatches } from '../support/issuer-flows.js';
import { rememberConsent, signedInPerson, startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => (f = await startIssuer('Interaction Limits API')));
after(() => f.t.close());

async function interactionRows(): Promise<number> {
  return Number((await f.t.services.db.selectFrom('authorization_interactions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
}

/** An authorize request from a browser without a session: it needs the sign-in page. */
const anonymous = (state: string) => authorizeRaw(f, webRequest(f, { state }).params);

test('60 new interactions at once from one network, then 20 a minute; over that the app hears temporarily_unavailable and nothing is written', async () => {
  const clock = holdClock(f.t);
  try {
    clock.advance(10 * 60_000); // whatever earlier requests spent has refilled
    const burst = await inBatches(60, 10, (i) => anonymous(`burst-${i}`));
    for (const answer of burst) assert.match(answer.location?.pathname ?? '', /^\/interaction\//, `${answer.status} ${answer.html.slice(0, 200)}`);

    const rows = await interactionRows();
    assertRedirectedError(f, await anonymous('over'), 'temporarily_unavailable', 'over');
    assert.equal(await interactionRows(), rows, 'the refused request wrote no interaction');

    // One comes back every 3 seconds.
    clock.advance(2_900);
    assertRedirectedError(f, await anonymous('too-soon'), 'temporarily_unavailable', 'too-soon');
    clock.advance(100);
    assert.match((await anonymous('refilled')).location?.pathname ?? '', /^\/interaction\//);
    assertRedirectedError(f, await anonymous('over-again'), 'temporarily_unavailable', 'over-again');

    // The bound is on new interactions only: a signed-in person whose consent is remembered
    // needs none and still gets a code.
    const { person, cookie } = await signedInPerson(f);
    const { params } = webRequest(f, { state: 'signed-in' });
    await rememberConsent(f, person.id, f.web.clientId, null, params.scope!.split(' '));
    const answer = await authorizeRaw(f, params, cookie);
    assert.equal(answer.status, 303);
    assert.ok(answer.location?.searchParams.get('code'), answer.location?.href);
  } finally {
    clock.release();
  }
});
