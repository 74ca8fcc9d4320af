// People become customers (issue 12 item 1, DESIGN 8): signing up on an API's pages makes or
// joins a customer per signup_mode (open, approval, invite); owner invitations, customers added
// by hand, the console's approval and refusal with their mails, and invitations resent and revoked.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { findPersonByEmail } from '../../src/issuer/people/queries.js';
import { webRequest, startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage, followLink, freshEmail, signUpWithCode } from '../support/pages.js';
import { createPerson } from '../support/signin.js';
import { TenantBrowser } from '../support/tenant-client.js';
import { addMember } from '../support/workspaces.js';

let f: IssuerFixture;
before(async () => (f = await startIssuer('Members API')));
after(() => f.t.close());

const consoleOf = () => f.owner.client;

async function setMode(mode: 'open' | 'approval' | 'invite') {
  const answer = await consoleOf().patch(`/apis/${f.apiId}`, { signup_mode: mode });
  assert.equal(answer.status, 200, answer.text);
}

/** Signs up through the sign-in pages during the web app's authorization; answers the page it ends on. */
async function signUp(email: string, name = 'Sam Newcomer') {
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const signupPage = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  return signUpWithCode(f, browser, signupPage, email, name);
}

async function customersOf(email: string) {
  const list = await consoleOf().get(`/apis/${f.apiId}/customers?q=${encodeURIComponent(email)}`);
  assert.equal(list.status, 200, list.text);
  return list.body.customers as { id: string; status: string; email: string; balance_micro: number }[];
}

async function detail(customerId: string) {
  const answer = await consoleOf().get(`/apis/${f.apiId}/customers/${customerId}`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
}

test('open: a sign-up makes an active customer with welcome credit and the person as its owner', async () => {
  await setMode('open');
  const email = freshEmail('open');
  await signUp(email, 'Olive Open');
  const [customer] = await customersOf(email);
  assert.ok(customer, 'a customer was made');
  assert.equal(customer.status, 'active');
  const body = await detail(customer.id);
  assert.equal(body.name, 'Olive Open');
  assert.equal(body.balance_micro, 1_000_000, 'the payg preset welcome credit');
  const person = await findPersonByEmail(f.t.services.db, f.apiId, email);
  assert.deepEqual(body.members.map((m: { id: string; email: string; role: string }) => [m.id, m.email, m.role]), [[person!.id, email, 'owner']]);
  const audit = await consoleOf().get(`/workspaces/${f.owner.workspaceId}/audit?api_id=${f.apiId}`);
  assert.ok(audit.body.events.some((e: { action: string; actor_type: string; customer_id?: string }) => e.action === 'customer.signup' && e.actor_type === 'person' && e.customer_id === customer.id));
});

test('approval: a sign-up waits as a pending customer; approving and refusing each mail the person', async () => {
  await setMode('approval');
  const [first, second] = [freshEmail('approve'), freshEmail('refuse')];
  await signUp(first);
  await signUp(second);
  const [waiting] = await customersOf(first);
  assert.equal(waiting!.status, 'pending');
  const pending = await consoleOf().get(`/apis/${f.apiId}/customers?status=pending`);
  assert.ok(pending.body.customers.some((c: { id: string }) => c.id === waiting!.id), 'the pending filter shows sign-ups waiting');

  f.t.mail.take(first);
  const approved = await consoleOf().patch(`/apis/${f.apiId}/customers/${waiting!.id}`, { status: 'active' });
  assert.equal(approved.status, 200, approved.text);
  const approvalMail = await f.t.mail.waitFor(first, /is approved/);
  assert.ok(approvalMail.text.includes(f.issuer), 'the mail links to the portal');

  const [refused] = await customersOf(second);
  f.t.mail.take(second);
  const refusal = await consoleOf().patch(`/apis/${f.apiId}/customers/${refused!.id}`, { status: 'suspended' });
  assert.equal(refusal.status, 200, refusal.text);
  await f.t.mail.waitFor(second, /was declined/);
  const audit = await consoleOf().get(`/workspaces/${f.owner.workspaceId}/audit?api_id=${f.apiId}`);
  const actions = audit.body.events.map((e: { action: string }) => e.action);
  assert.ok(actions.includes('customer.approve') && actions.includes('customer.refuse'));
});

test('invite: only invited addresses may sign up, and the owner invitation makes them a customer', async () => {
  await setMode('invite');
  const stranger = freshEmail('stranger');
  f.t.mail.take(stranger);
  // The first step already refuses: no code is mailed, the page says why.
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const signupPage = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  const page = await browser.submit(signupPage, 'signup-send', { email: stranger });
  assert.equal(page.status, 403);
  assert.match(page.html, /Sign-up is by invitation/);
  assert.equal(f.t.mail.received.filter((m) => m.to === stranger).length, 0, 'no code for a stranger');
  assert.equal((await customersOf(stranger)).length, 0);

  const invited = freshEmail('invited');
  f.t.mail.take(invited);
  assert.equal((await consoleOf().post(`/apis/${f.apiId}/customers/invite`, { email: invited })).status, 200);
  const mail = await f.t.mail.waitFor(invited, /You are invited to become a customer/);
  assert.match(mail.text, new RegExp(`${f.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/invites/[A-Za-z0-9_-]{20,}`), 'the link lands on the portal with a token');
  await signUp(invited, 'Ivy Invited');
  const [customer] = await customersOf(invited);
  assert.equal(customer!.status, 'active', 'an invited address is a customer whatever the mode');
  assert.equal((await detail(customer!.id)).members[0].role, 'owner');
  // The invitation is used: it no longer shows among the open ones.
  const open = await consoleOf().get(`/apis/${f.apiId}/customers/invites`);
  assert.ok(!open.body.invites.some((i: { email: string }) => i.email === invited));
});

test('a customer added by hand is joined by the person who signs up with its address, in any mode', async () => {
  await setMode('invite');
  const email = freshEmail('byhand');
  const added = await consoleOf().post(`/apis/${f.apiId}/customers`, { name: 'Hand Made Ltd', email });
  assert.equal(added.status, 200, added.text);
  assert.deepEqual(added.body.members, []);
  await signUp(email);
  const customers = await customersOf(email);
  assert.deepEqual(customers.map((c) => c.id), [added.body.id], 'joined, not a second customer');
  const body = await detail(added.body.id);
  assert.equal(body.name, 'Hand Made Ltd');
  assert.deepEqual(body.members.map((m: { email: string; role: string }) => [m.email, m.role]), [[email, 'owner']]);
});

test('invitations to become a customer: listed, resent with a new link, revoked', async () => {
  await setMode('invite');
  const email = freshEmail('resend');
  f.t.mail.take(email);
  await consoleOf().post(`/apis/${f.apiId}/customers/invite`, { email });
  const firstLink = /\/invites\/([A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(email, /invited/)).text)![1]!;
  const listed = await consoleOf().get(`/apis/${f.apiId}/customers/invites`);
  const invite = listed.body.invites.find((i: { email: string }) => i.email === email);
  assert.ok(invite, listed.text);
  assert.ok(Date.parse(invite.expires_at) - Date.parse(invite.created_at) === 7 * 24 * 3600 * 1000);

  f.t.mail.take(email);
  const resent = await consoleOf().post(`/apis/${f.apiId}/customers/invites/${invite.id}/resend`);
  assert.equal(resent.status, 200, resent.text);
  const secondLink = /\/invites\/([A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(email, /invited/)).text)![1]!;
  assert.notEqual(secondLink, firstLink);
  assert.equal(await f.t.services.customerMembers.invitation(f.apiId, firstLink), null, 'the old link stops working');
  assert.equal((await f.t.services.customerMembers.invitation(f.apiId, secondLink))?.email, email);

  const current = (await consoleOf().get(`/apis/${f.apiId}/customers/invites`)).body.invites.find((i: { email: string }) => i.email === email);
  assert.equal((await consoleOf().delete(`/apis/${f.apiId}/customers/invites/${current.id}`)).status, 204);
  assert.equal(await f.t.services.customerMembers.invitation(f.apiId, secondLink), null, 'a revoked link stops working');
  assert.equal((await consoleOf().delete(`/apis/${f.apiId}/customers/invites/${current.id}`)).status, 404);
  assert.equal(await f.t.services.customerMembers.mayStart(f.apiId, email), false, 'revoked: sign-up by invitation is closed to it again');
  // Viewers read, editors change: the console's roles apply.
  const viewer = await addMember(f.t, consoleOf(), f.owner.workspaceId, 'viewer');
  assert.equal((await viewer.client.get(`/apis/${f.apiId}/customers/invites`)).status, 200);
  assert.equal((await viewer.client.post(`/apis/${f.apiId}/customers/invites/${current.id}/resend`)).status, 403);
});

test('a person without a customer gets one on their first visit, once, even twice at once', async () => {
  await setMode('open');
  const person = await createPerson(f.t, f.apiId, { email: freshEmail('visitor'), name: 'Vic Visitor' });
  const members = f.t.services.customerMembers;
  await Promise.all([members.joinOnVisit(f.apiId, person), members.joinOnVisit(f.apiId, person)]);
  const memberships = await members.membershipsOf(f.apiId, person.id);
  assert.equal(memberships.length, 1);
  assert.equal(memberships[0]!.role, 'owner');
  assert.equal(memberships[0]!.status, 'active');
});
