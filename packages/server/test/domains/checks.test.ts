// Custom domain states through real DNS (issue 17 point 2 and 3): records set and removed on a
// local DNS server, the re-check job run with the clock moved. Pending → verified → active or
// failed; the error names the record; the job's backoff and 72 hours; daily re-checks of active
// domains, a grace of 24 hours, then failed and no longer served.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { domainChecksJob } from '../../src/jobs/domain-checks.js';
import { ACTIVE_GRACE_MS, PENDING_WINDOW_MS } from '../../src/domains/transitions.js';
import { DAY, HOUR, MINUTE, SECOND } from '../../src/platform/clock.js';
import { activateDomain, getJson, putOnPlan, startDns, tlsAllowed, type TestDns } from '../support/domains.js';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, createApi, startWithApi } from '../support/money.js';

let t: TestApp;
let dns: TestDns;
let owner: SignedUp;
before(async () => {
  dns = await startDns();
  ({ t, owner } = await startWithApi('Cass Owner', { name: 'Checked API' }, { DNS_SERVERS: dns.address }));
});
after(async () => {
  await t.close();
  await dns.close();
});

let counter = 0;
/** A new API on the starter plan with `domain` set (pending), and its DomainOut. */
async function withDomain(label: string) {
  const api = await createApi(t, { name: `${label} API ${++counter}` }, owner);
  await putOnPlan(t, api.apiId, 'starter');
  const domain = `${label}-${counter}.example`;
  const set = await owner.client.put(`/apis/${api.apiId}/domain`, { domain });
  assert.equal(set.status, 200, set.text);
  return { api, domain, out: set.body as { domain: string; txt_name: string; txt_value: string; cname_target: string } };
}
const check = async (apiId: string) => {
  const answer = await owner.client.post(`/apis/${apiId}/domain/check`);
  assert.equal(answer.status, 200, answer.text);
  return answer.body;
};
const read = async (apiId: string) => (await owner.client.get(`/apis/${apiId}/domain`)).body;
const runJob = () => t.services.scheduler.runOnce(domainChecksJob(t.services.domains));
const discoveryAt = (domain: string) => getJson(t, `https://${domain}/.well-known/openid-configuration`);

test('pending: the error names each record that is missing or wrong, until both are right; then active and served', async () => {
  const { api, domain, out } = await withDomain('steps');
  assert.equal(out.cname_target, 'domains.localhost');
  const nothing = await check(api.apiId);
  assert.equal(nothing.status, 'pending');
  assert.match(nothing.error, new RegExp(`The TXT record at _gatehouse\\.${domain} is missing: add one with the value ${out.txt_value}\\.`));
  assert.match(nothing.error, new RegExp(`The CNAME record of ${domain} is missing: point it at domains\\.localhost\\.`));
  assert.ok(nothing.checked_at);
  assert.equal((await discoveryAt(domain)).status, 404, 'a pending domain is not served');
  assert.equal(await tlsAllowed(t, domain), 404, 'nor given a certificate');

  dns.set(out.txt_name, 'TXT', ['someone else\'s value']);
  dns.set(domain, 'CNAME', ['elsewhere.example']);
  const wrong = await check(api.apiId);
  assert.equal(wrong.status, 'pending');
  assert.match(wrong.error, /The TXT record at \S+ is wrong: it holds "someone else's value", not gh-verify-/);
  assert.match(wrong.error, /The CNAME record of \S+ is wrong: it points at elsewhere\.example, not domains\.localhost\./);

  dns.set(out.txt_name, 'TXT', ['unrelated', out.txt_value]);
  const cnameOnly = await check(api.apiId);
  assert.equal(cnameOnly.status, 'pending');
  assert.doesNotMatch(cnameOnly.error, /TXT/, 'the TXT record is right now, among others');
  assert.match(cnameOnly.error, /CNAME/);

  dns.set(domain, 'CNAME', ['Domains.Localhost.']);
  const active = await check(api.apiId);
  assert.equal(active.status, 'active', JSON.stringify(active));
  assert.equal(active.error, undefined);
  const discovery = await discoveryAt(domain);
  assert.equal(discovery.status, 200, discovery.text);
  assert.equal(discovery.body.issuer, `https://${domain}`);
  assert.equal(await tlsAllowed(t, domain), 200);
  const checks = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.action === 'domain.check');
  assert.equal(checks.length, 4);
  assert.deepEqual(checks[0]!.details, { domain, from: 'pending', to: 'active' });
});

test('a CAA record that keeps our certificate authorities out: verified (proven, certificate allowed to be tried) but not active, until it allows one', async () => {
  const { api, domain, out } = await withDomain('caa');
  dns.addDomainRecords(out);
  dns.set(domain, 'CAA', [{ tag: 'issue', value: 'ca.example.net' }, { tag: 'iodef', value: 'mailto:sec@example.net' }]);
  const verified = await check(api.apiId);
  assert.equal(verified.status, 'verified');
  assert.match(verified.error, /CAA records of \S+ allow certificates only from ca\.example\.net; add a CAA record allowing letsencrypt\.org or sectigo\.com/);
  assert.equal(await tlsAllowed(t, domain), 200, 'verified: the proxy may try');
  assert.equal((await discoveryAt(domain)).status, 404, 'verified is not yet serving');
  // The CAA set of a parent applies when the name has none (RFC 8659 3).
  dns.remove(domain, 'CAA');
  dns.set(domain.split('.').slice(1).join('.'), 'CAA', [{ tag: 'issue', value: 'ca.example.net' }]);
  assert.equal((await check(api.apiId)).status, 'verified');
  dns.set(domain.split('.').slice(1).join('.'), 'CAA', [{ tag: 'issue', value: 'ca.example.net' }, { tag: 'issue', value: 'letsencrypt.org; validationmethods=http-01' }]);
  assert.equal((await check(api.apiId)).status, 'active');
  dns.remove(domain.split('.').slice(1).join('.'));
});

test('an apex domain whose provider flattens the CNAME into addresses counts when they are the target\'s', async () => {
  const { api, domain, out } = await withDomain('apex');
  dns.set(out.txt_name, 'TXT', [out.txt_value]);
  dns.set(domain, 'A', ['192.0.2.10']);
  dns.set('domains.localhost', 'A', ['192.0.2.20']);
  const elsewhere = await check(api.apiId);
  assert.equal(elsewhere.status, 'pending');
  assert.match(elsewhere.error, /has no CNAME record and its addresses \(192\.0\.2\.10\) are not those of domains\.localhost/);
  dns.set('domains.localhost', 'A', ['192.0.2.10', '192.0.2.20']);
  assert.equal((await check(api.apiId)).status, 'active');
  dns.remove('domains.localhost');
});

test('a DNS server that fails (SERVFAIL) proves nothing: the domain stays as it was, with the failed lookup as its error', async () => {
  const { api, domain, out } = await withDomain('servfail');
  dns.addDomainRecords(out);
  dns.failing(out.txt_name);
  const unknown = await check(api.apiId);
  assert.equal(unknown.status, 'pending');
  assert.match(unknown.error, /The TXT lookup of \S+ failed \(ESERVFAIL\)/);
  dns.failing(out.txt_name, false);
  assert.equal((await check(api.apiId)).status, 'active');
  // Active: a failing server neither fails it nor starts its grace.
  dns.failing(domain);
  t.clock.advance(DAY);
  await runJob();
  const still = await read(api.apiId);
  assert.equal(still.status, 'active');
  assert.match(still.error, /failed \(ESERVFAIL\)/);
  dns.failing(domain, false);
  const row = await t.services.db.selectFrom('custom_domains').select('failing_since').where('api_id', '=', api.apiId).executeTakeFirstOrThrow();
  assert.equal(row.failing_since, null);
});

test('the job checks a pending domain a minute after it is set, then with backoff; records added meanwhile make it active', async () => {
  const { api, out } = await withDomain('backoff');
  const checkedAt = async () => (await read(api.apiId)).checked_at as string | undefined;
  t.clock.advance(50 * SECOND);
  await runJob();
  assert.equal(await checkedAt(), undefined, 'not due 50 s after setting');
  t.clock.advance(11 * SECOND);
  await runJob();
  const first = await checkedAt();
  assert.ok(first, 'due a minute after setting');
  // The second check waits a minute more, the third two more.
  t.clock.advance(50 * SECOND);
  await runJob();
  assert.equal(await checkedAt(), first, 'not due 50 s after the first check');
  t.clock.advance(11 * SECOND);
  await runJob();
  const second = await checkedAt();
  assert.notEqual(second, first, 'due a minute after the first check');
  t.clock.advance(110 * SECOND);
  await runJob();
  assert.equal(await checkedAt(), second, 'not due 110 s after the second check');
  dns.addDomainRecords(out);
  t.clock.advance(11 * SECOND);
  await runJob();
  const third = await read(api.apiId);
  assert.equal(third.status, 'active', 'due two minutes after the second check, and proven');
  const changes = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.action === 'domain.status');
  assert.equal(changes.length, 1, 'the job audits changes of state, not every check');
  assert.deepEqual(changes[0]!.details, { domain: out.domain, from: 'pending', to: 'active' });
});

test('pending for 72 hours without proof: failed, left alone by the job; the owner can check it back to active, or set it again', async () => {
  const { api, domain, out } = await withDomain('expiry');
  t.clock.advance(PENDING_WINDOW_MS - 10 * MINUTE);
  await runJob();
  assert.equal((await read(api.apiId)).status, 'pending', 'still pending ten minutes before 72 hours');
  t.clock.advance(HOUR + MINUTE);
  await runJob();
  const failed = await read(api.apiId);
  assert.equal(failed.status, 'failed');
  assert.match(failed.error, /^Not proven within 72 hours: The TXT record/);
  const row = await t.services.db.selectFrom('custom_domains').select('next_check_at').where('api_id', '=', api.apiId).executeTakeFirstOrThrow();
  assert.equal(row.next_check_at, null);

  // Checked by the owner without the records: still failed. Set again: pending, same TXT value.
  assert.equal((await check(api.apiId)).status, 'failed');
  const again = await owner.client.put(`/apis/${api.apiId}/domain`, { domain });
  assert.equal(again.body.status, 'pending');
  assert.equal(again.body.txt_value, out.txt_value);
  dns.addDomainRecords(out);
  assert.equal((await check(api.apiId)).status, 'active');
});

test('active domains are re-checked daily; records removed: still served through a grace of 24 hours, then failed and served no more', async () => {
  const { api, domain, out } = await withDomain('grace');
  dns.addDomainRecords(out);
  assert.equal((await check(api.apiId)).status, 'active');
  const checkedAt = async () => (await read(api.apiId)).checked_at as string;
  const activeAt = await checkedAt();
  t.clock.advance(DAY - 10 * MINUTE);
  await runJob();
  assert.equal(await checkedAt(), activeAt, 'not re-checked before a day');
  t.clock.advance(11 * MINUTE);
  await runJob();
  assert.notEqual(await checkedAt(), activeAt, 're-checked after a day');
  assert.equal((await read(api.apiId)).status, 'active');

  dns.remove(out.txt_name);
  t.clock.advance(DAY);
  await runJob();
  const failing = await read(api.apiId);
  assert.equal(failing.status, 'active', 'the grace starts: still active');
  assert.match(failing.error, /TXT record .* is missing/);
  assert.equal((await discoveryAt(domain)).status, 200, 'and still served');

  // Hourly through the grace; just before its end, still active and served.
  for (let hours = 1; hours < 24; hours++) {
    t.clock.advance(HOUR);
    await runJob();
  }
  assert.equal((await read(api.apiId)).status, 'active', '23 hours into the grace');
  assert.equal((await discoveryAt(domain)).status, 200);
  t.clock.advance(ACTIVE_GRACE_MS - 23 * HOUR + MINUTE);
  await runJob();
  const failed = await read(api.apiId);
  assert.equal(failed.status, 'failed', 'past the grace');
  assert.match(failed.error, /TXT record .* is missing/);
  assert.equal((await discoveryAt(domain)).status, 404, 'served no more');
  assert.equal(await tlsAllowed(t, domain), 404);
  const changes = (await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).filter((e) => e.action === 'domain.status');
  assert.deepEqual(changes[0]!.details, { domain, from: 'active', to: 'failed', error: failed.error });
});

test('records restored within the grace: the grace ends and the domain stays active', async () => {
  const { api, out } = await withDomain('restored');
  dns.addDomainRecords(out);
  assert.equal((await check(api.apiId)).status, 'active');
  dns.remove(out.domain, 'CNAME');
  t.clock.advance(DAY + MINUTE);
  await runJob();
  assert.match((await read(api.apiId)).error, /CNAME record .* is missing/);
  dns.addDomainRecords(out);
  t.clock.advance(HOUR + MINUTE);
  await runJob();
  const restored = await read(api.apiId);
  assert.equal(restored.status, 'active');
  assert.equal(restored.error, undefined);
  const row = await t.services.db.selectFrom('custom_domains').select('failing_since').where('api_id', '=', api.apiId).executeTakeFirstOrThrow();
  assert.equal(row.failing_since, null);
});

test('a plan without custom domains: the domain is served no more at once, and the next check fails it', async () => {
  const { api, domain, out } = await withDomain('downgrade');
  await activateDomain(owner.client, dns, api.apiId, domain);
  void out;
  await putOnPlan(t, api.apiId, 'free');
  assert.equal((await discoveryAt(domain)).status, 404);
  assert.equal(await tlsAllowed(t, domain), 404);
  const readBack = await read(api.apiId);
  assert.equal(readBack.allowed, false);
  t.clock.advance(DAY + MINUTE);
  await runJob();
  const failed = await read(api.apiId);
  assert.equal(failed.status, 'failed');
  assert.match(failed.error, /platform plan/);
  await putOnPlan(t, api.apiId, 'starter');
  assert.equal((await discoveryAt(domain)).status, 404, 'a failed domain stays off until checked');
  assert.equal((await check(api.apiId)).status, 'active');
  assert.equal((await discoveryAt(domain)).status, 200);
});

test('the TLS ask: portal hosts of existing APIs and proven custom domains; nothing else', async () => {
  const { api, domain } = await withDomain('tls');
  const slug = (await owner.client.get(`/apis/${api.apiId}`)).body.slug;
  assert.equal(await tlsAllowed(t, `${slug}.localhost`), 200);
  assert.equal(await tlsAllowed(t, `${slug.toUpperCase()}.LOCALHOST`), 200);
  assert.equal(await tlsAllowed(t, 'no-such-api.localhost'), 404);
  assert.equal(await tlsAllowed(t, `a.${slug}.localhost`), 404);
  assert.equal(await tlsAllowed(t, 'localhost'), 404);
  assert.equal(await tlsAllowed(t, domain), 404, 'pending');
  assert.equal(await tlsAllowed(t, 'nobody.example'), 404);
  assert.equal(await tlsAllowed(t, '127.0.0.1'), 404);
  const missing = await fetch(`${t.url}/internal/tls/allowed`);
  assert.equal(missing.status, 422);
  assert.match(missing.headers.get('content-type') ?? '', /application\/problem\+json/);
  const tooLong = await fetch(`${t.url}/internal/tls/allowed?domain=${'a'.repeat(301)}`);
  assert.equal(tooLong.status, 422);
  const longest = await fetch(`${t.url}/internal/tls/allowed?domain=${'a'.repeat(300)}`);
  assert.equal(longest.status, 404);
});
