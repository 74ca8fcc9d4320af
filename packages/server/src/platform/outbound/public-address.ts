import { isIPv4, isIPv6 } from 'node:net';

// Ranges that are not the public internet (RFC 6890 special-purpose registries): a fetch of a
// URL someone gave us must never reach the machine itself, its network or its cloud metadata.
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
];

function v4ToNumber(ip: string): number {
  return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function v4Public(ip: string): boolean {
  const n = v4ToNumber(ip);
  return !V4_BLOCKED.some(([base, bits]) => {
    const size = 2 ** (32 - bits);
    const start = v4ToNumber(base);
    return n >= start && n < start + size;
  });
}

/** Expands an IPv6 address to its 8 groups as numbers. */
function v6Groups(ip: string): number[] {
  const [head = '', tail = ''] = ip.split('::');
  const parse = (part: string) => (part ? part.split(':') : []);
  let headParts = parse(head);
  let tailParts = parse(tail);
  // An embedded IPv4 tail (::ffff:1.2.3.4) is two groups.
  const last = (ip.includes('::') ? tailParts : headParts).at(-1);
  if (last && isIPv4(last)) {
    const n = v4ToNumber(last);
    const groups = [Math.floor(n / 65536).toString(16), (n % 65536).toString(16)];
    if (ip.includes('::')) tailParts = [...tailParts.slice(0, -1), ...groups];
    else headParts = [...headParts.slice(0, -1), ...groups];
  }
  const fill = ip.includes('::') ? Array(8 - headParts.length - tailParts.length).fill('0') : [];
  return [...headParts, ...fill, ...tailParts].map((group) => parseInt(group, 16));
}

// Special-purpose ranges inside global unicast (IANA IPv6 Special-Purpose Address Registry), as
// [first group, second group from, second group to] on the first 32 bits.
const V6_BLOCKED_IN_GLOBAL: [number, number, number][] = [
  // 2001::/23, the IETF protocol assignments: Teredo 2001::/32 (embeds IPv4 addresses of its relay
  // and client), benchmarking 2001:2::/48, ORCHID; its few anycast services never serve a URL.
  [0x2001, 0x0000, 0x01ff],
  [0x2001, 0x0db8, 0x0db8], // 2001:db8::/32 documentation
  [0x2002, 0x0000, 0xffff], // 2002::/16 6to4 (embeds any IPv4)
  [0x3fff, 0x0000, 0x0fff], // 3fff::/20 documentation (RFC 9637)
];

function v6Public(ip: string): boolean {
  const g = v6Groups(ip);
  if (g.length !== 8 || g.some((n) => Number.isNaN(n))) return false;
  // IPv4-mapped (::ffff:0:0/96) is how a dual-stack socket writes an IPv4 address: judged as it.
  if (g.slice(0, 5).every((n) => n === 0) && g[5] === 0xffff) {
    return v4Public(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`);
  }
  // Only 2000::/3 is global unicast (IANA IPv6 Address Space). Outside it: 0000::/8 with the
  // unspecified and loopback addresses, IPv4-compatible ::/96, IPv4-translated ::ffff:0:0:0/96
  // (RFC 2765), NAT64 64:ff9b::/96 and 64:ff9b:1::/48 (could reach private IPv4), discard-only
  // 100::/64; SRv6 5f00::/16; unique local fc00::/7; link- and site-local fe80::/9; multicast ff00::/8.
  if ((g[0]! & 0xe000) !== 0x2000) return false;
  return !V6_BLOCKED_IN_GLOBAL.some(([first, from, to]) => g[0] === first && g[1]! >= from && g[1]! <= to);
}

/** Whether an IP address is on the public internet (neither loopback, private, link-local nor special). */
export function isPublicAddress(ip: string): boolean {
  if (isIPv4(ip)) return v4Public(ip);
  if (isIPv6(ip)) return v6Public(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  return false;
}
