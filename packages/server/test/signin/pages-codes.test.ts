// E-mailed one-time codes on the sign-in pages: 10 minutes, 5 wrong tries, once, the newest one
// only; and answers that never tell whether an address has an account (the mail does).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MINUTE, SECOND } from '../../src/platform/clock.js';
import { otherCode, settledMail } from '../support/codes.js';
import { startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { expectPage, expectRedirect, followLink, freshEmail, mailedCode, personWithPassword } from '../support/pages.js';
import { errorIn, formsIn, TenantBrowser, type Page } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Codes API');
});
after(() => f.t.close());

/** A fresh sign-in, a code asked for `email`: the code entry page and the mailed code. */
async function codeAsked(email: string) {
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  f.t.mail.take(email);
  const entry = expectPage(await browser.submit(signin, 'signin-code', { email }), /Check your e-mail/);
  return { browser, entry, code: await mailedCode(f, email, /sign-in code/) };
}

const wrongCode = (browser: TenantBrowser, entry: Page, code: string) => browser.submit(entry, 'code-signin', { code: otherCode(code) });

function refusedCode(page: Page) {
  expectPage(page, /Check your e-mail/, 401);
  assert.match(errorIn(page.html)!, /wrong or has expired/);
}

test('a code works for 10 minutes: a second before the end it signs in', async () => {
  const person = await personWithPassword(f);
  const { browser, entry, code } = await codeAsked(person.email);
  f.t.clock.advance(10 * MINUTE - SECOND);
  expectPage(await browser.submit(entry, 'code-signin', { code }), /wants to access/);
});

test('a second after its 10 minutes the code is refused', async () => {
  const person = await personWithPassword(f);
  const { browser, entry, code } = await codeAsked(person.email);
  f.t.clock.advance(10 * MINUTE + SECOND);
  refusedCode(await browser.submit(entry, 'code-signin', { code }));
});

test('four wrong tries leave the code working; the fifth kills it', async () => {
  const person = await personWithPassword(f);
  const first = await codeAsked(person.email);
  for (let i = 0; i < 4; i++) refusedCode(await wrongCode(first.browser, first.entry, first.code));
  expectPage(await first.browser.submit(first.entry, 'code-signin', { code: first.code }), /wants to access/);

  const second = await codeAsked(person.email);
  for (let i = 0; i < 5; i++) refusedCode(await wrongCode(second.browser, second.entry, second.code));
  refusedCode(await second.browser.submit(second.entry, 'code-signin', { code: second.code }));
  assert.ok(!second.browser.cookies.has('gh_ps'));
});

test('a code works once, and a newer code supersedes the older one', async () => {
  const person = await personWithPassword(f);
  const { browser, entry, code: older } = await codeAsked(person.email);
  f.t.mail.take(person.email);
  const resent = expectPage(await browser.submit(entry, null, {}), /Check your e-mail/);
  const newer = await mailedCode(f, person.email, /sign-in code/);
  // (One time in a million the new code equals the old one; then there is nothing to supersede.)
  if (newer !== older) refusedCode(await browser.submit(resent, 'code-signin', { code: older }));
  expectPage(await browser.submit(resent, 'code-signin', { code: newer }), /wants to access/);
  // Spent: the same code cannot sign in again, here or anywhere.
  const again = expectPage(await browser.authorize(webRequest(f, { prompt: 'login' }).params), /^Sign in$/);
  const csrf = formsIn(again.html)[0]!.fields.find((field) => field.name === 'csrf')!.value;
  refusedCode(await browser.request('POST', again.url.replace(/\?.*$/, '') + '/code', { csrf, email: person.email, code: newer }));
});

test('a sign-in code for an address without an account: the same page, a mail that says so, no code', async () => {
  const email = freshEmail('no-account');
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const entry = expectPage(await browser.submit(signin, 'signin-code', { email }), /Check your e-mail/);
  assert.match(entry.html, /If <strong>.*<\/strong> has an account, we sent it a 6-digit code/);
  const mails = await settledMail(f.t, email);
  assert.equal(mails.length, 1);
  assert.match(mails[0]!.subject, /Sign-in to Codes API/);
  assert.match(mails[0]!.text, /has no Codes API account/);
  assert.doesNotMatch(mails[0]!.text, /\b\d{6}\b/, 'no code in it');
  refusedCode(await browser.submit(entry, 'code-signin', { code: '123456' }));
});

test('sign-up with a taken address: the same first answer, a mail to its owner, and no account made', async () => {
  const person = await personWithPassword(f);
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const signup = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  f.t.mail.take(person.email);
  const step2 = expectPage(await browser.submit(signup, 'signup-send', { email: person.email }), /Check your e-mail/);
  const fresh = freshEmail('untaken');
  const freshStep2 = expectPage(await browser.submit(signup, 'signup-send', { email: fresh }), /Check your e-mail/);
  const same = (html: string, address: string) => html.replaceAll(address, 'ADDRESS').replace(/nonce="[^"]+"/g, 'nonce');
  assert.equal(same(step2.html, person.email), same(freshStep2.html, fresh), 'the page is the same, word for word (but its CSP nonce)');
  const mails = await settledMail(f.t, person.email);
  assert.equal(mails.length, 1);
  assert.match(mails[0]!.subject, /You already have a Codes API account/);
  assert.match(mails[0]!.text, new RegExp(f.issuer.replace(/\./g, '\\.')));
  const refused = await browser.submit(step2, 'signup-complete', { code: '123456', name: 'Impostor', password: 'p'.repeat(12) });
  expectPage(refused, /Check your e-mail/, 401);
});
