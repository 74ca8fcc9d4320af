// The reads the issuer's hot paths make on every request, kept per node (docs/architecture.md,
// "Per-node caches"): the tenant of a host, apps and servers by client id, and the state of a
// grant that decides whether its access tokens are active. Write paths notify (change-feed.ts).
import { SECOND } from '../platform/clock.js';
import { changed, type ChangeFeed } from '../platform/db/change-feed.js';
import type { Db } from '../platform/db/database.js';
import { TaggedCache } from '../platform/tagged-cache.js';
import type { AppRow, ServerRow } from './protocol/client-auth.js';
import { findApp, findServerByClientId } from './registry/lookups.js';
import type { Tenant } from './tenant.js';
import { grantState } from './tokens/queries.js';

export type GrantState = NonNullable<Awaited<ReturnType<typeof grantState>>>;
/** What the tenant hook resolves a host to, before the host's own parts (issuer, host kind). */
export type ResolvedTenant = Pick<Tenant, 'api' | 'settings'>;

// How long an entry may outlive a notification that was lost (the listener reconnecting is
// noticed, and drops everything, within 8 s: platform/db/database.ts).
const LIFETIME_MS = 30 * SECOND;

export class CachedReads {
  readonly #tenants: TaggedCache<ResolvedTenant>;
  readonly #apps: TaggedCache<AppRow>;
  readonly #servers: TaggedCache<ServerRow>;
  readonly #grants: TaggedCache<GrantState>;

  constructor(
    private readonly db: Db,
    feed: ChangeFeed,
  ) {
    this.#tenants = new TaggedCache(feed, 2_000, LIFETIME_MS);
    this.#apps = new TaggedCache(feed, 20_000, LIFETIME_MS);
    this.#servers = new TaggedCache(feed, 5_000, LIFETIME_MS);
    this.#grants = new TaggedCache(feed, 50_000, LIFETIME_MS);
  }

  /** The API (and its settings) a host serves; `key` names the host, `resolve` reads it. */
  tenant(key: string, resolve: () => Promise<ResolvedTenant | undefined>): Promise<ResolvedTenant | undefined> {
    return this.#tenants.load(key, resolve, (found) => [changed.api(found.api.id)]);
  }

  /** An app of the API by client id, with its secret hashes (spec 5.4 checks them per request). */
  app(apiId: string, clientId: string): Promise<AppRow | undefined> {
    return this.#apps.load(`${apiId} ${clientId}`, () => findApp(this.db, apiId, clientId), () => [changed.api(apiId), changed.client(apiId, clientId)]);
  }

  /** A server of the API by its client id (rs_…), with its secret hashes. */
  server(apiId: string, clientId: string): Promise<ServerRow | undefined> {
    return this.#servers.load(`${apiId} ${clientId}`, () => findServerByClientId(this.db, apiId, clientId), () => [changed.api(apiId), changed.client(apiId, clientId)]);
  }

  /** Whether a grant is revoked, its person active, its session ended: what decides a token. */
  grantState(apiId: string, grantId: string): Promise<GrantState | undefined> {
    return this.#grants.load(`${apiId} ${grantId}`, () => grantState(this.db, apiId, grantId), (state) => {
      const tags = [changed.api(apiId), changed.grant(grantId), changed.person(state.person_id), changed.client(apiId, state.client_id)];
      return state.session_id ? [...tags, changed.session(state.session_id)] : tags;
    });
  }
}
