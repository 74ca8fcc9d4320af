import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiRow, ApiService } from '../apis/service.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { findApiAndSettingsBySlug } from './registry/lookups.js';
import { loadSettings, type SigninSettings } from './registry/settings.js';

/** The API whose sign-in service a request reached, with its issuer identifier and settings. */
export interface Tenant {
  api: ApiRow;
  /** The issuer identifier: the tenant host's origin, no trailing slash (RFC 8414 2). */
  issuer: string;
  settings: SigninSettings;
  branding: { name: string; logoUrl: string | null; accentColor: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on the tenant face by the tenant hook. */
    tenant: Tenant;
  }
}

/** Thrown when the host names no API; the tenant face answers a plain 404. */
export class UnknownTenant extends Error {}

/**
 * Resolves the API of a tenant host (`<slug>.PORTAL_DOMAIN`) for every request of the tenant face.
 * Any other host gets 404 from these routes: a tenant's data is reachable only through its host.
 */
export function registerTenantHook(app: FastifyInstance, deps: { db: Db; clock: Clock; apis: ApiService }) {
  app.decorateRequest('tenant', null as never);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const face = request.face;
    const found = face.kind === 'tenant' ? await findApiAndSettingsBySlug(deps.db, face.slug) : undefined;
    if (!found) {
      return reply.status(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send('Not found');
    }
    const { api } = found;
    request.tenant = {
      api,
      issuer: deps.apis.portalUrl(api.slug),
      // Made on first read, as loadSettings does.
      settings: found.settings ?? (await loadSettings(deps.db, deps.clock, api.id)),
      branding: { name: api.name, logoUrl: api.logo_url, accentColor: api.accent_color },
    };
  });
}
