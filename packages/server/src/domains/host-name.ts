import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/** RFC 1035 2.3.4: a name is at most 253 characters written out, each label at most 63. */
export const MAX_DOMAIN_LENGTH = 253;
export const MAX_LABEL_LENGTH = 63;

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A host name as stored: lower case, ASCII (an internationalized name becomes its xn-- form), no
 * trailing dot. Null when it is not a name a certificate can be issued for: an address, a single
 * label, a label too long or with other characters, an all-numeric top-level label.
 */
export function normalizeHostName(raw: string): string | null {
  const trimmed = raw.trim().replace(/\.$/, '');
  if (!trimmed || isIP(trimmed) || isIP(trimmed.replace(/^\[|\]$/g, ''))) return null;
  // Only letters (of any script), digits, hyphens and dots: the URL parser under domainToASCII
  // would otherwise read `login.example.com/path` as a host and a path, and keep the host.
  if (/[\x00-\x2c\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]/.test(trimmed)) return null;
  const ascii = domainToASCII(trimmed);
  if (!ascii || ascii.length > MAX_DOMAIN_LENGTH) return null;
  const labels = ascii.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  if (/^\d+$/.test(labels.at(-1)!)) return null;
  return ascii;
}

/** The name itself or any name under it. */
export function isAtOrUnder(name: string, parent: string): boolean {
  return name === parent || name.endsWith(`.${parent}`);
}
