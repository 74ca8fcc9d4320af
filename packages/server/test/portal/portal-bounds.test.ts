// What a customer makes on the portal is bounded (issue 26 item 5): 50 working keys per customer
// (a clear page past it; revoking one makes room), and 10 checkouts per customer per hour (top-ups,
// plan subscriptions and saving a card together; a 429 page past it). Each bound on both sides.
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { after, before, test } from 'node:test';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { connectDevPayments, customerOwner } from '../support/portal-payments.js';
import type { TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Bounded API');
  const set = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open', payg_enabled: true, topup_amounts_cents: [1000], min_topup_cents: 500, auto_recharge_allowed: true });
  assert.equal(set.status, 200, set.text);
  await connectDevPayments(f);
});
after(() => f.t.close());

const view = () => f.t.services.customerPortalView;
const csrfOf = (browser: TenantBrowser) => browser.cookies.get('gh_csrf')!;
const activeKeys = async (customerId: string) =>
  Number((await sql<{ n: string }>`select count(*)::text as n from customer_keys where customer_id = ${customerId} and revoked_at is null`.execute(f.t.services.db)).rows[0]!.n);
const checkouts = async (customerId: string) =>
  Number((await sql<{ n: string }>`select count(*)::text as n from payment_checkouts where customer_id = ${customerId}`.execute(f.t.services.db)).rows[0]!.n);

async function apiRow() {
  return (await f.t.services.apis.findById(f.t.services.db, f.apiId))!;
}

test('50 working keys per customer: the 50th is made, the 51st is a clear page, a revoked one makes room', async () => {
  const o = await customerOwner(f, 'Kim Keys');
  const actor = { apiId: f.apiId, customerId: o.customerId, person: { id: o.person.id, email: o.person.email, name: o.person.name }, role: 'owner' as const, ip: '192.0.2.1' };
  const api = await apiRow();
  for (let i = 1; i <= 47; i++) assert.ok((await view().createKey(api, actor, `key ${i}`)).ok, `key ${i}`);
  expectPage(await o.browser.request('POST', '/keys', { csrf: csrfOf(o.browser), name: 'the 48th' }), /^Your new key: the 48th$/);
  // Three at once with room for two: the lock makes them take turns, and the bound holds.
  const racing = await Promise.all([1, 2, 3].map((i) => view().createKey(api, actor, `racing ${i}`)));
  assert.deepEqual(racing.map((r) => (r.ok ? 'made' : r.code)).sort(), ['customer_key_limit', 'made', 'made']);
  assert.equal(await activeKeys(o.customerId), 50, 'at the bound');

  const refused = await o.browser.request('POST', '/keys', { csrf: csrfOf(o.browser), name: 'the 51st' });
  expectPage(refused, /^API keys$/, 409);
  assert.match(refused.html, /has 50 working keys, as many as the portal makes \(50\)\. Revoke a key you no longer use to make another\./);
  assert.equal(await activeKeys(o.customerId), 50, 'the refusal made nothing');

  const someKey = (await view().keys(actor))[0]!;
  assert.ok((await view().revokeKey(api, actor, someKey.id)).ok);
  expectPage(await o.browser.request('POST', '/keys', { csrf: csrfOf(o.browser), name: 'the 50th' }), /^Your new key: the 50th$/, 200);
  assert.equal(await activeKeys(o.customerId), 50, 'a revoked key made room for the 50th');

  const other = await customerOwner(f, 'Other Keys');
  expectPage(await other.browser.request('POST', '/keys', { csrf: csrfOf(other.browser), name: 'elsewhere' }), /^Your new key: elsewhere$/);
});

test('10 checkouts per customer an hour, top-ups and card setups together; the 11th is a 429 page and asks nothing of the provider', async () => {
  const o = await customerOwner(f, 'Chris Checkouts');
  const topUp = () => o.browser.request('POST', '/billing/topup', { csrf: csrfOf(o.browser), amount_cents: '1000' });
  for (let i = 1; i <= 9; i++) assert.equal((await topUp()).status, 303, `top-up checkout ${i}`);
  // A refused amount is refused before any checkout is spent.
  assert.equal((await o.browser.request('POST', '/billing/topup', { csrf: csrfOf(o.browser), amount_cents: '1' })).status, 400);
  assert.equal((await o.browser.request('POST', '/billing/card', { csrf: csrfOf(o.browser) })).status, 303, 'the 10th: saving a card');
  assert.equal(await checkouts(o.customerId), 10);

  for (const [what, send] of [['a top-up', topUp], ['a card', () => o.browser.request('POST', '/billing/card', { csrf: csrfOf(o.browser) })]] as const) {
    const refused = await send();
    expectPage(refused, /^Billing$/, 429);
    assert.match(refused.html, /Too many checkouts started in the last hour \(10 at most\)\. Try again in \d+ minutes?\./, what);
  }
  assert.equal(await checkouts(o.customerId), 10, 'no checkout was opened past the bound');

  const other = await customerOwner(f, 'Other Checkouts');
  assert.equal((await other.browser.request('POST', '/billing/topup', { csrf: csrfOf(other.browser), amount_cents: '1000' })).status, 303, 'another customer has its own 10');
});
