import { isIP } from 'node:net';
import { isPublicAddress } from '../platform/outbound/public-address.js';

/**
 * Why an endpoint address is refused, or null (issue 24 item 3): https on the public internet, as
 * logos and metadata documents are fetched. What can be judged without asking DNS is judged here
 * (scheme, credentials, an address that is not public, a `localhost` name); every attempt then
 * resolves the name again and refuses private addresses (platform/outbound), so a name that moves
 * to one later is refused too. `allowPrivate` (UNSAFE_OUTBOUND_PRIVATE, never in production) also
 * allows http and loopback, for tests and local receivers.
 */
export function endpointUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return allowPrivate ? 'must be https or http' : 'must be https';
  if (url.username || url.password) return 'must not hold a user name or password';
  if (url.hash || raw.includes('#')) return 'must not have a fragment';
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(host) && !isPublicAddress(host)) return 'must be a public address, not loopback, private or reserved';
  if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) return 'must be a public host name';
  return null;
}
