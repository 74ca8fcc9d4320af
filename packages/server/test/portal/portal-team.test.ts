// The portal's team page over HTTP (issue 12 items 1 and 2): members and open invitations; owners
// and admins invite (an address of up to 254 characters, a role up to their own), change roles,
// remove teammates and revoke invitations, each destructive step asked first; anyone leaves, the
// last owner cannot. Each refusal is a page with the status of its rule and changes nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CustomerRole } from '../../src/customers/tables.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage, freshEmail } from '../support/pages.js';
import { customerIdOf, portalVisitor, teamPageOf } from '../support/portal.js';
import { headingOf, type TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Team Pages API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' })).status, 200);
});
after(() => f.t.close());

const members = () => f.t.services.customerMembers;
const csrfOf = (browser: TenantBrowser) => browser.cookies.get('gh_csrf')!;

/** An owner with their own customer, signed in to the portal. */
async function owner(name = 'Olive Owner') {
  const visitor = await portalVisitor(f, { name });
  return { ...visitor, customerId: await customerIdOf(f, f.apiId, visitor.person.id) };
}

/** A teammate invited by `inviter` (through the team page) with `role`, who accepted by the link. */
async function teammate(inviter: Awaited<ReturnType<typeof owner>>, role: CustomerRole, name = `${role} Mate`) {
  const email = freshEmail(role);
  f.t.mail.take(email);
  const sent = await inviter.browser.submit(await teamPageOf(inviter.browser), 'send-invitation', { email, role });
  expectPage(sent, /^Team of /);
  assert.match(sent.html, /Invitation sent\./);
  const link = /(http:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(email, /You are invited to/)).text)![1]!;
  // Their first visit accepts every open invitation of their address (as a sign-up would); the link then lands in the customer.
  const visitor = await portalVisitor(f, { email, name });
  expectPage(await visitor.browser.get(link), new RegExp(`^${inviter.person.name}$`));
  return visitor;
}

const roleIn = (html: string, personId: string) => new RegExp(`id="member-${personId}">[\\s\\S]*?<td class="role">(\\w+)</td>`).exec(html)?.[1];

test('owners invite with any role: an address of 254 characters is sent; 255, a bad address or an unknown role are 400 and send nothing', async () => {
  const o = await owner();
  const page = await teamPageOf(o.browser);
  assert.match(page.html, /<select id="invite-role" name="role"><option value="owner">owner<\/option><option value="admin">admin<\/option><option value="member" selected>member<\/option><\/select>/);
  const longest = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(56)}.test`;
  assert.equal(longest.length, 254);
  const sent = await o.browser.submit(page, 'send-invitation', { email: longest, role: 'owner' });
  assert.ok(sent.url.endsWith('/team?done=invited'), 'a GET after the post');
  assert.match(sent.html, new RegExp(`<td>${longest}</td><td class="role">owner</td>`));

  for (const [email, role] of [[`x${longest}`, 'member'], ['not an address', 'member'], [freshEmail('bad-role'), 'superuser'], [freshEmail('no-role'), '']] as const) {
    const refused = await o.browser.submit(await teamPageOf(o.browser), 'send-invitation', { email, role });
    assert.equal(refused.status, 400, `${email} ${role}`);
    assert.match(refused.html, /class="error"/);
  }
  assert.equal((await members().openInvitations(f.apiId, o.customerId)).length, 1, 'only the first invitation was made');
  const again = await o.browser.submit(await teamPageOf(o.browser), 'send-invitation', { email: o.person.email, role: 'member' });
  assert.equal(again.status, 409, 'an address already on the team');
});

test('admins: invite up to admin, manage admins and members, never owners', async () => {
  const o = await owner();
  const admin = await teammate(o, 'admin');
  const member = await teammate(o, 'member');
  const page = await teamPageOf(admin.browser);
  assert.match(page.html, /<select id="invite-role" name="role"><option value="admin">admin<\/option><option value="member" selected>member<\/option><\/select>/);
  assert.doesNotMatch(page.html, new RegExp(`id="remove-${o.person.id}"`), 'no removing an owner');
  assert.match(page.html, new RegExp(`id="remove-${member.person.id}"`));

  const ownerInvite = await admin.browser.submit(page, 'send-invitation', { email: freshEmail('x'), role: 'owner' });
  assert.equal(ownerInvite.status, 403);
  const demote = await admin.browser.request('POST', `/team/members/${o.person.id}/role`, { csrf: csrfOf(admin.browser), role: 'member' });
  assert.equal(demote.status, 403);
  const removeOwner = await admin.browser.request('POST', `/team/members/${o.person.id}/remove`, { csrf: csrfOf(admin.browser) });
  assert.equal(removeOwner.status, 403);
  const promote = await admin.browser.submit(page, `set-role-${member.person.id}`, { role: 'owner' });
  assert.equal(promote.status, 403, 'no making owners');
  assert.equal(roleIn((await teamPageOf(o.browser)).html, o.person.id), 'owner');

  const raised = await admin.browser.submit(await teamPageOf(admin.browser), `set-role-${member.person.id}`, { role: 'admin' });
  assert.ok(raised.url.endsWith('/team?done=role'));
  assert.equal(roleIn(raised.html, member.person.id), 'admin');
});

test('members: see the team, invite nobody, change nothing; they may leave', async () => {
  const o = await owner();
  const member = await teammate(o, 'member');
  const page = await teamPageOf(member.browser);
  assert.doesNotMatch(page.html, /id="send-invitation"|id="remove-|id="set-role-|id="revoke-invitation-/, 'no team actions for a member');
  assert.match(page.html, new RegExp(`id="member-${o.person.id}"`));
  const invite = await member.browser.request('POST', '/team/invitations', { csrf: csrfOf(member.browser), email: freshEmail('m'), role: 'member' });
  assert.equal(invite.status, 403);
  assert.equal((await member.browser.get(`/team/members/${o.person.id}/remove`)).status, 403);

  const confirm = expectPage(await member.browser.get('/team/leave'), /^Leave Olive Owner\?$/);
  const left = await member.browser.submit(confirm, 'confirm-leave');
  expectPage(left, /^You left Olive Owner$/);
  assert.match(left.html, /id="sign-out"/);
  assert.deepEqual((await members().members(f.apiId, o.customerId)).map((m) => m.id), [o.person.id]);
});

test('removing a teammate and revoking an invitation are asked first; the confirmed post does it', async () => {
  const o = await owner();
  const member = await teammate(o, 'member');
  const confirm = expectPage(await o.browser.get(`/team/members/${member.person.id}/remove`), /^Remove member Mate\?$/);
  assert.deepEqual((await members().members(f.apiId, o.customerId)).length, 2, 'asking changes nothing');
  const removed = await o.browser.submit(confirm, 'confirm-remove');
  assert.ok(removed.url.endsWith('/team?done=removed'));
  assert.doesNotMatch(removed.html, new RegExp(`id="member-${member.person.id}"`));
  const gone = await member.browser.get('/');
  assert.notEqual(headingOf(gone.html), 'Olive Owner', 'a removed member sees the customer no more');
  assert.equal((await o.browser.request('POST', `/team/members/${member.person.id}/remove`, { csrf: csrfOf(o.browser) })).status, 404, 'twice: no such member');

  const invitee = freshEmail('revoked');
  f.t.mail.take(invitee);
  await o.browser.submit(await teamPageOf(o.browser), 'send-invitation', { email: invitee, role: 'member' });
  const token = /\/invites\/([A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(invitee, /You are invited/)).text)![1]!;
  const [open] = await members().openInvitations(f.apiId, o.customerId);
  const ask = expectPage(await o.browser.get(`/team/invitations/${open!.id}/revoke`), /^Revoke the invitation of /);
  assert.ok(await members().invitation(f.apiId, token), 'asking changes nothing');
  const revoked = await o.browser.submit(ask, 'confirm-revoke-invitation');
  assert.ok(revoked.url.endsWith('/team?done=revoked'));
  assert.match(revoked.html, /id="no-invitations"/);
  assert.equal(await members().invitation(f.apiId, token), null, 'the link stops working');
});

test('the last owner cannot leave or step down; with a second owner they can', async () => {
  const o = await owner('Lone Owner');
  const page = await teamPageOf(o.browser);
  assert.match(page.html, /id="last-owner"/);
  assert.doesNotMatch(page.html, /id="leave"|id="set-role-/);
  const ask = await o.browser.get('/team/leave');
  assert.equal(ask.status, 409);
  assert.match(ask.html, /keeps at least one owner/);
  assert.equal((await o.browser.request('POST', '/team/leave', { csrf: csrfOf(o.browser) })).status, 409);
  assert.equal((await o.browser.request('POST', `/team/members/${o.person.id}/role`, { csrf: csrfOf(o.browser), role: 'admin' })).status, 409);

  const second = await teammate(o, 'owner', 'Second Owner');
  const now = await teamPageOf(o.browser);
  assert.match(now.html, /id="leave"/);
  const left = await o.browser.submit(expectPage(await o.browser.get('/team/leave'), /^Leave Lone Owner\?$/), 'confirm-leave');
  // Their only customer: the page says they left, and offers to sign out.
  expectPage(left, /^You left Lone Owner$/);
  assert.deepEqual((await members().members(f.apiId, o.customerId)).map((m) => [m.id, m.role]), [[second.person.id, 'owner']]);
});

test('names people typed are escaped on the team page', async () => {
  const o = await owner('<img src=x onerror=alert(1)>');
  const page = await teamPageOf(o.browser);
  assert.ok(!page.html.includes('<img src=x'), 'no markup from a name');
  assert.match(page.html, /&lt;img src=x onerror=alert\(1\)&gt;/);
});
