// The SSRF guard of outbound fetches of user-given URLs: which addresses count as public, and
// what safeFetch refuses (scheme, credentials, private addresses, redirects, size).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { isPublicAddress } from '../../src/platform/outbound/public-address.js';
import { safeFetch } from '../../src/platform/outbound/safe-fetch.js';

test('public and non-public addresses, on both sides of each range', () => {
  const publicOnes = ['8.8.8.8', '1.1.1.1', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0', '169.253.255.255', '172.15.255.255', '172.32.0.0', '192.167.255.255', '192.169.0.0', '223.255.255.255', '2606:4700:4700::1111', '2a00:1450:4001::200e', '::ffff:8.8.8.8'];
  const privateOnes = ['0.0.0.0', '10.0.0.0', '10.255.255.255', '100.64.0.0', '100.127.255.255', '127.0.0.1', '169.254.169.254', '172.16.0.0', '172.31.255.255', '192.168.0.1', '198.18.0.1', '224.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fdff::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2002:a00:1::', '2001:db8::1', 'not-an-ip'];
  for (const ip of publicOnes) assert.equal(isPublicAddress(ip), true, ip);
  for (const ip of privateOnes) assert.equal(isPublicAddress(ip), false, ip);
});

test('IPv6 special-purpose ranges (RFC 6890, the IANA registry) on both sides; only 2000::/3 is global unicast', () => {
  const cases: [string, boolean][] = [
    // IPv4-translated (RFC 2765, ::ffff:0:0:0/96) is refused whatever it embeds; IPv4-mapped next to it is judged as its IPv4.
    ['::ffff:0:808:808', false], ['::ffff:0:7f00:1', false], ['::ffff:0:0:0', false], ['::ffff:0:ffff:ffff', false],
    ['::ffff:8.8.8.8', true], ['::ffff:808:808', true], ['::ffff:127.0.0.1', false], ['::1:0:0:0', false],
    // IPv4-compatible (deprecated, ::/96) and the rest of 0000::/8: discard-only 100::/64, NAT64 64:ff9b::/96 and 64:ff9b:1::/48.
    ['::8.8.8.8', false], ['100::1', false], ['100:0:0:1::1', false], ['64:ff9b::808:808', false], ['64:ff9b:1::1', false],
    // Teredo 2001::/32 and the rest of the IETF protocol block 2001::/23 (benchmarking 2001:2::/48, ORCHID); 2001:200:: is the first regional allocation.
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', false], ['2001::1', false], ['2001:0:ffff:ffff::1', false], ['2001:1::1', false], ['2001:2::1', false],
    ['2001:10::1', false], ['2001:1ff:ffff:ffff::1', false], ['2001:200::1', true], ['2000:ffff:ffff:ffff::1', true],
    // Documentation 2001:db8::/32 and 3fff::/20 (RFC 9637); 6to4 2002::/16.
    ['2001:db7:ffff:ffff::1', true], ['2001:db8::1', false], ['2001:db8:ffff::1', false], ['2001:db9::1', true],
    ['3fff::1', false], ['3fff:fff:ffff::1', false], ['3fff:1000::1', true],
    ['2001:ffff:ffff::1', true], ['2002::1', false], ['2002:ffff::1', false], ['2003::1', true],
    // Global unicast ends at 3fff:ffff:…; SRv6 SIDs 5f00::/16, site-local fec0::/10 and everything else outside 2000::/3 are refused.
    ['1fff:ffff:ffff:ffff::1', false], ['3fff:ffff:ffff:ffff::1', true], ['4000::1', false], ['5f00::1', false], ['fec0::1', false], ['feff::1', false],
  ];
  for (const [ip, expected] of cases) assert.equal(isPublicAddress(ip), expected, ip);
});

let server: Server;
let base: string;
before(async () => {
  server = createServer((request, response) => {
    if (request.url === '/redirect') return response.writeHead(302, { location: 'http://169.254.169.254/' }).end();
    const size = Number(new URL(request.url!, 'http://x').searchParams.get('size') ?? '10');
    response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(size, 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const options = { maxBytes: 1000, timeoutMs: 2000, accept: 'image/*' };

test('refused: plain http, credentials in the URL, loopback and private hosts, names that resolve to them', async () => {
  assert.deepEqual(await safeFetch(`${base}/x`, options), { ok: false, reason: 'only https is fetched' });
  assert.deepEqual(await safeFetch('https://user:pw@example.com/x', options), { ok: false, reason: 'credentials in the URL' });
  for (const host of ['127.0.0.1', '[::1]', '10.1.2.3', '169.254.169.254', 'localhost']) {
    const answer = await safeFetch(`https://${host}/logo.png`, options);
    assert.equal(answer.ok, false, host);
    assert.match((answer as { reason: string }).reason, /public internet/, host);
  }
  assert.equal((await safeFetch('not a url', options)).ok, false);
});

test('with private addresses allowed (tests only): size bounded on both sides, redirects not followed', async () => {
  const loose = { ...options, allowPrivateAddresses: true };
  const exact = await safeFetch(`${base}/?size=1000`, loose);
  assert.equal(exact.ok && exact.body.length, 1000);
  assert.deepEqual(await safeFetch(`${base}/?size=1001`, loose), { ok: false, reason: 'the body is too large' });
  const redirect = await safeFetch(`${base}/redirect`, loose);
  assert.equal(redirect.ok && redirect.status, 302, 'answered as it is, not followed');
});
