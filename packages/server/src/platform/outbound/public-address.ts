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

function v6Public(ip: string): boolean {
  const g = v6Groups(ip);
  if (g.length !== 8 || g.some((n) => Number.isNaN(n))) return false;
  if (g.every((n) => n === 0)) return false; // ::
  if (g.slice(0, 7).every((n) => n === 0) && g[7] === 1) return false; // ::1
  // IPv4-mapped (::ffff:0:0/96) and IPv4-compatible addresses are judged as the IPv4 inside.
  if (g.slice(0, 5).every((n) => n === 0) && (g[5] === 0xffff || g[5] === 0)) {
    return v4Public(`${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`);
  }
  if ((g[0]! & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((g[0]! & 0xffc0) === 0xfe80) return false; // fe80::/10 link local
  if ((g[0]! & 0xff00) === 0xff00) return false; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x0064 && g[1] === 0xff9b) return false; // NAT64 (could reach private IPv4)
  if (g[0] === 0x2002) return false; // 6to4 (embeds any IPv4)
  return true;
}

/** Whether an IP address is on the public internet (neither loopback, private, link-local nor special). */
export function isPublicAddress(ip: string): boolean {
  if (isIPv4(ip)) return v4Public(ip);
  if (isIPv6(ip)) return v6Public(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  return false;
}
