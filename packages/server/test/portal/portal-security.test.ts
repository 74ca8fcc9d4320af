// The portal's pages are pages of the platform (DESIGN 9): every one answers with the strict
// Content-Security-Policy and holds nothing it would block (no inline style or handler, no script
// or style without the answer's nonce, nothing from elsewhere); every form of the usage, ledger,
// plans and team pages' area checks its CSRF token and Origin before it does anything. And tenants
// stay apart (issue 12 item 5): a person of API A sees nothing of API B and cannot touch B's keys,
// people or invitations by naming their ids, nor another customer's of A.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage, freshEmail } from '../support/pages.js';
import { customerIn, getWireSnapshot, postWireUsage, usageItem } from '../support/money.js';
import { customerIdOf, portalVisitor, sdkSecretOf, teamPageOf } from '../support/portal.js';
import { formsIn, headingOf, TenantBrowser, type Page } from '../support/tenant-client.js';

let f: IssuerFixture;
// A second API of the same owner, on its own host.
let b: { id: string; issuer: string; secret: string };
before(async () => {
  f = await startIssuer('Alpha API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', plans_enabled: true })).status, 200);
  const made = await f.owner.client.post(`/workspaces/${f.owner.workspaceId}/apis`, { name: 'Bravo API' });
  assert.equal(made.status, 200, made.text);
  b = { id: made.body.api.id, issuer: `http://${made.body.api.slug}.localhost:${f.t.port}`, secret: made.body.secret };
  assert.equal((await f.owner.client.patch(`/apis/${b.id}`, { signup_mode: 'open' })).status, 200);
});
after(() => f.t.close());

const csrfOf = (browser: TenantBrowser) => browser.cookies.get('gh_csrf')!;

/** An owner on a host with a teammate (member), an open invitation and a key, for pages that need them. */
async function fullCustomer(api?: { id: string; issuer: string }) {
  const owner = await portalVisitor(f, { name: 'Cora Customer', ...(api ? { api } : {}) });
  const apiId = api?.id ?? f.apiId;
  const customerId = await customerIdOf(f, apiId, owner.person.id);
  const actor = { apiId, customerId, person: { id: owner.person.id, email: owner.person.email, name: owner.person.name }, role: 'owner' as const, ip: '127.0.0.1' };
  const mateEmail = freshEmail('mate');
  assert.ok((await f.t.services.customerMembers.invite(actor, mateEmail, 'member')).ok);
  const mate = await portalVisitor(f, { email: mateEmail, name: 'Milo Mate', ...(api ? { api } : {}) });
  assert.ok((await f.t.services.customerMembers.invite(actor, freshEmail('pending'), 'admin')).ok);
  const [invitation] = await f.t.services.customerMembers.openInvitations(apiId, customerId);
  const made = await owner.browser.submit(await owner.browser.get('/keys'), 'create-key', { name: 'prod' });
  assert.equal(made.status, 200);
  const keyId = /id="revoke-([0-9a-f-]{36})"/.exec((await owner.browser.get('/keys')).html)![1]!;
  return { ...owner, customerId, mate, invitationId: invitation!.id, keyId };
}

const STRICT_CSP = /^default-src 'none'; style-src 'nonce-([A-Za-z0-9+/=]+)'; script-src 'nonce-\1'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/;

function assertStrictPage(page: Page, path: string) {
  const csp = page.headers.get('content-security-policy') ?? '';
  const match = STRICT_CSP.exec(csp);
  assert.ok(match, `${path}: a strict CSP, got "${csp}"`);
  const nonce = match[1]!;
  assert.equal(page.headers.get('x-frame-options'), 'DENY', path);
  assert.equal(page.headers.get('cache-control'), 'no-store', path);
  // What the CSP would block must not be there: the page works because it needs nothing else.
  assert.doesNotMatch(page.html, /\sstyle="|\son[a-z]+="|javascript:/i, `${path}: no inline style or handler`);
  for (const tag of page.html.match(/<(script|style)\b[^>]*>/g) ?? []) assert.ok(tag.includes(`nonce="${nonce}"`), `${path}: ${tag} carries the nonce`);
  assert.doesNotMatch(page.html, /<(img|script|link|iframe)\b[^>]*\s(src|href)="(https?:)?\/\//i, `${path}: nothing loaded from elsewhere`);
}

test('every page of the portal answers with the strict CSP and holds nothing it would block', async () => {
  const c = await fullCustomer();
  const paths = ['/', '/usage', '/ledger', '/billing', '/keys', '/quickstart', '/plans', '/team', '/account', `/keys/${c.keyId}/revoke`, `/team/members/${c.mate.person.id}/remove`, `/team/invitations/${c.invitationId}/revoke`];
  for (const path of paths) {
    const page = await c.browser.get(path);
    assert.equal(page.status, 200, `${path}: ${headingOf(page.html)}`);
    assertStrictPage(page, path);
    // Every form of every page carries the CSRF token of this browser.
    for (const form of formsIn(page.html).filter((form) => form.method === 'post')) {
      assert.ok(form.fields.some((field) => field.name === 'csrf' && field.value === csrfOf(c.browser)), `${path}: the form to ${form.action} carries the token`);
    }
  }
  assertStrictPage(await c.mate.browser.get('/team/leave'), '/team/leave');
});

test('every team form checks its CSRF token and Origin before doing anything', async () => {
  const c = await fullCustomer();
  const members = () => f.t.services.customerMembers.members(f.apiId, c.customerId);
  const invitations = () => f.t.services.customerMembers.openInvitations(f.apiId, c.customerId);
  const before = { members: await members(), invitations: await invitations() };
  const forms: [TenantBrowser, string, Record<string, string>][] = [
    [c.browser, '/team/invitations', { email: freshEmail('forged'), role: 'owner' }],
    [c.browser, `/team/members/${c.mate.person.id}/role`, { role: 'admin' }],
    [c.browser, `/team/members/${c.mate.person.id}/remove`, {}],
    [c.browser, `/team/invitations/${c.invitationId}/revoke`, {}],
    [c.mate.browser, '/team/leave', {}],
    [c.browser, `/keys/${c.keyId}/revoke`, {}],
  ];
  for (const [browser, path, fields] of forms) {
    const without = await browser.request('POST', path, fields);
    assert.equal(without.status, 403, `${path} without the token`);
    assert.match(without.html, /The form expired/);
    const wrong = await browser.request('POST', path, { ...fields, csrf: 'A'.repeat(43) });
    assert.equal(wrong.status, 403, `${path} with another token`);
    const elsewhere = await browser.request('POST', path, { ...fields, csrf: csrfOf(browser) }, { origin: 'https://evil.example' });
    assert.equal(elsewhere.status, 403, `${path} from another origin`);
  }
  assert.deepEqual(await members(), before.members, 'nobody added, changed or removed');
  assert.deepEqual(await invitations(), before.invitations, 'no invitation made or revoked');
  assert.match((await c.browser.get('/keys')).html, new RegExp(`id="revoke-${c.keyId}"`), 'the key is still there');
  // With its token and our own origin, the same form works.
  const done = await c.browser.request('POST', `/team/members/${c.mate.person.id}/role`, { role: 'admin', csrf: csrfOf(c.browser) }, { origin: f.issuer });
  assert.equal(done.status, 303);
});

test('a person of API A sees nothing of API B, and names of B’s keys, people and invitations reach nothing', async () => {
  const theirs = await fullCustomer(b);
  const ours = await fullCustomer();
  // B's customer has usage and ledger entries of its own.
  const snapshot = (await getWireSnapshot(f.t, b.secret, { full: true })).body;
  const policy = customerIn(snapshot, theirs.customerId).usage_policy_id;
  assert.equal((await postWireUsage(f.t, b.secret, [usageItem(theirs.keyId, policy, 200, 42, f.t.clock.now())]))[0]!.status, 'accepted');
  const theirLedger = await theirs.browser.get('/ledger');
  const theirEntryIds = [...theirLedger.html.matchAll(/id="entry-([^"]+)"/g)].map((m) => m[1]!);
  assert.ok(theirEntryIds.length >= 2);

  for (const path of ['/', '/usage', '/ledger', '/billing', '/keys', '/team', '/plans']) {
    const page = await ours.browser.get(path);
    assert.equal(page.status, 200, path);
    for (const secretOfB of [theirs.customerId, theirs.keyId, theirs.person.email, theirs.mate.person.id, theirs.invitationId, ...theirEntryIds, 'Bravo API']) {
      assert.ok(!page.html.includes(secretOfB), `${path} shows nothing of B (${secretOfB})`);
    }
  }
  assert.match((await ours.browser.get('/usage')).html, /id="total-requests">0</, "B's usage is not A's");

  const csrf = csrfOf(ours.browser);
  const attempts: [string, 'GET' | 'POST', Record<string, string> | undefined][] = [
    [`/keys/${theirs.keyId}/revoke`, 'GET', undefined],
    [`/keys/${theirs.keyId}/revoke`, 'POST', { csrf }],
    [`/team/members/${theirs.mate.person.id}/remove`, 'GET', undefined],
    [`/team/members/${theirs.mate.person.id}/remove`, 'POST', { csrf }],
    [`/team/members/${theirs.mate.person.id}/role`, 'POST', { csrf, role: 'admin' }],
    [`/team/invitations/${theirs.invitationId}/revoke`, 'GET', undefined],
    [`/team/invitations/${theirs.invitationId}/revoke`, 'POST', { csrf }],
  ];
  for (const [path, method, body] of attempts) {
    const answer = await ours.browser.request(method, path, body);
    assert.equal(answer.status, 404, `${method} ${path} on A's host`);
  }
  // Everything of B is as it was.
  assert.match((await theirs.browser.get('/keys')).html, new RegExp(`id="revoke-${theirs.keyId}"`), "B's key is not revoked");
  const theirTeam = await teamPageOf(theirs.browser);
  assert.match(theirTeam.html, new RegExp(`id="member-${theirs.mate.person.id}">[\\s\\S]*?<td class="role">member</td>`));
  assert.match(theirTeam.html, new RegExp(`id="invitation-${theirs.invitationId}"`));
  // A cursor of B's ledger, used on A's host, pages A's entries only.
  const cursorOfB = Buffer.from(`${new Date(Date.now() + 86_400_000).toISOString()}|${theirEntryIds[0]}`).toString('base64url');
  const paged = await ours.browser.get(`/ledger?cursor=${cursorOfB}`);
  assert.equal(paged.status, 200);
  for (const id of theirEntryIds) assert.ok(!paged.html.includes(id));

  // A's cookies on B's host sign nobody in: B asks to sign in.
  const stranger = new TenantBrowser(b.issuer);
  for (const [name, value] of ours.browser.cookies) stranger.cookies.set(name, value);
  expectPage(await stranger.get('/'), /^Sign in$/);
});

test('within one API, a customer cannot reach another customer’s keys, people or invitations either', async () => {
  const one = await fullCustomer();
  const other = await fullCustomer();
  const csrf = csrfOf(one.browser);
  for (const [path, body] of [[`/keys/${other.keyId}/revoke`, { csrf }], [`/team/members/${other.mate.person.id}/remove`, { csrf }], [`/team/invitations/${other.invitationId}/revoke`, { csrf }]] as const) {
    assert.equal((await one.browser.request('POST', path, body)).status, 404, path);
  }
  assert.match((await other.browser.get('/keys')).html, new RegExp(`id="revoke-${other.keyId}"`));
  assert.equal((await f.t.services.customerMembers.members(f.apiId, other.customerId)).length, 2);
  assert.equal((await f.t.services.customerMembers.openInvitations(f.apiId, other.customerId)).length, 1);
});
