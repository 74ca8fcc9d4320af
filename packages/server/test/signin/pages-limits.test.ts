// Rate limits of the sign-in pages (docs/decisions.md, as the console's): code mails per address
// and per client address, code checks per client address, passwords per address (reset by a
// sign-in). Over a limit the page answers 429 with Retry-After. The tests of this file run in
// order and share one client address, so each counts what the ones before it spent.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { personRateRules } from '../../src/issuer/people/limits.js';
import { startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { expectPage, freshEmail, PERSON_PASSWORD, personWithPassword } from '../support/pages.js';
import { errorIn, formsIn, TenantBrowser, type Page } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Limits API');
});
after(() => f.t.close());

/** Code mails this client address asked for so far in this file. */
let codeSends = 0;

async function signinPage(browser = new TenantBrowser(f.issuer)) {
  return { browser, page: expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/) };
}

function limited(page: Page, heading: RegExp) {
  expectPage(page, heading, 429);
  const retryAfter = Number(page.headers.get('retry-after'));
  assert.ok(retryAfter >= 1, `Retry-After ${page.headers.get('retry-after')}`);
  assert.match(errorIn(page.html)!, new RegExp(`Too many attempts. Try again in ${retryAfter} seconds`));
}

test('code mails: 5 per address per hour, the same whether or not the address has an account', async () => {
  const { codeSendPerEmail } = personRateRules;
  assert.deepEqual([codeSendPerEmail.points, codeSendPerEmail.durationS], [5, 3600]);
  const person = await personWithPassword(f);
  for (const email of [person.email, freshEmail('no-account')]) {
    const { browser, page } = await signinPage();
    for (let i = 1; i <= 5; i++) {
      codeSends++;
      expectPage(await browser.submit(page, 'signin-code', { email }), /Check your e-mail/);
    }
    codeSends++;
    limited(await browser.submit(page, 'signin-code', { email }), /^Sign in$/);
    // The sign-up form shares the limit of the address.
    codeSends++;
    const signup = expectPage(await browser.get(`${new URL(page.url).pathname}?form=signup`), /Create your account/);
    limited(await browser.submit(signup, 'signup-send', { email: email.toUpperCase() }), /Create your account/);
  }
});

test('code mails: 30 per client address per hour', async () => {
  const { codeSendPerIp } = personRateRules;
  assert.deepEqual([codeSendPerIp.points, codeSendPerIp.durationS], [30, 3600]);
  const { browser, page } = await signinPage();
  while (codeSends < codeSendPerIp.points) {
    codeSends++;
    expectPage(await browser.submit(page, 'signin-code', { email: freshEmail('many') }), /Check your e-mail/);
  }
  limited(await browser.submit(page, 'signin-code', { email: freshEmail('one-more') }), /^Sign in$/);
});

test('code checks: 30 per client address per 10 minutes, right or wrong', async () => {
  const { codeVerifyPerIp } = personRateRules;
  assert.deepEqual([codeVerifyPerIp.points, codeVerifyPerIp.durationS], [30, 600]);
  const { browser, page } = await signinPage();
  const action = `${new URL(page.url).pathname}/code`;
  const csrf = formsIn(page.html)[0]!.fields.find((field) => field.name === 'csrf')!.value;
  for (let i = 1; i <= codeVerifyPerIp.points; i++) {
    const answer = await browser.request('POST', action, { csrf, email: freshEmail('guess'), code: String(100000 + i) });
    assert.equal(answer.status, 401, `check ${i}`);
  }
  limited(await browser.request('POST', action, { csrf, email: freshEmail('guess'), code: '123456' }), /Check your e-mail/);
});

test('passwords: 10 tries per address per 15 minutes, counted afresh after a sign-in', async () => {
  const { passwordPerEmail } = personRateRules;
  assert.deepEqual([passwordPerEmail.points, passwordPerEmail.durationS], [10, 900]);
  const person = await personWithPassword(f);
  const { browser, page } = await signinPage();
  for (let i = 1; i <= 9; i++) expectPage(await browser.submit(page, 'signin-password', { email: person.email, password: `wrong-${i}-password` }), /^Sign in$/, 401);
  // The tenth try is still a try: the right password signs in and forgets the wrong ones.
  expectPage(await browser.submit(page, 'signin-password', { email: person.email, password: PERSON_PASSWORD }), /wants to access/);
  const { browser: next, page: again } = await signinPage();
  for (let i = 1; i <= 10; i++) expectPage(await next.submit(again, 'signin-password', { email: person.email, password: `wrong-${i}-password` }), /^Sign in$/, 401);
  limited(await next.submit(again, 'signin-password', { email: person.email, password: PERSON_PASSWORD }), /^Sign in$/);
  assert.ok(!next.cookies.has('gh_ps'), 'over the limit even the right password does not sign in');
});
