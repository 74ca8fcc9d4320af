// An owner's logo, fetched from the address they gave and served from our own hosts (the sign-in
// pages' /branding/logo, the console's /api/apis/{api}/logo), so no page loads anything from elsewhere.
import type { FastifyReply } from 'fastify';
import type { Clock } from '../clock.js';
import { HOUR, MINUTE } from '../clock.js';
import { WeightedCache } from '../weighted-cache.js';
import { safeFetch } from './safe-fetch.js';

// Raster types only: an SVG served from our origin could carry script.
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon', 'image/vnd.microsoft.icon']);
export const LOGO_MAX_BYTES = 256 * 1024;
/**
 * What a node keeps of logos: 128 of the largest allowed, or some 3,000 of a usual 10 KB, which
 * covers the APIs whose pages are being shown; a logo forgotten is fetched again on its next view.
 */
export const LOGO_CACHE_BYTES = 32 * 1024 * 1024;
// What an entry costs besides its image: the URL (at most 2,000 characters) and the bookkeeping,
// so that failures, which hold no image, count too.
const ENTRY_OVERHEAD_BYTES = 512;
const KEEP_MS = HOUR;
const KEEP_FAILURE_MS = 5 * MINUTE;

export type Logo = { ok: true; type: string; body: Buffer } | { ok: false };
type Entry = { url: string; logo: Logo; until: number };

/**
 * The owner's logo, fetched through the SSRF-guarded fetch and kept an hour per API (a failure
 * five minutes), then served by us with nosniff. Views of one API at once share one fetch.
 */
export class LogoCache {
  readonly #entries: WeightedCache<string, Entry>;
  /** The fetch under way per API: every view that needs it waits on it rather than fetching too. */
  readonly #inFlight = new Map<string, { url: string; logo: Promise<Logo> }>();

  constructor(
    private readonly clock: Clock,
    private readonly allowPrivateAddresses: boolean,
    maxBytes = LOGO_CACHE_BYTES,
    /** Tests only: a certificate authority to trust besides the system's (AppDeps.outboundTestCa). */
    private readonly extraCa?: string,
  ) {
    this.#entries = new WeightedCache(maxBytes, (entry) => ENTRY_OVERHEAD_BYTES + entry.url.length + (entry.logo.ok ? entry.logo.body.length : 0));
  }

  async get(apiId: string, url: string): Promise<Logo> {
    for (;;) {
      const cached = this.#entries.get(apiId);
      if (cached && cached.url === url && cached.until > this.clock.now().getTime()) return cached.logo;
      const flight = this.#inFlight.get(apiId);
      if (!flight) break;
      if (flight.url === url) return flight.logo;
      // The owner just changed the address: the old one's fetch ends first, one at a time per API.
      await flight.logo;
    }
    const logo = this.#fetch(apiId, url).finally(() => this.#inFlight.delete(apiId));
    this.#inFlight.set(apiId, { url, logo });
    return logo;
  }

  async #fetch(apiId: string, url: string): Promise<Logo> {
    const fetched = await safeFetch(url, { maxBytes: LOGO_MAX_BYTES, timeoutMs: 5000, accept: 'image/*', allowPrivateAddresses: this.allowPrivateAddresses, ...(this.extraCa ? { extraCa: this.extraCa } : {}) });
    const type = fetched.ok ? (fetched.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() : '';
    const logo: Logo = fetched.ok && fetched.status === 200 && IMAGE_TYPES.has(type) ? { ok: true, type, body: fetched.body } : { ok: false };
    this.#entries.set(apiId, { url, logo, until: this.clock.now().getTime() + (logo.ok ? KEEP_MS : KEEP_FAILURE_MS) });
    return logo;
  }
}

/** A logo as an image answer: its own type, never sniffed, no script; the caller says how long to keep it. */
export function sendLogo(reply: FastifyReply, logo: Logo & { ok: true }, cacheControl: string) {
  return reply
    .header('content-type', logo.type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'")
    .header('cache-control', cacheControl)
    .send(logo.body);
}
