import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiRow, ApiService } from '../apis/service.js';
import type { DomainService } from '../domains/service.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { findApiAndSettingsById, findApiAndSettingsBySlug } from './registry/lookups.js';
import { loadSettings, type SigninSettings } from './registry/settings.js';
import type { CachedReads, ResolvedTenant } from './cached-reads.js';
import { answerUnknownHost } from './unknown-host.js';

/** The API whose sign-in service a request reached, with its issuer identifier and settings. */
export interface Tenant {
  api: ApiRow;
  /**
   * The issuer identifier of the host reached: the portal host's origin, or `https://<domain>` on
   * an active custom domain (TLS is the proxy's there); no trailing slash (RFC 8414 2).
   */
  issuer: string;
  /** Which of the API's addresses this is: grants, codes and tokens of the other are refused here. */
  host: 'portal' | 'custom';
  /** The issuer of the API's portal host, which serves it whatever its custom domain does. */
  portalIssuer: string;
  settings: SigninSettings;
  branding: { name: string; logoUrl: string | null; accentColor: string };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on the tenant face by the tenant hook. */
    tenant: Tenant;
  }
}

/** Thrown when the host names no API; the tenant face answers 404 (a page for browsers: unknown-host.ts). */
export class UnknownTenant extends Error {}

/**
 * Resolves the API of a tenant host for every request of the tenant face: `<slug>.PORTAL_DOMAIN`,
 * or an active custom domain (issue 17). Any other host gets 404 from these routes: a tenant's
 * data is reachable only through its hosts. Found hosts are cached per node (cached-reads.ts):
 * every change of an API, its settings or its domain notifies, so a domain set, failed or removed
 * is served, or not, within a second on every node. Unknown hosts are not cached.
 */
export function registerTenantHook(app: FastifyInstance, deps: { db: Db; reads: CachedReads; clock: Clock; apis: ApiService; domains: DomainService; consoleUrl: string }) {
  async function resolve(face: FastifyRequest['face']): Promise<ResolvedTenant | undefined> {
    let found: Awaited<ReturnType<typeof findApiAndSettingsBySlug>>;
    if (face.kind === 'tenant') found = await findApiAndSettingsBySlug(deps.db, face.slug);
    else if (face.kind === 'custom') {
      const apiId = await deps.domains.servedApiId(face.domain);
      found = apiId ? await findApiAndSettingsById(deps.db, apiId) : undefined;
    }
    if (!found) return undefined;
    // Made on first read, as loadSettings does.
    return { api: found.api, settings: found.settings ?? (await loadSettings(deps.db, deps.clock, found.api.id)) };
  }

  // The Tenant of a cached host entry, made once per entry rather than per request: an entry is
  // one host's (its cache key names the slug or the domain), and a change of the API drops the
  // entry, so a new entry object brings a new Tenant.
  const made = new WeakMap<ResolvedTenant, Tenant>();
  function tenantOf(found: ResolvedTenant, face: FastifyRequest['face']): Tenant {
    let tenant = made.get(found);
    if (tenant) return tenant;
    const { api } = found;
    const portalIssuer = deps.apis.portalUrl(api.slug);
    tenant = {
      api,
      issuer: face.kind === 'custom' ? `https://${face.domain}` : portalIssuer,
      host: face.kind === 'custom' ? 'custom' : 'portal',
      portalIssuer,
      settings: found.settings,
      branding: { name: api.name, logoUrl: api.logo_url, accentColor: api.accent_color },
    };
    made.set(found, tenant);
    return tenant;
  }

  app.decorateRequest('tenant', null as never);
  app.addHook('onRequest', async (request: FastifyRequest, reply) => {
    const face = request.face;
    const found =
      face.kind === 'tenant' ? await deps.reads.tenant(`slug ${face.slug}`, () => resolve(face))
      : face.kind === 'custom' ? await deps.reads.tenant(`custom ${face.domain}`, () => resolve(face))
      : undefined;
    if (!found) return answerUnknownHost(request, reply, deps.consoleUrl);
    request.tenant = tenantOf(found, face);
  });
}
