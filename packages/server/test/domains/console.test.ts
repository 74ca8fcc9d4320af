// The console's custom domain routes (issue 17; spec 2.1 DomainInBody, DomainOut): the plan
// gate on both sides, the name's bounds and rules, a domain another API serves, setting the same
// name again or another, removing it, checking without one, the rate of checks, roles and audit.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MANUAL_CHECK_LIMIT } from '../../src/domains/service.js';
import { activateDomain, putOnPlan, startDns, type TestDns } from '../support/domains.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createApi, startWithApi, type ApiFixture } from '../support/money.js';
import type { SignedUp } from '../support/flows.js';
import type { Member } from '../support/workspaces.js';

let t: TestApp;
let dns: TestDns;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  dns = await startDns();
  ({ t, owner, api, editor, viewer } = await startWithApi('Dora Owner', { name: 'Domains API' }, { DNS_SERVERS: dns.address }));
  await putOnPlan(t, api.apiId, 'starter');
});
after(async () => {
  await t.close();
  await dns.close();
});

const DOMAIN_OUT = ['allowed', 'cname_target', 'checked_at', 'domain', 'error', 'status', 'txt_name', 'txt_value'];
const put = (domain: unknown, on = api, client = owner.client) => client.put(`/apis/${on.apiId}/domain`, { domain });

/** A host name of exactly `length` characters: labels of 63 joined by dots, ending in `.example`. */
function nameOfLength(length: number): string {
  const tail = '.example';
  let body = '';
  while (body.length < length - tail.length) {
    const room = length - tail.length - body.length - (body ? 1 : 0);
    body += (body ? '.' : '') + 'a'.repeat(Math.min(63, room));
  }
  return body + tail;
}

test('an API without a domain: status none with the CNAME target, allowed by its plan; free APIs are refused with 402', async () => {
  const free = await createApi(t, { name: 'Free API' }, owner);
  const none = await viewer.client.get(`/apis/${free.apiId}/domain`);
  assert.equal(none.status, 200, none.text);
  assert.deepEqual(none.body, { status: 'none', cname_target: 'domains.localhost', allowed: false });
  const apiOut = await viewer.client.get(`/apis/${free.apiId}`);
  assert.deepEqual(apiOut.body.domain, none.body);

  // The plan gate, on both sides: free has no custom domains, starter has.
  const refused = await put('login.free-api.example', free);
  assert.equal(refused.status, 402, refused.text);
  assert.match(refused.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.equal(refused.body.status, 402);
  assert.equal((await owner.client.post(`/apis/${free.apiId}/domain/check`)).status, 402);
  await putOnPlan(t, free.apiId, 'starter');
  const allowed = await put('login.free-api.example', free);
  assert.equal(allowed.status, 200, allowed.text);
  assert.equal(allowed.body.allowed, true);
  assert.equal(allowed.body.status, 'pending');
});

test('setting a domain: pending, with the TXT name and a random value to prove it, in ApiOut and the audit log', async () => {
  const set = await put('Login.Domains-API.example.');
  assert.equal(set.status, 200, set.text);
  assert.deepEqual(Object.keys(set.body).sort(), DOMAIN_OUT.filter((k) => !['checked_at', 'error'].includes(k)));
  assert.equal(set.body.domain, 'login.domains-api.example', 'stored in lower case, without the trailing dot');
  assert.equal(set.body.status, 'pending');
  assert.equal(set.body.txt_name, '_gatehouse.login.domains-api.example');
  assert.match(set.body.txt_value, /^gh-verify-[A-Za-z0-9]{32}$/);
  assert.equal(set.body.cname_target, 'domains.localhost');
  assert.deepEqual((await viewer.client.get(`/apis/${api.apiId}`)).body.domain, set.body);
  assert.deepEqual((await viewer.client.get(`/apis/${api.apiId}/domain`)).body, set.body);

  // The same name again changes nothing (the records the owner added stay right); another name
  // starts over with a new value.
  const again = await put('login.domains-api.example');
  assert.deepEqual(again.body, set.body);
  const other = await put('portal.domains-api.example');
  assert.equal(other.body.status, 'pending');
  assert.notEqual(other.body.txt_value, set.body.txt_value);
  const events = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.action === 'domain.set');
  assert.equal(events.length, 2, 'setting the same name again is not a change');
  assert.deepEqual(events[0]!.details, { domain: 'portal.domains-api.example', from: { domain: 'login.domains-api.example', status: 'pending' } });
  assert.deepEqual(events[1]!.details, { domain: 'login.domains-api.example' });
});

test('the name: at most 253 characters and 63 a label, a host name of two labels or more, never one of the service\'s own addresses', async () => {
  const longest = nameOfLength(253);
  assert.equal(longest.length, 253);
  const accepted = await put(longest);
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.body.domain, longest);
  assertRefusedAt(await put(nameOfLength(254)), 'body.domain');

  assert.equal((await put(`${'b'.repeat(63)}.example`)).status, 200);
  assertRefusedAt(await put(`${'b'.repeat(64)}.example`), 'body.domain');

  // Internationalized names are stored in their ASCII form.
  assert.equal((await put('bücher.example')).body.domain, 'xn--bcher-kva.example');

  for (const bad of ['', 'example', 'exa mple.com', 'under_score.example', '-lead.example', 'trail-.example', 'a..b.example', '203.0.113.7', '[::1]', 'https://login.example.com', 'login.example.com/path', 'login.example.123', 7, null]) {
    assertRefusedAt(await put(bad), 'body.domain');
  }
  // The portal domain (localhost here), the console's host (127.0.0.1, an address anyway) and the
  // CNAME target are the service's own.
  for (const own of ['localhost', 'weather.localhost', 'deep.weather.localhost', 'domains.localhost']) {
    const refused = await put(own);
    assertRefusedAt(refused, 'body.domain');
  }
  assert.match((await put('weather.localhost')).body.errors[0].message, /own addresses/);
  // Undeclared properties are refused.
  assertRefusedAt(await owner.client.put(`/apis/${api.apiId}/domain`, { domain: 'x.example', extra: 1 }), 'body.extra');
  const current = await viewer.client.get(`/apis/${api.apiId}/domain`);
  assert.equal(current.body.domain, 'xn--bcher-kva.example', 'a refused name changes nothing');
});

test('a domain another API serves (verified or active) is refused with 409; one only pending elsewhere is not', async () => {
  const first = await createApi(t, { name: 'First API' }, owner);
  const second = await createApi(t, { name: 'Second API' }, owner);
  await putOnPlan(t, first.apiId, 'starter');
  await putOnPlan(t, second.apiId, 'starter');
  const pendingAtFirst = await put('shared.example', first);
  assert.equal(pendingAtFirst.status, 200);
  // Pending proves nothing: a claim alone must not keep the name's real owner out.
  const pendingAtSecond = await put('shared.example', second);
  assert.equal(pendingAtSecond.status, 200, pendingAtSecond.text);

  dns.addDomainRecords(pendingAtFirst.body);
  assert.equal((await owner.client.post(`/apis/${first.apiId}/domain/check`)).body.status, 'active');
  const third = await createApi(t, { name: 'Third API' }, owner);
  await putOnPlan(t, third.apiId, 'starter');
  const taken = await put('shared.example', third);
  assert.equal(taken.status, 409, taken.text);
  assert.equal(taken.body.status, 409);
  assert.match(taken.body.detail, /Another API/);
  assert.equal((await viewer.client.get(`/apis/${third.apiId}/domain`)).body.status, 'none');

  // The second API, still pending, cannot be proven while the first serves the name, even when the
  // name's owner added its TXT value too.
  dns.set('_gatehouse.shared.example', 'TXT', [pendingAtFirst.body.txt_value, pendingAtSecond.body.txt_value]);
  const second_check = await owner.client.post(`/apis/${second.apiId}/domain/check`);
  assert.equal(second_check.body.status, 'pending', second_check.text);
  assert.match(second_check.body.error, /Another API/);

  // Once the first lets it go, the name is free.
  assert.equal((await owner.client.delete(`/apis/${first.apiId}/domain`)).status, 200);
  assert.equal((await owner.client.post(`/apis/${second.apiId}/domain/check`)).body.status, 'active');
});

test('removing the domain: back to none, audited; removing none is a no-op; checking none is 409', async () => {
  const own = await createApi(t, { name: 'Removed API' }, owner);
  await putOnPlan(t, own.apiId, 'starter');
  await activateDomain(owner.client, dns, own.apiId, 'removed.example');
  const removed = await owner.client.delete(`/apis/${own.apiId}/domain`);
  assert.equal(removed.status, 200, removed.text);
  assert.deepEqual(removed.body, { status: 'none', cname_target: 'domains.localhost', allowed: true });
  assert.equal((await owner.client.delete(`/apis/${own.apiId}/domain`)).status, 200);
  const check = await owner.client.post(`/apis/${own.apiId}/domain/check`);
  assert.equal(check.status, 409, check.text);
  assert.match(check.headers.get('content-type') ?? '', /application\/problem\+json/);
  const actions = (await apiAuditEvents(owner.client, owner.workspaceId, own.apiId)).map((e) => e.action);
  assert.deepEqual(actions.filter((a) => a.startsWith('domain.')), ['domain.remove', 'domain.check', 'domain.set']);
});

test('roles: viewers and editors read the domain, only admins set, check and remove it', async () => {
  assert.equal((await viewer.client.get(`/apis/${api.apiId}/domain`)).status, 200);
  assert.equal((await editor.client.get(`/apis/${api.apiId}/domain`)).status, 200);
  assert.equal((await put('editor.example', api, editor.client)).status, 403);
  assert.equal((await editor.client.post(`/apis/${api.apiId}/domain/check`)).status, 403);
  assert.equal((await editor.client.delete(`/apis/${api.apiId}/domain`)).status, 403);
});

test(`checks the owner asks for: ${MANUAL_CHECK_LIMIT.points} a minute per API, then 429`, async () => {
  const own = await createApi(t, { name: 'Eager API' }, owner);
  await putOnPlan(t, own.apiId, 'starter');
  assert.equal((await put('eager.example', own)).status, 200);
  for (let i = 1; i <= MANUAL_CHECK_LIMIT.points; i++) {
    const check = await owner.client.post(`/apis/${own.apiId}/domain/check`);
    assert.equal(check.status, 200, `check ${i}: ${check.text}`);
  }
  const refused = await owner.client.post(`/apis/${own.apiId}/domain/check`);
  assert.equal(refused.status, 429, refused.text);
  assert.ok(Number(refused.headers.get('retry-after')) >= 1);
});
