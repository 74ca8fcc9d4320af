// The custom domain settings (issue 17): DNS_SERVERS, CUSTOM_DOMAIN_CNAME_TARGET and
// CUSTOM_DOMAIN_CAA_ISSUERS, their defaults, and each bad value naming its setting; and the host
// names a console request may not claim, judged alone (domains/host-name.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';
import { isAtOrUnder, normalizeHostName } from '../../src/domains/host-name.js';
import { classifyHost } from '../../src/platform/http/host.js';

const base = { SECRET_KEY: Buffer.alloc(32, 7).toString('base64'), DATA_DIR: '/tmp/gh-config-test' };

test('defaults: the system resolvers, domains.<portal domain>, Let\'s Encrypt and Sectigo', () => {
  const config = loadConfig(base);
  assert.deepEqual(config.dnsServers, []);
  assert.deepEqual(config.customDomains, { cnameTarget: 'domains.localhost', caaIssuers: ['letsencrypt.org', 'sectigo.com'] });
  assert.equal(loadConfig({ ...base, PORTAL_DOMAIN: 'gatehouse.example' }).customDomains.cnameTarget, 'domains.gatehouse.example');
});

test('DNS_SERVERS: addresses with optional ports, IPv6 in brackets with a port; anything else stops start-up', () => {
  assert.deepEqual(loadConfig({ ...base, DNS_SERVERS: '1.1.1.1, 127.0.0.1:5399,::1,[::1]:53,127.0.0.1:65535,127.0.0.1:1' }).dnsServers, ['1.1.1.1', '127.0.0.1:5399', '::1', '[::1]:53', '127.0.0.1:65535', '127.0.0.1:1']);
  for (const bad of ['dns.example', '127.0.0.1:0', '127.0.0.1:65536', '127.0.0.1:x', '[::1]:99999', '300.1.1.1', '[dns.example]:53']) {
    assert.throws(() => loadConfig({ ...base, DNS_SERVERS: bad }), (error: unknown) => error instanceof ConfigError && error.setting === 'DNS_SERVERS', bad);
  }
});

test('CUSTOM_DOMAIN_CNAME_TARGET and CUSTOM_DOMAIN_CAA_ISSUERS must be host names', () => {
  assert.equal(loadConfig({ ...base, CUSTOM_DOMAIN_CNAME_TARGET: 'Edge.Example.NET.' }).customDomains.cnameTarget, 'edge.example.net');
  assert.deepEqual(loadConfig({ ...base, CUSTOM_DOMAIN_CAA_ISSUERS: 'pki.goog' }).customDomains.caaIssuers, ['pki.goog']);
  for (const [name, value] of [['CUSTOM_DOMAIN_CNAME_TARGET', 'not a host'], ['CUSTOM_DOMAIN_CNAME_TARGET', 'https://edge.example'], ['CUSTOM_DOMAIN_CAA_ISSUERS', 'letsencrypt.org;x'], ['CUSTOM_DOMAIN_CAA_ISSUERS', ',']] as const) {
    assert.throws(() => loadConfig({ ...base, [name]: value }), (error: unknown) => error instanceof ConfigError && error.setting === name, `${name}=${value}`);
  }
});

test('host names: normalized to lower-case ASCII; 253 characters and 63 a label at most', () => {
  assert.equal(normalizeHostName(' Login.Example.COM. '), 'login.example.com');
  assert.equal(normalizeHostName('münchen.example'), 'xn--mnchen-3ya.example');
  const label63 = 'a'.repeat(63);
  assert.equal(normalizeHostName(`${label63}.example`), `${label63}.example`);
  assert.equal(normalizeHostName(`${label63}a.example`), null);
  const name253 = `${label63}.${label63}.${label63}.${'b'.repeat(61)}`;
  assert.equal(name253.length, 253);
  assert.equal(normalizeHostName(name253), name253);
  assert.equal(normalizeHostName(`${name253}c`), null);
  for (const bad of ['localhost', '127.0.0.1', '::1', 'a_b.example', 'a b.example', 'x.example:443', 'x.example/p', 'user@x.example', 'x.123']) assert.equal(normalizeHostName(bad), null, bad);
  assert.ok(isAtOrUnder('a.b.localhost', 'localhost'));
  assert.ok(isAtOrUnder('localhost', 'localhost'));
  assert.ok(!isAtOrUnder('notlocalhost', 'localhost'));
});

test('hosts: the console, portal hosts, possible custom domains, and the rest', () => {
  const face = (host: string) => classifyHost(host, 'console.example:8080', 'portal.example');
  assert.deepEqual(face('console.example:8080'), { kind: 'console' });
  assert.deepEqual(face('weather.portal.example:8080'), { kind: 'tenant', slug: 'weather' });
  assert.deepEqual(face('Login.Weather.Example'), { kind: 'custom', domain: 'login.weather.example' });
  assert.deepEqual(face('login.weather.example:443'), { kind: 'custom', domain: 'login.weather.example' });
  for (const host of ['127.0.0.1:8080', 'localhost', 'portal.example', 'a.b.portal.example', '[::1]:8080', '', 'bad_host.example']) assert.deepEqual(face(host), { kind: 'unknown' }, host);
});
