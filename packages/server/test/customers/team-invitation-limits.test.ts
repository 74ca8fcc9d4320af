// A customer's invitations have an allowance of their own (issue 26 item 4): 10 an hour per
// customer and per person, 100 an hour for all the customers of one API together, never the
// owner's 30 for the API; the subject of every invitation is fixed text.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CustomerRole } from '../../src/customers/tables.js';
import type { PersonRef } from '../../src/customers/members.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { freshEmail } from '../support/pages.js';
import { createPerson } from '../support/signin.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Allowance API');
  await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' });
});
after(() => f.t.close());

const members = () => f.t.services.customerMembers;
const as = (who: PersonRef, customerId: string, role: CustomerRole) => ({ apiId: f.apiId, customerId, person: who, role, ip: '192.0.2.1' });

async function person(label: string): Promise<PersonRef> {
  const row = await createPerson(f.t, f.apiId, { email: freshEmail(label), name: `${label} Person` });
  return { id: row.id, email: row.email, name: row.name };
}

/** A person who signed up on the open portal, with the customer it made for them. */
async function signedUpCustomer(label: string) {
  const owner = await person(label);
  await members().joinOnVisit(f.apiId, owner);
  const [membership] = await members().membershipsOf(f.apiId, owner.id);
  return { owner, customerId: membership!.customer_id, actor: as(owner, membership!.customer_id, 'owner') };
}

const invite = (actor: ReturnType<typeof as>, label = 'teammate') => members().invite(actor, freshEmail(label), 'member');
const invitationRows = async () => Number((await f.t.services.db.selectFrom('customer_invites').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

async function assertRefused(actor: ReturnType<typeof as>, what: string) {
  const before = await invitationRows();
  const refused = await invite(actor, 'refused');
  assert.ok(!refused.ok && refused.code === 'rate_limited', `${what}: ${JSON.stringify(refused)}`);
  assert.equal(await invitationRows(), before, `${what} wrote nothing`);
}

test("10 teammate invitations per customer an hour, and none of them spends the owner's allowance", async () => {
  const { actor } = await signedUpCustomer('spender');
  for (let i = 1; i <= 10; i++) {
    const sent = await invite(actor);
    assert.ok(sent.ok, `invitation ${i}: ${JSON.stringify(sent)}`);
  }
  await assertRefused(actor, 'the 11th of the customer');

  // Before, the customer's 10 came out of the owner's 30 for the API: the owner's 21st was refused.
  for (let i = 1; i <= 30; i++) {
    const sent = await f.owner.client.post(`/apis/${f.apiId}/customers/invite`, { email: freshEmail(`owner${i}`) });
    assert.equal(sent.status, 200, `the owner's invitation ${i}: ${sent.text}`);
  }
  const ownerOver = await f.owner.client.post(`/apis/${f.apiId}/customers/invite`, { email: freshEmail('owner31') });
  assert.equal(ownerOver.status, 429, "the owner's 31st: their own allowance, whole until now");
});

test('10 per person an hour over every customer they invite for', async () => {
  const { owner, actor: own } = await signedUpCustomer('two-hats');
  const other = await signedUpCustomer('host');
  // The person becomes an admin of a second customer.
  f.t.mail.take(owner.email);
  assert.ok((await members().invite(other.actor, owner.email, 'admin')).ok);
  const token = /\/invites\/([A-Za-z0-9_-]+)/.exec((await f.t.mail.waitFor(owner.email, /You are invited to join a team/)).text)![1]!;
  assert.ok((await members().acceptByToken(f.apiId, token, owner)).ok);
  const asAdmin = as(owner, other.customerId, 'admin');

  for (let i = 1; i <= 6; i++) assert.ok((await invite(own)).ok, `own customer ${i}`);
  for (let i = 7; i <= 10; i++) assert.ok((await invite(asAdmin)).ok, `second customer ${i}`);
  // The second customer has spent 5 of its 10 (its owner's one and these 4): the person's 10 refuse.
  await assertRefused(asAdmin, "the person's 11th, for the second customer");
  await assertRefused(own, "the person's 11th, for their own");
  assert.ok((await invite(other.actor)).ok, "the second customer's owner still has the customer's allowance");
});

test("100 an hour for every customer of the API together; the subject carries no sender's text", async () => {
  // The earlier tests spent 10, then 1 + 6 + 4 + 1, of the API's 100 from portals (refusals spend nothing).
  let spent = 22;
  while (spent < 100) {
    const { actor } = await signedUpCustomer(`crowd${spent}`);
    const batch = Math.min(10, 100 - spent);
    for (let i = 0; i < batch; i++) assert.ok((await invite(actor)).ok, `the API's portal invitation ${spent + i + 1}`);
    spent += batch;
  }
  const late = await signedUpCustomer('late');
  await assertRefused(late.actor, "the API's 101st from its portals, by a customer that sent none");

  const named = await person('URGENT your account is locked call 555 0100');
  await members().joinOnVisit(f.apiId, named);
  const elsewhere = await startIssuer('Other API');
  try {
    const row = await createPerson(elsewhere.t, elsewhere.apiId, { email: freshEmail('x'), name: 'URGENT call 555 0100' });
    await elsewhere.t.services.customerMembers.joinOnVisit(elsewhere.apiId, { id: row.id, email: row.email, name: row.name });
    const [membership] = await elsewhere.t.services.customerMembers.membershipsOf(elsewhere.apiId, row.id);
    const to = freshEmail('target');
    const sent = await elsewhere.t.services.customerMembers.invite({ apiId: elsewhere.apiId, customerId: membership!.customer_id, person: { id: row.id, email: row.email, name: '<b>URGENT</b> call 555 0100' }, role: 'owner', ip: '192.0.2.9' }, to, 'member');
    assert.ok(sent.ok);
    const mail = await elsewhere.t.mail.waitFor(to, /./);
    assert.equal(mail.subject, 'You are invited to join a team');
    assert.match(mail.text, /^<b>URGENT<\/b> call 555 0100 invited you to join URGENT call 555 0100 on Other API as member\./);
    assert.ok(mail.html.includes('&lt;b&gt;URGENT&lt;/b&gt; call 555 0100 invited you'), 'the name is escaped in the HTML part');
  } finally {
    await elsewhere.t.close();
  }
});
