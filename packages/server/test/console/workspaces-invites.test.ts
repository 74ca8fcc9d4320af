// Invitations: sending, the mail, InviteInfo, accepting as a new or existing address, single use,
// the 7-day lifetime, revocation and replacement (spec 2.4 InviteInBody, InviteInfo, AcceptInviteInBody).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MINUTE, DAY } from '../../src/platform/clock.js';
import { PASSWORD, signUp, uniqueEmail, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { addMemberOverHttp, createKey, emailOfLength, errorLocations, sendInvite, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let ws: string;
let admin: Member;
let editor: Member;
let viewer: Member;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Ingrid Owner', email: uniqueEmail('ingrid') });
  ws = (await owner.client.post('/workspaces', { name: 'Invite Lab' })).body.id;
  admin = await addMemberOverHttp(t, owner.client, ws, 'admin');
  editor = await addMemberOverHttp(t, owner.client, ws, 'editor');
  viewer = await addMemberOverHttp(t, owner.client, ws, 'viewer');
});
after(() => t.close());

async function openInvites(): Promise<{ id: string; email: string; role: string }[]> {
  const members = await owner.client.get(`/workspaces/${ws}/members`);
  assert.equal(members.status, 200);
  return members.body.invites;
}

test('inviting takes admin or owner; editors and viewers get 403 and no mail is sent', async () => {
  for (const member of [editor, viewer]) {
    const email = uniqueEmail('refused');
    const refused = await member.client.post(`/workspaces/${ws}/invites`, { email, role: 'viewer' });
    assert.equal(refused.status, 403);
    assert.ok(!(await openInvites()).some((i) => i.email === email));
  }
  const email = uniqueEmail('by-admin');
  const { id, mail } = await sendInvite(t, admin.client, ws, email, 'editor');
  assert.match(id, /^inv_/);
  assert.match(mail.text, /Invite Lab/);
  assert.ok((await openInvites()).some((i) => i.id === id && i.email === email && i.role === 'editor'));
  assert.equal(t.mail.received.filter((m) => m.subject.includes('You are invited') && m.to.startsWith('refused')).length, 0);
});

test('the invitation answer and its mail: 7 days, a link to the console with the token', async () => {
  const email = uniqueEmail('Mixed.Case');
  t.mail.take(email);
  const sent = await owner.client.post(`/workspaces/${ws}/invites`, { email: email.toUpperCase(), role: 'viewer' });
  assert.equal(sent.status, 200, sent.text);
  assert.deepEqual(Object.keys(sent.body).sort(), ['created_at', 'email', 'expires_at', 'id', 'role']);
  assert.equal(sent.body.email, email.toLowerCase());
  assert.equal(sent.body.role, 'viewer');
  assert.equal(Date.parse(sent.body.expires_at) - Date.parse(sent.body.created_at), 7 * DAY);

  const mail = await t.mail.waitFor(email, /You are invited to/);
  // The subject is fixed text; the names the sender chose are in the body (issue 26 item 4).
  assert.equal(mail.subject, 'You are invited to a workspace on Gatehouse');
  assert.match(mail.text, /^Ingrid Owner invited you to join the workspace Invite Lab as viewer\./);
  const link = /(https?:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  assert.ok(link, mail.text);
  assert.ok(link.startsWith(`${t.url}/invites/`), link);
  assert.match(mail.text, /viewer/);
});

test('the role is admin, editor or viewer: owner and anything else are 422 naming body.role', async () => {
  for (const role of ['owner', 'superuser', '']) {
    const refused = await owner.client.post(`/workspaces/${ws}/invites`, { email: uniqueEmail('role'), role });
    assert.equal(refused.status, 422, role);
    assert.deepEqual(errorLocations(refused.body), ['body.role']);
  }
  const missing = await owner.client.post(`/workspaces/${ws}/invites`, { email: uniqueEmail('role') });
  assert.equal(missing.status, 422);
  assert.deepEqual(errorLocations(missing.body), ['body.role']);
  for (const role of ['admin', 'editor', 'viewer']) {
    const sent = await owner.client.post(`/workspaces/${ws}/invites`, { email: uniqueEmail('role'), role });
    assert.equal(sent.status, 200, role);
    assert.equal(sent.body.role, role);
  }
});

test('the address is an e-mail of at most 254 characters: 255 and non-addresses are 422', async () => {
  const longest = emailOfLength(254);
  const accepted = await owner.client.post(`/workspaces/${ws}/invites`, { email: longest, role: 'viewer' });
  assert.equal(accepted.status, 200, accepted.text);
  for (const email of [emailOfLength(255), 'not-an-address', '']) {
    const refused = await owner.client.post(`/workspaces/${ws}/invites`, { email, role: 'viewer' });
    assert.equal(refused.status, 422, email);
    assert.deepEqual(errorLocations(refused.body), ['body.email']);
  }
});

test('GET /invites/{token} needs no sign-in, tells whether the address has an account and who sent it', async () => {
  const fresh = uniqueEmail('fresh');
  const { token } = await sendInvite(t, owner.client, ws, fresh, 'editor');
  const info = await t.client().get(`/invites/${token}`);
  assert.equal(info.status, 200, info.text);
  assert.deepEqual(Object.keys(info.body).sort(), ['account_exists', 'email', 'expires_at', 'invited_by', 'role', 'workspace']);
  assert.equal(info.body.workspace, 'Invite Lab');
  assert.equal(info.body.email, fresh);
  assert.equal(info.body.role, 'editor');
  assert.equal(info.body.account_exists, false);
  assert.equal(info.body.invited_by, 'Ingrid Owner', 'the sender, as the mail names them');

  // Sent by a workspace key: the key's name, as its mail says.
  const key = await createKey(t, owner.client, ws, 'admin', 'deploy bot');
  const byKey = await sendInvite(t, key.client, ws, uniqueEmail('by-key'), 'viewer');
  assert.equal((await t.client().get(`/invites/${byKey.token}`)).body.invited_by, 'deploy bot');

  const other = await signUp(t, { name: 'Has Account' });
  const known = await sendInvite(t, owner.client, ws, other.email, 'viewer');
  const knownInfo = await t.client().get(`/invites/${known.token}`);
  assert.equal(knownInfo.status, 200);
  assert.equal(knownInfo.body.account_exists, true);

  assert.equal((await t.client().get('/invites/not-a-real-token')).status, 404);
});

test('a new address accepts with a name and a password and gets a session with that role', async () => {
  const email = uniqueEmail('newcomer');
  const { token } = await sendInvite(t, owner.client, ws, email, 'editor');
  const client = t.client();

  const empty = await client.post(`/invites/${token}/accept`, {});
  assert.equal(empty.status, 422);
  assert.deepEqual(errorLocations(empty.body).sort(), ['body.name', 'body.password']);
  const noPassword = await client.post(`/invites/${token}/accept`, { name: 'Newcomer' });
  assert.equal(noPassword.status, 422);
  assert.deepEqual(errorLocations(noPassword.body), ['body.password']);
  const blankName = await client.post(`/invites/${token}/accept`, { name: '   ', password: PASSWORD });
  assert.equal(blankName.status, 422);
  assert.deepEqual(errorLocations(blankName.body), ['body.name']);
  // Passwords are 10..72 characters, names at most 100 (spec 2.4, 5.1).
  for (const [body, location] of [
    [{ name: 'Newcomer', password: 'p'.repeat(9) }, 'body.password'],
    [{ name: 'Newcomer', password: 'p'.repeat(73) }, 'body.password'],
    [{ name: 'n'.repeat(101), password: PASSWORD }, 'body.name'],
  ] as const) {
    const refused = await client.post(`/invites/${token}/accept`, body);
    assert.equal(refused.status, 422, JSON.stringify(body));
    assert.deepEqual(errorLocations(refused.body), [location]);
  }
  assert.equal(client.cookies.size, 0);
  // Refused attempts do not use the invitation up.
  assert.equal((await client.get(`/invites/${token}`)).status, 200);

  const accepted = await client.post(`/invites/${token}/accept`, { name: 'n'.repeat(100), password: 'p'.repeat(10) });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.body.user.email, email);
  assert.equal(accepted.body.user.name, 'n'.repeat(100));
  assert.equal(accepted.body.workspace_id, ws);
  const cookie = accepted.headers.getSetCookie().find((c) => c.startsWith('gh_session='));
  assert.ok(cookie, 'a session cookie is set');
  assert.match(cookie, /HttpOnly/i);
  assert.match(cookie, /SameSite=Lax/i);

  const me = await client.get('/me');
  assert.equal(me.status, 200);
  assert.deepEqual(me.body.workspaces.map((w: { id: string; role: string }) => [w.id, w.role]), [[ws, 'editor']]);
  const members = (await owner.client.get(`/workspaces/${ws}/members`)).body;
  const joined = members.members.find((m: { email: string }) => m.email === email);
  assert.equal(joined.role, 'editor');
  assert.equal(joined.user_id, accepted.body.user.id);
  assert.ok(!members.invites.some((i: { email: string }) => i.email === email));

  // The password set here is the account's password.
  const login = await t.client().post('/auth/login', { email, password: 'p'.repeat(10) });
  assert.equal(login.status, 200);
});

test('a name counts code points, as every console field: 100 emoji pass, 101 are 422', async () => {
  const email = uniqueEmail('emoji');
  const { token } = await sendInvite(t, owner.client, ws, email, 'viewer');
  const refused = await t.client().post(`/invites/${token}/accept`, { name: '\u{1F600}'.repeat(101), password: PASSWORD });
  assert.equal(refused.status, 422);
  assert.deepEqual(errorLocations(refused.body), ['body.name']);
  const longest = '\u{1F600}'.repeat(50) + 'n'.repeat(50);
  const accepted = await t.client().post(`/invites/${token}/accept`, { name: longest, password: PASSWORD });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.body.user.name, longest);
});

test('a password of 72 characters is the longest a new address may set', async () => {
  const email = uniqueEmail('longpass');
  const { token } = await sendInvite(t, owner.client, ws, email, 'viewer');
  const accepted = await t.client().post(`/invites/${token}/accept`, { name: 'Long Pass', password: 'q'.repeat(72) });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal((await t.client().post('/auth/login', { email, password: 'q'.repeat(72) })).status, 200);
});

test('an address with an account must be signed in as it: 409 otherwise, 200 when signed in', async () => {
  // An account made by joining another workspace.
  const elsewhere = (await owner.client.post('/workspaces', { name: 'Elsewhere' })).body.id;
  const person = await addMemberOverHttp(t, owner.client, elsewhere, 'viewer', 'existing');
  const { token } = await sendInvite(t, owner.client, ws, person.email, 'admin');

  const anonymous = await t.client().post(`/invites/${token}/accept`, { name: 'Impostor', password: PASSWORD });
  assert.equal(anonymous.status, 409);
  const someoneElse = await admin.client.post(`/invites/${token}/accept`, {});
  assert.equal(someoneElse.status, 409);
  const key = await createKey(t, owner.client, ws, 'admin');
  assert.equal((await key.client.post(`/invites/${token}/accept`, {})).status, 409);
  assert.equal((await t.client().get(`/invites/${token}`)).status, 200, 'refusals leave the invitation open');

  const accepted = await person.client.post(`/invites/${token}/accept`, {});
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.body.user.id, person.userId);
  assert.equal(accepted.body.workspace_id, ws);
  assert.equal(accepted.headers.getSetCookie().length, 0, 'the existing session is kept');
  const roles = Object.fromEntries((await person.client.get('/me')).body.workspaces.map((w: { id: string; role: string }) => [w.id, w.role]));
  assert.deepEqual(roles, { [elsewhere]: 'viewer', [ws]: 'admin' });
});

test('an invitation works once', async () => {
  const email = uniqueEmail('once');
  const { token } = await sendInvite(t, owner.client, ws, email, 'viewer');
  const first = await t.client().post(`/invites/${token}/accept`, { name: 'Once', password: PASSWORD });
  assert.equal(first.status, 200);
  const again = await t.client().post(`/invites/${token}/accept`, { name: 'Twice', password: PASSWORD });
  assert.equal(again.status, 404);
  assert.equal((await t.client().get(`/invites/${token}`)).status, 404);
});

test('an invitation lasts 7 days: a minute before it still works, a minute after it is 404', async () => {
  const early = await sendInvite(t, owner.client, ws, uniqueEmail('early'), 'viewer');
  const late = await sendInvite(t, owner.client, ws, uniqueEmail('late'), 'viewer');
  t.clock.advance(7 * DAY - MINUTE);
  assert.equal((await t.client().get(`/invites/${early.token}`)).status, 200);
  assert.equal((await t.client().get(`/invites/${late.token}`)).status, 200);
  const acceptedInTime = await t.client().post(`/invites/${early.token}/accept`, { name: 'Early', password: PASSWORD });
  assert.equal(acceptedInTime.status, 200);

  t.clock.advance(2 * MINUTE);
  assert.equal((await t.client().get(`/invites/${late.token}`)).status, 404);
  assert.equal((await t.client().post(`/invites/${late.token}/accept`, { name: 'Late', password: PASSWORD })).status, 404);
  assert.ok(!(await openInvites()).some((i) => i.id === late.id), 'an expired invitation is no longer listed');
});

test('revoking takes admin or owner and makes the invitation 404', async () => {
  const invite = await sendInvite(t, owner.client, ws, uniqueEmail('revoked'), 'editor');
  for (const member of [editor, viewer]) {
    assert.equal((await member.client.delete(`/workspaces/${ws}/invites/${invite.id}`)).status, 403);
  }
  assert.equal((await t.client().get(`/invites/${invite.token}`)).status, 200);

  const revoked = await admin.client.delete(`/workspaces/${ws}/invites/${invite.id}`);
  assert.equal(revoked.status, 204);
  assert.equal((await t.client().get(`/invites/${invite.token}`)).status, 404);
  assert.equal((await t.client().post(`/invites/${invite.token}/accept`, { name: 'Gone', password: PASSWORD })).status, 404);
  assert.ok(!(await openInvites()).some((i) => i.id === invite.id));
  assert.equal((await admin.client.delete(`/workspaces/${ws}/invites/${invite.id}`)).status, 404, 'revoked already');
  assert.equal((await admin.client.delete(`/workspaces/${ws}/invites/inv_unknown00000000000`)).status, 404);
});

test('an invitation cannot be revoked through another workspace', async () => {
  const invite = await sendInvite(t, owner.client, ws, uniqueEmail('cross'), 'viewer');
  const stranger = await signUp(t, { name: 'Stranger' });
  const across = await stranger.client.delete(`/workspaces/${stranger.workspaceId}/invites/${invite.id}`);
  assert.equal(across.status, 404);
  assert.equal((await stranger.client.delete(`/workspaces/${ws}/invites/${invite.id}`)).status, 404);
  assert.equal((await t.client().get(`/invites/${invite.token}`)).status, 200);
});

test('inviting the same address again replaces the open invitation', async () => {
  const email = uniqueEmail('again');
  const first = await sendInvite(t, owner.client, ws, email, 'viewer');
  const second = await sendInvite(t, owner.client, ws, email, 'editor');
  assert.notEqual(first.token, second.token);

  assert.equal((await t.client().get(`/invites/${first.token}`)).status, 404);
  assert.equal((await t.client().post(`/invites/${first.token}/accept`, { name: 'Old', password: PASSWORD })).status, 404);
  assert.deepEqual((await openInvites()).filter((i) => i.email === email).map((i) => [i.id, i.role]), [[second.id, 'editor']]);

  const accepted = await t.client().post(`/invites/${second.token}/accept`, { name: 'New', password: PASSWORD });
  assert.equal(accepted.status, 200);
  const joined = (await owner.client.get(`/workspaces/${ws}/members`)).body.members.find((m: { email: string }) => m.email === email);
  assert.equal(joined.role, 'editor');
});

test('inviting a current member is 409, whatever the case of the address; a former member can be invited', async () => {
  for (const email of [viewer.email, viewer.email.toUpperCase(), owner.email]) {
    const refused = await admin.client.post(`/workspaces/${ws}/invites`, { email, role: 'viewer' });
    assert.equal(refused.status, 409, email);
  }
  const leaver = await addMemberOverHttp(t, owner.client, ws, 'viewer', 'leaver');
  assert.equal((await leaver.client.delete(`/workspaces/${ws}/members/${leaver.userId}`)).status, 204);
  const back = await sendInvite(t, admin.client, ws, leaver.email, 'editor');
  assert.equal((await leaver.client.post(`/invites/${back.token}/accept`, {})).status, 200);
});
