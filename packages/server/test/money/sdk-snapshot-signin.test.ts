// The full snapshot shape's sign-in part (issue 14 item 4): the issuer and resource servers, each
// person's customer, and the id access-token usage is reported under; and the default shape, which
// existing SDKs read, without any of it. Usage naming a customer's token_key_id is billed to it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { createPerson } from '../support/signin.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { createApi, createCustomer, customerDetail, customerIn, getWireSnapshot, postWireUsage, resultFor, usageItem, type ApiFixture } from '../support/money.js';
import { sdkSecretOf } from '../support/portal.js';

let f: IssuerFixture;
let api: ApiFixture;
before(async () => {
  f = await startIssuer('Weather MCP');
  const secret = await sdkSecretOf(f);
  const sdk = f.t.sdkClient();
  sdk.bearer = secret;
  api = { owner: f.owner, apiId: f.apiId, slug: f.slug, secret, sdk };
});
after(() => f.t.close());

/** A person of the API who belongs to a customer, as a portal sign-up leaves them. */
async function member(email = `m-${randomUUID().slice(0, 8)}@people.test`) {
  const person = await createPerson(f.t, f.apiId, { email });
  await f.t.services.customerMembers.joinOnVisit(f.apiId, person);
  const [membership] = await f.t.services.customerMembers.membershipsOf(f.apiId, person.id);
  assert.ok(membership, 'the person got a customer');
  return { person, customerId: membership.customer_id };
}

async function addMembership(customerId: string, personId: string, createdAt: Date) {
  await f.t.services.db.insertInto('customer_members').values({ customer_id: customerId, person_id: personId, api_id: f.apiId, role: 'member', created_at: createdAt }).execute();
}

test('full shape: the issuer, the servers with their permissions, each person once with their customer, and token_key_id', async () => {
  const { person, customerId } = await member();
  const { body } = await getWireSnapshot(f.t, api.secret, { full: true });
  assert.deepEqual(body.signin, {
    issuer: f.issuer,
    servers: [{ resource: f.server.resource, permissions: ['read:weather', 'write:weather'] }],
  });
  assert.deepEqual(body.members.filter((m: { person_id: string }) => m.person_id === person.id), [{ person_id: person.id, customer_id: customerId }]);
  const customer = customerIn(body, customerId);
  assert.match(customer.token_key_id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  // Every customer has its own, and none is any key's id.
  const ids = body.customers.map((c: { token_key_id: string }) => c.token_key_id);
  assert.equal(new Set(ids).size, ids.length);
  for (const key of body.keys) assert.ok(!ids.includes(key.id));
  // Every member names a customer of this snapshot.
  for (const m of body.members) assert.ok(body.customers.some((c: { id: string }) => c.id === m.customer_id));
});

test('default shape: none of it, exactly the wire protocol existing SDKs read', async () => {
  await member();
  const { body } = await getWireSnapshot(f.t, api.secret);
  assert.equal('signin' in body, false);
  assert.equal('members' in body, false);
  for (const customer of body.customers) assert.equal('token_key_id' in customer, false);
});

test('a server without permissions is listed with none; a person of several customers is metered to an active one, else the oldest', async () => {
  const bare = await f.owner.client.post(`/apis/${f.apiId}/signin/servers`, { name: 'Bare', resource_url: 'https://bare.weather.example/mcp' });
  assert.equal(bare.status, 200, bare.text);
  const { person, customerId: first } = await member();
  const second = await createCustomer(f.t, api, 'Second Co');
  await addMembership(second.id, person.id, new Date(f.t.clock.now().getTime() + 1000));
  const membersOf = async () => (await getWireSnapshot(f.t, api.secret, { full: true })).body.members.filter((m: { person_id: string }) => m.person_id === person.id);

  let { body } = await getWireSnapshot(f.t, api.secret, { full: true });
  assert.deepEqual(body.signin.servers.find((s: { resource: string }) => s.resource === 'https://bare.weather.example/mcp'), { resource: 'https://bare.weather.example/mcp', permissions: [] });
  assert.deepEqual(await membersOf(), [{ person_id: person.id, customer_id: first }], 'the oldest membership');

  const suspend = await f.owner.client.patch(`/apis/${f.apiId}/customers/${first}`, { status: 'suspended' });
  assert.equal(suspend.status, 200, suspend.text);
  assert.deepEqual(await membersOf(), [{ person_id: person.id, customer_id: second.id }], 'an active customer before a suspended one');

  const suspendSecond = await f.owner.client.patch(`/apis/${f.apiId}/customers/${second.id}`, { status: 'suspended' });
  assert.equal(suspendSecond.status, 200, suspendSecond.text);
  assert.deepEqual(await membersOf(), [{ person_id: person.id, customer_id: first }], 'none active: the oldest again');
  ({ body } = await getWireSnapshot(f.t, api.secret, { full: true }));
  assert.equal(customerIn(body, first).status, 'suspended');
});

test('a suspended person and a person without a customer are not members', async () => {
  const { person } = await member();
  const loner = await createPerson(f.t, f.apiId);
  const suspended = await f.owner.client.patch(`/apis/${f.apiId}/signin/people/${person.id}`, { status: 'suspended' });
  assert.equal(suspended.status, 200, suspended.text);
  const { body } = await getWireSnapshot(f.t, api.secret, { full: true });
  const people = body.members.map((m: { person_id: string }) => m.person_id);
  assert.ok(!people.includes(person.id), 'suspended');
  assert.ok(!people.includes(loner.id), 'no customer');
});

test('usage under a customer token_key_id counts for that customer, exactly once; another API cannot use it', async () => {
  const { customerId } = await member();
  const { body } = await getWireSnapshot(f.t, api.secret, { full: true });
  const customer = customerIn(body, customerId);
  const before = await customerDetail(api, customerId);
  const item = usageItem(customer.token_key_id, customer.usage_policy_id, 200, 3, f.t.clock.now());
  assert.equal(resultFor(await postWireUsage(f.t, api.secret, [item]), item.idempotency_key).status, 'accepted');
  assert.equal(resultFor(await postWireUsage(f.t, api.secret, [item]), item.idempotency_key).status, 'duplicate');
  const after = await customerDetail(api, customerId);
  assert.equal(after.month_requests, before.month_requests + 3);
  assert.ok(after.balance_micro < before.balance_micro, 'billable usage is charged');

  const other = await createApi(f.t, { name: 'Other API' }, f.owner);
  const foreign = usageItem(customer.token_key_id, null, 200, 1, f.t.clock.now());
  const answer = resultFor(await postWireUsage(f.t, other.secret, [foreign]), foreign.idempotency_key);
  assert.equal(answer.status, 'rejected');
  assert.equal(answer.detail, 'unknown api_key_id');
  assert.equal((await customerDetail(api, customerId)).month_requests, after.month_requests);
});
