// Helpers of the sign-in page tests (test/signin/pages-*.test.ts): people with passwords, the
// walk through sign-up and sign-in forms, and the code exchange that ends a flow.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { decodeJwt } from 'jose';
import { insertPerson } from '../../src/issuer/people/queries.js';
import { hashPassword } from '../../src/platform/crypto.js';
import { codeIn } from './mailbox.js';
import { basic, postForm, type IssuerFixture } from './issuer.js';
import { headingOf, type Page, type TenantBrowser } from './tenant-client.js';

export const PERSON_PASSWORD = 'a long enough secret';

export const freshEmail = (label = 'pat') => `${label}-${randomUUID().slice(0, 8)}@people.test`;

/** A person who signed up earlier, with a password (and, by default, a verified address). */
export async function personWithPassword(f: IssuerFixture, options: { email?: string; password?: string; emailVerified?: boolean; roles?: string[] } = {}) {
  const now = f.t.clock.now();
  const person = await insertPerson(f.t.services.db, {
    id: `per_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    api_id: f.apiId,
    email: (options.email ?? freshEmail()).toLowerCase(),
    email_verified: options.emailVerified ?? true,
    name: 'Pat Person',
    picture: null,
    password_hash: await hashPassword(options.password ?? PERSON_PASSWORD),
    last_login_at: null,
    created_at: now,
    updated_at: now,
  });
  if (options.roles?.length) {
    const put = await f.owner.client.put(`/apis/${f.apiId}/signin/people/${person.id}/roles`, { role_ids: options.roles });
    assert.equal(put.status, 200, put.text);
  }
  return person;
}

export async function suspend(f: IssuerFixture, personId: string) {
  const patched = await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${personId}`, { status: 'suspended' });
  assert.equal(patched.status, 200, patched.text);
}

/** The page must be a page of this host (not a redirect away) with this heading. */
export function expectPage(page: Page, heading: RegExp, status = 200) {
  assert.equal(page.leftTo, null, `expected a page, went to ${page.leftTo?.href}`);
  assert.equal(page.status, status, `${page.url}: ${page.html.slice(0, 600)}`);
  assert.match(headingOf(page.html), heading, page.html.slice(0, 600));
  return page;
}

/** The redirect to the app: its query (code or error, state, iss). */
export function expectRedirect(page: Page, redirectUri: string): URLSearchParams {
  assert.ok(page.leftTo, `expected a redirect to the app, got ${page.status} ${page.url}: ${page.html.slice(0, 600)}`);
  assert.equal(page.leftTo.origin + page.leftTo.pathname, redirectUri);
  return page.leftTo.searchParams;
}

/** The newest code mailed to `to` whose subject matches; earlier mails are taken out first by the caller. */
export async function mailedCode(f: IssuerFixture, to: string, subject: RegExp): Promise<string> {
  return codeIn(await f.t.mail.waitFor(to, subject));
}

/** From a sign-in page: asks for a code, reads the mail, enters it. Ends wherever the pages lead. */
export async function signInWithCode(f: IssuerFixture, browser: TenantBrowser, page: Page, email: string): Promise<Page> {
  f.t.mail.take(email);
  const entry = expectPage(await browser.submit(page, 'signin-code', { email }), /Check your e-mail/);
  return browser.submit(entry, 'code-signin', { code: await mailedCode(f, email, /sign-in code/) });
}

/** From a sign-up page: the address, then the mailed code, a name and a password. */
export async function signUpWithCode(f: IssuerFixture, browser: TenantBrowser, page: Page, email: string, name = 'Sam Newcomer', password = PERSON_PASSWORD): Promise<Page> {
  f.t.mail.take(email);
  const step2 = expectPage(await browser.submit(page, 'signup-send', { email }), /Check your e-mail/);
  return browser.submit(step2, 'signup-complete', { code: await mailedCode(f, email, /sign-up code/), name, password });
}

/** The link with this id on a page, followed. */
export function followLink(browser: TenantBrowser, page: Page, id: string): Promise<Page> {
  const match = new RegExp(`id="${id}" href="([^"]+)"`).exec(page.html);
  assert.ok(match, `no link ${id} on ${page.url}`);
  return browser.get(match[1]!.replace(/&amp;/g, '&'));
}

/** Exchanges a code as the web app and answers the tokens with the ID token's claims. */
export async function exchange(f: IssuerFixture, code: string, verifier: string) {
  const answer = await postForm(f, '/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: f.web.redirectUri, code_verifier: verifier }, { authorization: basic(f.web.clientId, f.web.secret) });
  assert.equal(answer.status, 200, answer.text);
  return { ...answer.body, claims: decodeJwt(answer.body.id_token as string) } as { access_token: string; id_token: string; claims: Record<string, any> };
}
