// How long a fetched client metadata document is kept (spec 4.3): per its HTTP cache headers
// (RFC 9111), held between 5 minutes and 24 hours, 1 hour when it names none; `no-store` and
// `no-cache` mean it is fetched again on every use.
import { DAY, HOUR, MINUTE, SECOND } from '../../platform/clock.js';

export const MIN_DOCUMENT_LIFETIME_MS = 5 * MINUTE;
export const MAX_DOCUMENT_LIFETIME_MS = DAY;
export const DEFAULT_DOCUMENT_LIFETIME_MS = HOUR;

/** Cache-Control directives by lower-case name, each with its value (unquoted) or true. */
function directives(header: string): Map<string, string | true> {
  const out = new Map<string, string | true>();
  for (const part of header.split(',')) {
    const [rawName, ...rest] = part.split('=');
    const name = rawName!.trim().toLowerCase();
    if (!name) continue;
    const value = rest.join('=').trim().replace(/^"(.*)"$/, '$1');
    if (!out.has(name)) out.set(name, rest.length ? value : true);
  }
  return out;
}

/** RFC 9111 1.2.2: delta-seconds, a non-negative whole number; anything else is not one. */
function deltaSeconds(value: string | true | undefined): number | null {
  return typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : null;
}

/**
 * The time a fetched document stays good, in milliseconds: 0 for fetch-every-time, else the
 * lifetime its headers give (s-maxage for a shared cache like ours, then max-age, then Expires
 * less Date, each less Age) held between the bounds, or the default when they give none.
 */
export function documentLifetimeMs(headers: Record<string, string>, now: Date): number {
  const cacheControl = directives(headers['cache-control'] ?? '');
  if (cacheControl.has('no-store') || cacheControl.has('no-cache')) return 0;
  const age = deltaSeconds(headers.age) ?? 0;
  let lifetimeS: number | null = deltaSeconds(cacheControl.get('s-maxage')) ?? deltaSeconds(cacheControl.get('max-age'));
  if (lifetimeS === null && headers.expires !== undefined) {
    // RFC 9111 5.3: an Expires that is not a valid date means already expired.
    const expires = Date.parse(headers.expires);
    const date = headers.date !== undefined && !Number.isNaN(Date.parse(headers.date)) ? Date.parse(headers.date) : now.getTime();
    lifetimeS = Number.isNaN(expires) ? 0 : Math.max(0, Math.floor((expires - date) / 1000));
  }
  if (lifetimeS === null) return DEFAULT_DOCUMENT_LIFETIME_MS;
  const freshMs = Math.max(0, lifetimeS - age) * SECOND;
  return Math.min(MAX_DOCUMENT_LIFETIME_MS, Math.max(MIN_DOCUMENT_LIFETIME_MS, freshMs));
}
