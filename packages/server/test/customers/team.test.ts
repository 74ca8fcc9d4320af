// A customer's team (issue 12 item 1): owners and admins invite teammates with a role up to their
// own, invitations are accepted once by the address they name, and a customer keeps an owner.
// Through the members service on the real database; the portal's pages drive the same calls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CustomerRole } from '../../src/customers/tables.js';
import type { PersonRef } from '../../src/customers/members.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { freshEmail } from '../support/pages.js';
import { createPerson } from '../support/signin.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Team API');
  await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' });
});
after(() => f.t.close());

const members = () => f.t.services.customerMembers;

async function person(label: string): Promise<PersonRef> {
  const row = await createPerson(f.t, f.apiId, { email: freshEmail(label), name: `${label} Person` });
  return { id: row.id, email: row.email, name: row.name };
}

const as = (who: PersonRef, customerId: string, role: CustomerRole) => ({ apiId: f.apiId, customerId, person: who, role, ip: '192.0.2.1' });

/** An owner with their own customer. */
async function ownerWithCustomer() {
  const owner = await person('owner');
  await members().joinOnVisit(f.apiId, owner);
  const [membership] = await members().membershipsOf(f.apiId, owner.id);
  return { owner, customerId: membership!.customer_id };
}

/** Invites `who` with `role` as `inviter` and accepts the mailed link as `who`. */
async function inviteAndAccept(customerId: string, inviter: ReturnType<typeof as>, who: PersonRef, role: CustomerRole) {
  f.t.mail.take(who.email);
  const sent = await members().invite(inviter, who.email, role);
  assert.ok(sent.ok, JSON.stringify(sent));
  const mail = await f.t.mail.waitFor(who.email, /You are invited to/);
  const token = /\/invites\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  const accepted = await members().acceptByToken(f.apiId, token, who);
  assert.ok(accepted.ok && accepted.value.customerId === customerId, JSON.stringify(accepted));
  return token;
}

test('an invitation is accepted once, only by the address it names', async () => {
  const { owner, customerId } = await ownerWithCustomer();
  const admin = await person('admin');
  const stranger = await person('stranger');
  f.t.mail.take(admin.email);
  assert.ok((await members().invite(as(owner, customerId, 'owner'), admin.email.toUpperCase(), 'admin')).ok);
  const mail = await f.t.mail.waitFor(admin.email, /You are invited to join a team/);
  assert.equal(mail.subject, 'You are invited to join a team', 'no name a sender chose in the subject');
  assert.match(mail.text, /owner Person invited you to join owner Person on Team API/);
  assert.match(mail.text, /as admin/);
  const token = /\/invites\/([A-Za-z0-9_-]+)/.exec(mail.text)![1]!;
  assert.equal((await members().invitation(f.apiId, token))?.role, 'admin');
  const wrong = await members().acceptByToken(f.apiId, token, stranger);
  assert.ok(!wrong.ok && wrong.code === 'invite_account_mismatch');
  assert.ok((await members().acceptByToken(f.apiId, token, admin)).ok);
  const again = await members().acceptByToken(f.apiId, token, admin);
  assert.ok(!again.ok && again.code === 'invite_not_found', 'the link works once');
  assert.equal(await members().invitation(f.apiId, token), null);
  const team = await members().members(f.apiId, customerId);
  assert.deepEqual(team.map((m) => [m.email, m.role]), [[owner.email, 'owner'], [admin.email, 'admin']]);
  // An invitation to someone already on the team is refused.
  const dup = await members().invite(as(owner, customerId, 'owner'), admin.email, 'member');
  assert.ok(!dup.ok && dup.code === 'already_member');
});

test('roles: members invite nobody; admins grant up to admin and manage members and admins; owners everything', async () => {
  const { owner, customerId } = await ownerWithCustomer();
  const admin = await person('admin');
  await inviteAndAccept(customerId, as(owner, customerId, 'owner'), admin, 'admin');
  const member = await person('member');
  await inviteAndAccept(customerId, as(admin, customerId, 'admin'), member, 'member');

  const byMember = await members().invite(as(member, customerId, 'member'), freshEmail('x'), 'member');
  assert.ok(!byMember.ok && byMember.code === 'forbidden');
  const ownerByAdmin = await members().invite(as(admin, customerId, 'admin'), freshEmail('x'), 'owner');
  assert.ok(!ownerByAdmin.ok && ownerByAdmin.code === 'forbidden', 'an admin cannot make owners');
  const promote = await members().setRole(as(admin, customerId, 'admin'), member.id, 'owner');
  assert.ok(!promote.ok && promote.code === 'forbidden');
  const touchOwner = await members().remove(as(admin, customerId, 'admin'), owner.id);
  assert.ok(!touchOwner.ok && touchOwner.code === 'forbidden', 'an admin cannot remove an owner');
  const memberRemoves = await members().remove(as(member, customerId, 'member'), admin.id);
  assert.ok(!memberRemoves.ok && memberRemoves.code === 'forbidden');

  assert.ok((await members().setRole(as(admin, customerId, 'admin'), member.id, 'admin')).ok, 'an admin may make an admin');
  assert.ok((await members().remove(as(admin, customerId, 'admin'), member.id)).ok);
  assert.deepEqual((await members().members(f.apiId, customerId)).map((m) => m.role), ['owner', 'admin']);
  // Anyone may leave.
  assert.ok((await members().remove(as(admin, customerId, 'admin'), admin.id)).ok);
  assert.deepEqual((await members().members(f.apiId, customerId)).map((m) => m.email), [owner.email]);
});

test('a customer always keeps an owner', async () => {
  const { owner, customerId } = await ownerWithCustomer();
  const leave = await members().remove(as(owner, customerId, 'owner'), owner.id);
  assert.ok(!leave.ok && leave.code === 'last_owner', 'the last owner cannot leave');
  const demote = await members().setRole(as(owner, customerId, 'owner'), owner.id, 'admin');
  assert.ok(!demote.ok && demote.code === 'last_owner', 'nor step down');
  const second = await person('second');
  await inviteAndAccept(customerId, as(owner, customerId, 'owner'), second, 'owner');
  // With two owners, one may go.
  assert.ok((await members().remove(as(owner, customerId, 'owner'), owner.id)).ok);
  const last = await members().remove(as(second, customerId, 'owner'), second.id);
  assert.ok(!last.ok && last.code === 'last_owner');
  // Two owners removing each other at once: one of them stays.
  const third = await person('third');
  await inviteAndAccept(customerId, as(second, customerId, 'owner'), third, 'owner');
  const [a, b] = await Promise.all([members().remove(as(second, customerId, 'owner'), third.id), members().remove(as(third, customerId, 'owner'), second.id)]);
  assert.equal([a, b].filter((r) => r.ok).length, 1);
  assert.equal((await members().members(f.apiId, customerId)).filter((m) => m.role === 'owner').length, 1);
});

test('team invitations are revoked by owners and admins; a revoked link stops working', async () => {
  const { owner, customerId } = await ownerWithCustomer();
  const invitee = freshEmail('revoked');
  f.t.mail.take(invitee);
  assert.ok((await members().invite(as(owner, customerId, 'owner'), invitee, 'member')).ok);
  const token = /\/invites\/([A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(invitee, /You are invited/)).text)![1]!;
  const [open] = await members().openInvitations(f.apiId, customerId);
  assert.equal(open!.email, invitee);
  const other = await ownerWithCustomer();
  const foreign = await members().revokeInvitation(as(other.owner, other.customerId, 'owner'), open!.id);
  assert.ok(!foreign.ok && foreign.code === 'not_found', "another customer's invitation is not found");
  assert.ok((await members().revokeInvitation(as(owner, customerId, 'owner'), open!.id)).ok);
  assert.equal(await members().invitation(f.apiId, token), null);
});
