// The sign-in pages' defences (DESIGN 9): CSRF tokens and Origin on every form post, an interaction
// bound to the browser that started it, a strict Content-Security-Policy on every page, escaping of
// everything a person or client typed, forms that post to our own host, nothing from third parties.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HOUR } from '../../src/platform/clock.js';
import { patchSettings } from '../support/issuer-flows.js';
import { startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { expectPage, expectRedirect, followLink, freshEmail, PERSON_PASSWORD, personWithPassword } from '../support/pages.js';
import { errorIn, formsIn, TenantBrowser, type Page } from '../support/tenant-client.js';
import { changed, notifyChange } from '../../src/platform/db/change-feed.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Guarded <b>API</b> & "Co"');
});
after(() => f.t.close());

const csrfOf = (page: Page) => formsIn(page.html)[0]!.fields.find((field) => field.name === 'csrf')!.value;
const interactionOf = (page: Page) => new URL(page.url).pathname;

async function signinPage(browser = new TenantBrowser(f.issuer), extra: Record<string, string> = {}) {
  return { browser, page: expectPage(await browser.authorize(webRequest(f, extra).params), /^Sign in$/) };
}

test('a form post without the CSRF token, with another browser\'s token, or from another Origin is refused (403)', async () => {
  const person = await personWithPassword(f);
  const { browser, page } = await signinPage();
  const action = `${interactionOf(page)}/password`;
  const fields = { email: person.email, password: PERSON_PASSWORD };
  const refused = [
    await browser.request('POST', action, fields),
    await browser.request('POST', action, { ...fields, csrf: 'A'.repeat(43) }),
    await browser.request('POST', action, { ...fields, csrf: csrfOf(page) }, { origin: 'https://evil.example' }),
    await browser.request('POST', action, { ...fields, csrf: csrfOf(page) }, { origin: f.issuer.replace('http:', 'https:') }),
  ];
  // A token read from one browser is useless in another: the cookie it must equal is not there.
  const thief = new TenantBrowser(f.issuer);
  for (const [name, value] of browser.cookies) if (name !== 'gh_csrf') thief.cookies.set(name, value);
  refused.push(await thief.request('POST', action, { ...fields, csrf: csrfOf(page) }));
  for (const answer of refused) {
    assert.equal(answer.status, 403, answer.html.slice(0, 300));
    assert.match(answer.html, /came from another site/);
    assert.equal(answer.leftTo, null);
  }
  assert.ok(!browser.cookies.has('gh_ps') && !thief.cookies.has('gh_ps'), 'nobody was signed in');
  // The same post from our own origin, with the token, signs in.
  const ok = await browser.follow(await browser.request('POST', action, { ...fields, csrf: csrfOf(page) }, { origin: f.issuer }));
  expectPage(ok, /wants to access/);
});

test('an interaction works only in the browser that started it, and only for an hour', async () => {
  const { browser, page } = await signinPage();
  const other = new TenantBrowser(f.issuer);
  const elsewhere = await other.get(page.url);
  expectPage(elsewhere, /Sign-in cannot continue/, 400);
  assert.match(errorIn(elsewhere.html)!, /another browser/);
  const { page: ownPage } = await signinPage(other);
  const posted = await other.request('POST', `${interactionOf(page)}/code/send`, { csrf: csrfOf(ownPage), email: freshEmail() });
  assert.equal(posted.status, 400, 'another browser cannot act on it even with its own CSRF token');
  f.t.clock.advance(HOUR + 1000);
  expectPage(await browser.get(page.url), /Sign-in cannot continue/, 400);
});

test('a form of a later step cannot be posted early: consent before sign-in records nothing', async () => {
  const { browser, page } = await signinPage();
  const early = await browser.request('POST', `${interactionOf(page)}/consent`, { csrf: csrfOf(page), decision: 'allow' });
  assert.equal(early.status, 303);
  const choose = await browser.request('POST', `${interactionOf(page)}/choose`, { csrf: csrfOf(page), choice: 'continue' });
  assert.equal(choose.status, 303);
  const person = await personWithPassword(f);
  const next = await browser.submit(expectPage(await browser.follow(early), /^Sign in$/), 'signin-password', { email: person.email, password: PERSON_PASSWORD });
  expectPage(next, /wants to access/, 200);
});

test('every page carries a strict Content-Security-Policy, no-store, and loads nothing from anywhere else', async () => {
  const person = await personWithPassword(f);
  const { browser, page: signin } = await signinPage();
  const signup = await followLink(browser, signin, 'to-signup');
  const entry = await browser.submit(signin, 'signin-code', { email: person.email });
  const consent = await browser.submit(signin, 'signin-password', { email: person.email, password: PERSON_PASSWORD });
  const choose = await browser.authorize(webRequest(f, { login_hint: freshEmail('other') }).params);
  const error = await new TenantBrowser(f.issuer).get(signin.url);
  const pages = { signin, signup, entry, consent, choose, error };
  for (const [name, page] of Object.entries(pages)) {
    assert.equal(page.leftTo, null, name);
    const csp = page.headers.get('content-security-policy') ?? '';
    for (const directive of ["default-src 'none'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) assert.ok(csp.includes(directive), `${name}: ${directive} in ${csp}`);
    assert.match(csp, /script-src 'nonce-[^']+'(;|$)/, `${name}: scripts only by nonce`);
    // Forms may lead, through our redirects, to the app's redirect URI: its origin, and no other.
    assert.match(csp, name === 'error' ? /form-action 'self';/ : /form-action 'self' https:\/\/web\.example;/, `${name}: ${csp}`);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/, name);
    assert.equal(page.headers.get('cache-control'), 'no-store', name);
    assert.equal(page.headers.get('x-frame-options'), 'DENY', name);
    assert.doesNotMatch(page.html, /<script\b[^>]*\bsrc=|<link\b|<iframe\b|@import|url\(/i, `${name}: no external scripts, styles or frames`);
    for (const match of page.html.matchAll(/\b(?:src|href|action|formaction)="([^"]*)"/g)) {
      assert.ok(match[1]!.startsWith('/'), `${name}: ${match[0]} stays on this host`);
    }
    for (const form of formsIn(page.html)) assert.equal(form.method, 'post', `${name}: forms post`);
  }
});

test('the session cookie is HttpOnly, SameSite=Lax and host-only, lasting the service\'s session_ttl_s', async () => {
  const person = await personWithPassword(f);
  const { browser, page } = await signinPage();
  const answer = await browser.request('POST', `${interactionOf(page)}/password`, { csrf: csrfOf(page), email: person.email, password: PERSON_PASSWORD });
  assert.equal(answer.status, 303);
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('gh_ps='))!;
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);
  assert.match(cookie, /Path=\//);
  assert.doesNotMatch(cookie, /Domain=/i, 'host-only: never sent to other tenants or the console');
  const expires = new Date(/Expires=([^;]+)/i.exec(cookie)![1]!).getTime();
  const ttl = (await f.owner.client.get(`/apis/${f.apiId}/signin`)).body.session_ttl_s as number;
  assert.ok(Math.abs(expires - (f.t.clock.now().getTime() + ttl * 1000)) < 5 * 60_000, 'expires with the session');
});

test('what clients and people typed is shown escaped: app and API names, login_hint, a typed address', async () => {
  const evil = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: '<script>alert("app")</script> & Co', kind: 'web', redirect_uris: ['https://evil-app.example/cb'] });
  assert.equal(evil.status, 200, evil.text);
  const browser = new TenantBrowser(f.issuer);
  const hint = '"><script>alert(1)</script>@x.test';
  const params = { ...webRequest(f).params, client_id: evil.body.id, redirect_uri: 'https://evil-app.example/cb', login_hint: hint };
  const signin = expectPage(await browser.authorize(params), /^Sign in$/);
  assert.match(signin.html, /&lt;script&gt;alert\(&quot;app&quot;\)&lt;\/script&gt; &amp; Co/);
  assert.match(signin.html, /Guarded &lt;b&gt;API&lt;\/b&gt; &amp; &quot;Co&quot;/);
  assert.match(signin.html, /value="&quot;&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;@x\.test"/);
  const entry = await browser.submit(signin, 'signin-code', { email: '<img src=x onerror=alert(2)>@x.test' });
  assert.match(entry.html, /&lt;img src=x onerror=alert\(2\)&gt;@x\.test/);
  for (const page of [signin, entry]) {
    assert.doesNotMatch(page.html, /<script>alert|<img src=x|<b>API/, 'nothing typed became markup');
  }
  // And on the consent screen, where the app asks for access.
  const person = await personWithPassword(f);
  const consent = expectPage(await browser.submit(expectPage(await browser.get(signin.url), /^Sign in$/), 'signin-password', { email: person.email, password: PERSON_PASSWORD }), /wants to access/);
  assert.match(consent.html, /<span id="app-name">&lt;script&gt;alert\(&quot;app&quot;\)&lt;\/script&gt; &amp; Co<\/span>/);
  assert.doesNotMatch(consent.html, /<script>alert/);
});

test('apps the owner did not register are labelled unverified on the consent screen', async () => {
  const registered = await f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Someone Else\'s Agent', kind: 'native', redirect_uris: ['http://127.0.0.1/cb'] });
  assert.equal(registered.status, 200, registered.text);
  await f.t.services.db.updateTable('oauth_apps').set({ origin: 'registered' }).where('id', '=', registered.body.id).execute();
  await notifyChange(f.t.services.db, [changed.client(f.apiId, registered.body.id)]);
  // Apps people connect sign in only while the API takes them (test/connected-apps covers the off side).
  await patchSettings(f, { connected_apps: 'on' });
  const person = await personWithPassword(f);
  const browser = new TenantBrowser(f.issuer);
  const params = { ...webRequest(f).params, client_id: registered.body.id, redirect_uri: 'http://127.0.0.1:4321/cb' };
  const signin = expectPage(await browser.authorize(params), /^Sign in$/);
  const consent = expectPage(await browser.submit(signin, 'signin-password', { email: person.email, password: PERSON_PASSWORD }), /wants to access/);
  assert.match(consent.html, /Someone Else&#39;s Agent<\/span><span class="badge">unverified<\/span>/);
  assert.match(consent.html, /did not register this app/);
  const answer = expectRedirect(await browser.submit(consent, 'consent-allow'), 'http://127.0.0.1:4321/cb');
  assert.ok(answer.get('code'));
});
