// An API's sign-in service with one of everything a protocol request can name: apps, a server,
// a signed-in person with tokens, an unspent code, and open interactions at the sign-in, choice
// and consent steps, so hostile requests carry real values and reach the protocol code.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { authorizeRaw, webCode, webTokens } from '../../support/issuer-flows.js';
import { pkcePair, signedInPerson, startIssuer, tenantFetch, type IssuerFixture } from '../../support/issuer.js';

export interface OpenInteraction {
  token: string;
  /** Cookies of the browser that opened it: its interaction cookie and the CSRF cookie (and a session). */
  cookie: string;
}

export interface IssuerFuzzFixture {
  f: IssuerFixture;
  /** The Host header of the tenant (`<slug>.localhost:<port>`). */
  host: string;
  /** `gh_ps=…` of a signed-in person. */
  personCookie: string;
  /** The double-submit CSRF token, sent as cookie and as the `csrf` field. */
  csrf: string;
  tokens: { access: string; refresh: string; idToken: string };
  code: { code: string; verifier: string };
  interactions: { signin: OpenInteraction; choose: OpenInteraction; consent: OpenInteraction };
}

async function openInteraction(f: IssuerFixture, params: Record<string, string>, cookie: string, csrf: string): Promise<OpenInteraction> {
  const answer = await authorizeRaw(f, params, cookie);
  assert.equal(answer.status, 303, answer.html.slice(0, 300));
  const token = /^\/interaction\/([^/?]+)$/.exec(answer.location?.pathname ?? '')?.[1];
  assert.ok(token, `authorize opened an interaction: ${answer.location?.href}`);
  const all = [cookie, ...answer.cookies, `gh_csrf=${csrf}`].filter(Boolean).join('; ');
  // The page as its browser sees it: the step is the one this interaction was opened for.
  const page = await tenantFetch(`${f.issuer}/interaction/${token}`, { headers: { cookie: all } });
  assert.equal(page.status, 200, (await page.text()).slice(0, 300));
  return { token, cookie: all };
}

export async function issuerFuzzFixture(): Promise<IssuerFuzzFixture> {
  const f = await startIssuer('Fuzzed Sign-in');
  const { person, cookie: personCookie } = await signedInPerson(f);
  const tokens = await webTokens(f, personCookie, person.id);
  assert.ok(tokens.refresh_token && tokens.id_token, 'the web app got a refresh token and an ID token');
  const { code, verifier } = await webCode(f, personCookie, person.id);
  // csrfToken() keeps any well-formed cookie it is sent, so the suite may choose its own.
  const csrf = randomBytes(32).toString('base64url');
  const spa = (extra: Record<string, string>) => ({
    response_type: 'code', client_id: f.spa.clientId, redirect_uri: f.spa.redirectUri, scope: 'openid profile', state: 'fuzz-state', nonce: 'fuzz-nonce',
    code_challenge: pkcePair().challenge, code_challenge_method: 'S256', ...extra,
  });
  const interactions = {
    signin: await openInteraction(f, spa({}), '', csrf),
    // Spec 4.2 rule 4: a login_hint naming someone else asks the signed-in person to choose.
    choose: await openInteraction(f, spa({ login_hint: 'someone-else@people.test' }), personCookie, csrf),
    // The single-page app was never consented to: the signed-in person is asked.
    consent: await openInteraction(f, spa({}), personCookie, csrf),
  };
  return {
    f,
    host: `${f.slug}.localhost:${f.t.port}`,
    personCookie,
    csrf,
    tokens: { access: tokens.access_token, refresh: tokens.refresh_token!, idToken: tokens.id_token! },
    code: { code, verifier },
    interactions,
  };
}
