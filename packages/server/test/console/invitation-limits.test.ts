// Invitation mails are rate-limited (issue 11 item 6): 50 per workspace, 30 customer invitations
// per API and 5 per recipient address, each per hour; a refused invitation changes nothing and
// spends nothing of the other limits.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestClient } from '../support/client.js';
import { signUp, uniqueEmail, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi } from '../support/money.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

const inviteMember = (client: TestClient, workspaceId: string, email: string) => client.post(`/workspaces/${workspaceId}/invites`, { email, role: 'viewer' });
const inviteCustomer = (client: TestClient, apiId: string, email: string) => client.post(`/apis/${apiId}/customers/invite`, { email });

/** Rows an invitation writes: the invitation, its mail, its audit event. */
async function rowCounts() {
  const count = async (table: 'invites' | 'customer_invites' | 'mail_outbox' | 'audit_events') =>
    Number((await t.services.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { invites: await count('invites'), customerInvites: await count('customer_invites'), mails: await count('mail_outbox'), audit: await count('audit_events') };
}

/** Asserts the answer is the rate-limit problem and that it wrote nothing. */
async function assertRefused(send: () => Promise<{ status: number; body: any; headers: Headers }>, what: string) {
  const before = await rowCounts();
  const answer = await send();
  assert.equal(answer.status, 429, what);
  assert.equal(answer.body.type, 'urn:gatehouse:problem:rate_limited', what);
  const retryAfter = Number(answer.headers.get('retry-after'));
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600, `${what}: Retry-After ${retryAfter}`);
  assert.deepEqual(await rowCounts(), before, `${what} wrote nothing`);
}

async function assertSent(answer: Promise<{ status: number; text: string }>, what: string) {
  const sent = await answer;
  assert.equal(sent.status, 200, `${what}: ${sent.text}`);
}

test('30 customer invitations per API and 50 invitations per workspace; a refusal spends nothing', async () => {
  const owner: SignedUp = await signUp(t);
  const [x, y] = [await createApi(t, { name: 'X API' }, owner), await createApi(t, { name: 'Y API' }, owner)];
  for (let i = 1; i <= 30; i++) await assertSent(inviteCustomer(owner.client, x.apiId, uniqueEmail(`x${i}`)), `customer invitation ${i} of X`);
  for (let i = 0; i < 3; i++) await assertRefused(() => inviteCustomer(owner.client, x.apiId, uniqueEmail('x31')), 'the 31st customer invitation of X');

  // X's refusals spent nothing of the workspace: 30 + 1 (Y) + 19 members make its 50.
  await assertSent(inviteCustomer(owner.client, y.apiId, uniqueEmail('y1')), 'Y has its own allowance');
  for (let i = 1; i <= 19; i++) await assertSent(inviteMember(owner.client, owner.workspaceId, uniqueEmail(`m${i}`)), `member invitation ${i}`);
  await assertRefused(() => inviteMember(owner.client, owner.workspaceId, uniqueEmail('m20')), 'the workspace\'s 51st invitation (a member)');
  await assertRefused(() => inviteCustomer(owner.client, y.apiId, uniqueEmail('y2')), 'the workspace\'s 51st invitation (a customer of Y)');

  const other = await signUp(t);
  await assertSent(inviteMember(other.client, other.workspaceId, uniqueEmail('elsewhere')), 'another workspace');
});

test('5 invitations per recipient address per hour, of either kind and from any workspace', async () => {
  const [first, second] = [await signUp(t), await signUp(t)];
  const api = await createApi(t, { name: 'Recipient API' }, first);
  const recipient = uniqueEmail('recipient');
  for (let i = 1; i <= 3; i++) await assertSent(inviteMember(first.client, first.workspaceId, recipient), `member invitation ${i}`);
  for (let i = 4; i <= 5; i++) await assertSent(inviteCustomer(first.client, api.apiId, recipient.toUpperCase()), `customer invitation ${i}`);
  await assertRefused(() => inviteCustomer(first.client, api.apiId, recipient), 'a 6th, as a customer');
  await assertRefused(() => inviteMember(first.client, first.workspaceId, recipient), 'a 6th, as a member');
  await assertRefused(() => inviteMember(second.client, second.workspaceId, recipient), 'a 6th, from another workspace');
  await assertSent(inviteMember(second.client, second.workspaceId, uniqueEmail('someone-else')), 'another address');
});

test('a caller without the role is refused before any allowance is spent', async () => {
  const owner = await signUp(t);
  const stranger = await signUp(t);
  const recipient = uniqueEmail('guarded');
  for (let i = 0; i < 6; i++) assert.equal((await inviteMember(stranger.client, owner.workspaceId, recipient)).status, 404);
  await assertSent(inviteMember(owner.client, owner.workspaceId, recipient), 'the owner\'s invitation');
});
