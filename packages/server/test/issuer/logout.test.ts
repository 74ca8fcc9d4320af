// RP-Initiated Logout: an id_token_hint signs the browser out at once only when it names the
// browser's own session (issue 11 item 8). Anyone can get an ID token of the service for
// themselves, so any other valid hint gets the confirmation page, or a link would sign visitors out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { webTokens } from '../support/issuer-flows.js';
import { signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';

let f: IssuerFixture;
before(async () => (f = await startIssuer('Logout API')));
after(() => f.t.close());

function logoutUrl(idTokenHint: string): string {
  const url = new URL(f.issuer + '/oauth/logout');
  url.searchParams.set('id_token_hint', idTokenHint);
  url.searchParams.set('post_logout_redirect_uri', f.web.logoutUri);
  url.searchParams.set('state', 'bye');
  return url.href;
}

async function sessionEnded(sessionId: string): Promise<boolean> {
  const row = await f.t.services.db.selectFrom('person_sessions').select('ended_at').where('id', '=', sessionId).executeTakeFirstOrThrow();
  return row.ended_at !== null;
}

function assertConfirmationPage(answer: Response, html: string) {
  assert.equal(answer.status, 200);
  assert.match(html, /<form method="post" action="\/oauth\/logout">/);
  assert.match(html, /name="post_logout_redirect_uri" value="https:\/\/web\.example\/bye"/);
  assert.ok(!answer.headers.getSetCookie().some((line) => line.startsWith('gh_ps=')), 'the session cookie is left alone');
}

test('a hint of the browser\'s own session signs it out at once', async () => {
  const visitor = await signedInPerson(f);
  const tokens = await webTokens(f, visitor.cookie, visitor.person.id);
  const answer = await tenantFetch(logoutUrl(tokens.id_token!), { headers: { cookie: visitor.cookie } });
  assert.equal(answer.status, 303);
  assert.equal(answer.headers.get('location'), `${f.web.logoutUri}?state=bye`);
  assert.ok(await sessionEnded(visitor.session.id));
});

test('someone else\'s hint (an attacker\'s own ID token) asks the visitor first and ends nothing', async () => {
  const attacker = await signedInPerson(f);
  const attackerTokens = await webTokens(f, attacker.cookie, attacker.person.id);
  const visitor = await signedInPerson(f);
  const answer = await tenantFetch(logoutUrl(attackerTokens.id_token!), { headers: { cookie: visitor.cookie } });
  assertConfirmationPage(answer, await answer.text());
  assert.equal(await sessionEnded(visitor.session.id), false, 'the visitor is still signed in');
  assert.equal(await sessionEnded(attacker.session.id), false);
});

test('the same person\'s hint from another session of theirs asks first too', async () => {
  const person = await signedInPerson(f);
  const tokens = await webTokens(f, person.cookie, person.person.id);
  // A second browser of the same person: the hint names the first browser's session.
  const other = await f.t.services.personSessions.start(f.apiId, person.person.id, ['pwd'], 3600);
  const answer = await tenantFetch(logoutUrl(tokens.id_token!), { headers: { cookie: `gh_ps=${other.token}` } });
  assertConfirmationPage(answer, await answer.text());
  assert.equal(await sessionEnded(other.id), false);
  assert.equal(await sessionEnded(person.session.id), false);
});

test('a valid hint in a browser with no session asks first (no redirect to the app on a stranger\'s say-so)', async () => {
  const person = await signedInPerson(f);
  const tokens = await webTokens(f, person.cookie, person.person.id);
  const answer = await tenantFetch(logoutUrl(tokens.id_token!));
  assertConfirmationPage(answer, await answer.text());
  assert.equal(await sessionEnded(person.session.id), false);
});
