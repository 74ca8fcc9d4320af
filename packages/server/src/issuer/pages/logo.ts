import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BoundedCache } from '../../platform/bounded-cache.js';
import type { Clock } from '../../platform/clock.js';
import { HOUR, MINUTE } from '../../platform/clock.js';
import { safeFetch } from '../../platform/outbound/safe-fetch.js';

/** Where pages show the API's logo: served from the tenant host, so pages load nothing from elsewhere. */
export const LOGO_PATH = '/branding/logo';

// Raster types only: an SVG served from our origin could carry script.
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/x-icon', 'image/vnd.microsoft.icon']);
export const LOGO_MAX_BYTES = 256 * 1024;
const KEEP_MS = HOUR;
const KEEP_FAILURE_MS = 5 * MINUTE;

type Logo = { ok: true; type: string; body: Buffer } | { ok: false };

/**
 * The owner's logo, fetched once through the SSRF-guarded fetch and kept an hour per URL (a
 * failure five minutes), then served by us with nosniff.
 */
export class LogoCache {
  readonly #entries = new BoundedCache<string, { logo: Logo; until: number }>(1000);

  constructor(
    private readonly clock: Clock,
    private readonly allowPrivateAddresses: boolean,
  ) {}

  async get(url: string): Promise<Logo> {
    const now = this.clock.now().getTime();
    const cached = this.#entries.get(url);
    if (cached && cached.until > now) return cached.logo;
    const fetched = await safeFetch(url, { maxBytes: LOGO_MAX_BYTES, timeoutMs: 5000, accept: 'image/*', allowPrivateAddresses: this.allowPrivateAddresses });
    const type = fetched.ok ? (fetched.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() : '';
    const logo: Logo = fetched.ok && fetched.status === 200 && IMAGE_TYPES.has(type) ? { ok: true, type, body: fetched.body } : { ok: false };
    this.#entries.set(url, { logo, until: now + (logo.ok ? KEEP_MS : KEEP_FAILURE_MS) });
    return logo;
  }
}

export function logoRoutes(logos: LogoCache) {
  return async (app: FastifyInstance) => {
    app.get(LOGO_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      const url = request.tenant.api.logo_url;
      const logo = url ? await logos.get(url) : ({ ok: false } as const);
      if (!logo.ok) return reply.status(404).header('cache-control', 'public, max-age=300').send();
      return reply
        .header('content-type', logo.type)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .header('cache-control', 'public, max-age=3600')
        .send(logo.body);
    });
  };
}
