// The customer portal over HTTP (issue 12 item 2): signing in through the API's own issuer with a
// code and PKCE, the overview, keys made once and revoked, the quickstart, the account, signing
// out of both, invitations landed on, and what a person without an active customer sees.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage, followLink, freshEmail, PERSON_PASSWORD, signUpWithCode } from '../support/pages.js';
import { TenantBrowser, type Page } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Portal API');
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', api_base_url: 'https://api.portal.example/v1', tagline: 'Forecasts by the minute' });
  assert.equal(set.status, 200, set.text);
});
after(() => f.t.close());

/** A new visitor: the portal sends them to sign in, they follow the sign-up link and come back signed in. */
async function signUpOnPortal(email: string, name = 'Pam Portal') {
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.get('/'), /^Sign in$/);
  const signup = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  const landed = await signUpWithCode(f, browser, signup, email, name);
  return { browser, landed: await browser.follow(landed) };
}

const formOf = (page: Page, action: string) => {
  assert.match(page.html, new RegExp(`action="${action}"`), `no form posting to ${action}`);
  return page;
};

test('a visitor signs up on the portal, through the issuer, and lands on the overview of their new customer', async () => {
  const email = freshEmail('portal');
  const { browser, landed } = await signUpOnPortal(email);
  assert.equal(landed.status, 200, landed.html.slice(0, 300));
  assert.match(landed.html, /<h1>Pam Portal<\/h1>/);
  assert.match(landed.html, /id="balance">1\.00</, 'the welcome credit of the payg preset');
  assert.match(landed.html, /Forecasts by the minute/, 'the tagline');
  assert.match(landed.html, /Powered by Gatehouse/);
  assert.ok(browser.cookies.has('gh_portal') && browser.cookies.has('gh_ps'), 'signed in to the portal and to the sign-in service');
  // The portal asks no consent: it is the service's own client.
  assert.doesNotMatch(landed.html, /wants to access/);
  // The strict CSP of every page.
  assert.match(landed.headers.get('content-security-policy')!, /default-src 'none'/);
});

test('keys: made once with the quickstart filled in, listed by their start, revoked after a confirmation', async () => {
  const { browser, landed } = await signUpOnPortal(freshEmail('keys'));
  const keys = formOf(await browser.get('/keys'), '/keys');
  const made = await browser.submit(keys, 'create-key', { name: 'production' });
  assert.equal(made.status, 200, made.html.slice(0, 300));
  const key = /<code id="new-key">([^<]+)<\/code>/.exec(made.html)![1]!;
  assert.match(key, /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/, 'a key in the spec 4.4 format');
  assert.ok(made.html.includes(`https://api.portal.example/v1`) && made.html.includes(key), 'the quickstart carries the base URL and the key');
  const list = await browser.get('/keys');
  assert.ok(!list.html.includes(key), 'the key is never shown again');
  assert.ok(list.html.includes(key.slice(0, 10)), 'its start is');
  const keyId = /id="revoke-([0-9a-f-]{36})"/.exec(list.html)![1]!;
  const confirm = expectPage(await browser.get(`/keys/${keyId}/revoke`), /Revoke production\?/);
  const revoked = await browser.submit(confirm, 'confirm-revoke');
  assert.match(revoked.html, /Revoked production/);
  assert.doesNotMatch(revoked.html, new RegExp(`id="revoke-${keyId}"`));
  // A bad name is refused on the page, naming the bound.
  const bad = await browser.submit(await browser.get('/keys'), 'create-key', { name: 'x'.repeat(81) });
  assert.equal(bad.status, 400);
  void landed;
});

test('the quickstart names the address the owner set; without one it shows a placeholder and says where the owner sets it', async () => {
  const { browser } = await signUpOnPortal(freshEmail('quickstart'));
  const withAddress = expectPage(await browser.get('/quickstart'), /Quickstart/);
  assert.ok(withAddress.html.includes("curl &#39;https://api.portal.example/v1&#39;"), 'the address the owner set');
  assert.doesNotMatch(withAddress.html, /id="no-address"|API_ADDRESS/);

  const cleared = await f.owner.client.patch(`/apis/${f.apiId}`, { api_base_url: '' });
  assert.equal(cleared.status, 200, cleared.text);
  try {
    const without = expectPage(await browser.get('/quickstart'), /Quickstart/);
    assert.match(without.html, /id="no-address">Portal API has not published the address its API runs at yet/);
    assert.match(without.html, /set “Where your API runs” in its Settings in the Gatehouse console/);
    assert.ok(without.html.includes('curl &#39;API_ADDRESS&#39;'), 'a placeholder, not an invented host');
    assert.doesNotMatch(without.html, /example\.com/);
  } finally {
    const restored = await f.owner.client.patch(`/apis/${f.apiId}`, { api_base_url: 'https://api.portal.example/v1' });
    assert.equal(restored.status, 200, restored.text);
  }
});

test('forms without their CSRF token change nothing', async () => {
  const { browser } = await signUpOnPortal(freshEmail('csrf'));
  const page = await browser.request('POST', '/keys', { name: 'sneaky' });
  assert.equal(page.status, 403);
  const other = await browser.request('POST', '/keys', { name: 'sneaky', csrf: browser.cookies.get('gh_csrf')! }, { origin: 'https://evil.example' });
  assert.equal(other.status, 403);
  assert.doesNotMatch((await browser.get('/keys')).html, /sneaky/);
});

test('signing out of the portal signs out of the sign-in service too', async () => {
  const { browser } = await signUpOnPortal(freshEmail('signout'));
  const account = expectPage(await browser.get('/account'), /Your account/);
  const out = await browser.submit(account, 'sign-out');
  assert.match(out.html, /You are signed out/);
  assert.ok(!browser.cookies.has('gh_portal') && !browser.cookies.has('gh_ps'));
  expectPage(await browser.get('/'), /^Sign in$/);
});

test('a sealed portal cookie of another API, or a forged one, signs nobody in', async () => {
  const { browser } = await signUpOnPortal(freshEmail('forge'));
  const stranger = new TenantBrowser(f.issuer);
  stranger.cookies.set('gh_portal', 'v1.forged.value.tag');
  expectPage(await stranger.get('/'), /^Sign in$/);
  // The issuer session behind the cookie ended (suspension, sign-out elsewhere): the portal ends too.
  const session = await f.t.services.db.selectFrom('person_sessions').select('id').where('api_id', '=', f.apiId).orderBy('created_at', 'desc').limit(1).executeTakeFirstOrThrow();
  await f.t.services.personSessions.end(f.apiId, session.id);
  expectPage(await browser.get('/'), /^Sign in$/);
});

test('an invitation link: create an account with the address, land in the customer', async () => {
  const { browser: ownerBrowser } = await signUpOnPortal(freshEmail('team-owner'), 'Tina Owner');
  const [membership] = await f.t.services.customerMembers.membershipsOf(f.apiId, (await f.t.services.db.selectFrom('people').select('id').where('name', '=', 'Tina Owner').executeTakeFirstOrThrow()).id);
  const invitee = freshEmail('teammate');
  f.t.mail.take(invitee);
  const actor = { apiId: f.apiId, customerId: membership!.customer_id, person: { id: 'x', email: 'tina@example.com', name: 'Tina Owner' }, role: 'owner' as const, ip: '127.0.0.1' };
  assert.ok((await f.t.services.customerMembers.invite(actor, invitee, 'member')).ok);
  const link = /(http:\/\/[^\s]+\/invites\/[A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(invitee, /You are invited/)).text)![1]!;
  const browser = new TenantBrowser(f.issuer);
  const landing = expectPage(await browser.get(link), /You are invited/);
  assert.match(landing.html, /as member/);
  const signup = expectPage(await followLink(browser, landing, 'invite-signup'), /Create your account/);
  assert.ok(signup.html.includes(`value="${invitee}"`), 'the address is filled in');
  const overview = await browser.follow(await signUpWithCode(f, browser, signup, invitee, 'Ted Teammate', PERSON_PASSWORD));
  assert.equal(overview.status, 200);
  assert.match(overview.html, /<h1>Tina Owner<\/h1>/, "the teammate sees the inviter's customer");
  // The link worked once.
  const again = await new TenantBrowser(f.issuer).get(link);
  assert.equal(again.status, 404);
  void ownerBrowser;
});

test('waiting for approval, and access by invitation only, are pages of their own', async () => {
  await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'approval' });
  try {
    const { landed } = await signUpOnPortal(freshEmail('waiting'));
    assert.match(landed.html, /Waiting for approval/);
    assert.doesNotMatch(landed.html, /nav class="portal"/, 'no navigation while waiting');
  } finally {
    await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' });
  }
});

test('unknown portal paths are a page, protocol paths stay JSON', async () => {
  const browser = new TenantBrowser(f.issuer);
  const page = await browser.request('GET', '/no-such-page');
  assert.equal(page.status, 404);
  assert.match(page.headers.get('content-type')!, /text\/html/);
  const endpoint = await browser.request('GET', '/oauth/nothing');
  assert.equal(endpoint.status, 404);
  assert.equal(JSON.parse(endpoint.html).error, 'invalid_request');
});
