// Which app a client_id names at an API (spec 4.2, 4.3): an id we gave out (the owner's apps,
// the portal, registered apps) or the https URL of a client ID metadata document, whose copy is
// kept on the app's row for as long as the document's cache headers allow.
import type { PlatformPlans } from '../../apis/platform-plans.js';
import type { ApiService } from '../../apis/service.js';
import type { Clock } from '../../platform/clock.js';
import { addMs, HOUR } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { networkOf } from '../../platform/http/network.js';
import type { TokenBuckets } from '../../platform/token-bucket.js';
import type { AppRow } from '../protocol/client-auth.js';
import type { AppOrigin } from '../registry/tables.js';
import type { Tenant } from '../tenant.js';
import { MAX_CONNECTED_APPS, METADATA_FETCHES } from './limits.js';
import type { MetadataDocuments } from './metadata-documents.js';
import { isMetadataUrl, metadataUrlProblem } from './metadata-rules.js';
import * as q from './queries.js';
import { BoundedCache } from '../../platform/bounded-cache.js';
import type { CachedReads } from '../cached-reads.js';

/** The found app, or why there is none; `retryAfterS` when the network fetched too many documents. */
export type ClientLookup = { found: true; app: AppRow } | { found: false; reason: string; retryAfterS?: number };

/** Apps people connect: they registered themselves or are named by a metadata document (spec 4.3). */
export const isConnectedApp = (app: { origin: AppOrigin }) => app.origin === 'registered' || app.origin === 'metadata';

/** A use within this long of the last one written is not written again. */
const LAST_USED_PRECISION_MS = HOUR;

const OFF = 'Apps people connect are turned off for this sign-in service.';

export class ClientDirectory {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly documents: MetadataDocuments,
    private readonly plans: PlatformPlans,
    private readonly buckets: TokenBuckets,
    private readonly reads: CachedReads,
    private readonly apis: ApiService,
  ) {}

  // When this node last recorded a use of an app: the cached row keeps the last_used_at it was
  // read with, which would otherwise make every request write again.
  readonly #markedAt = new BoundedCache<string, number>(10_000);

  /** Spec 4.1, 4.3: apps people connect work while the owner has them on and the plan includes them. */
  connectedAppsOn(tenant: Tenant): boolean {
    return tenant.settings.connected_apps === 'on' && this.plans.get(tenant.api.platform_plan).connected_apps === true;
  }

  /** The app `clientId` names at this API, fetching its metadata document when it is one and stale. */
  async find(tenant: Tenant, clientId: string, clientIp: string): Promise<ClientLookup> {
    if (!isMetadataUrl(clientId)) {
      const app = await this.reads.app(tenant.api.id, clientId);
      if (!app) return { found: false, reason: 'unknown' };
      if (isConnectedApp(app) && !this.connectedAppsOn(tenant)) return { found: false, reason: OFF };
      return { found: true, app };
    }
    const problem = metadataUrlProblem(clientId);
    if (problem) return { found: false, reason: `The client_id is not a usable metadata document URL: it ${problem}.` };
    if (!this.connectedAppsOn(tenant)) return { found: false, reason: OFF };
    const known = await this.reads.app(tenant.api.id, clientId);
    const now = this.clock.now();
    // A blocked app stays blocked whatever its document says; there is nothing to fetch for it.
    if (known && (known.blocked || (known.metadata_expires_at !== null && known.metadata_expires_at > now))) return { found: true, app: known };
    const limit = await this.buckets.take(METADATA_FETCHES, networkOf(clientIp));
    if (!limit.allowed) return { found: false, reason: `Too many client metadata documents were fetched for your network; try again in ${limit.retryAfterS} seconds.`, retryAfterS: limit.retryAfterS };
    const fetched = await this.documents.fetch(clientId);
    if (!fetched.ok) return { found: false, reason: `The app's client metadata document could not be used: ${fetched.reason}.` };
    const fetchedAt = this.clock.now();
    const { metadata } = fetched;
    const row = {
      id: clientId,
      api_id: tenant.api.id,
      name: metadata.clientName!,
      kind: metadata.applicationType,
      origin: 'metadata' as const,
      redirect_uris: metadata.redirectUris,
      refresh_tokens: metadata.refreshTokens,
      own_app: false,
      secret_hash: null,
      previous_secret_hash: null,
      previous_secret_valid_until: null,
      last_used_at: null,
      created_at: fetchedAt,
      updated_at: fetchedAt,
      metadata_expires_at: addMs(fetchedAt, fetched.lifetimeMs),
    };
    // A known app's row is brought up to date; a new one takes a place among the 1000 apps people
    // connect (spec 8, issue 26), made the way registration makes one, under the same lock.
    const app = known
      ? await q.saveMetadataApp(this.db, row)
      : await this.db.transaction().execute(async (trx) => {
          await this.apis.lockAmongWriters(trx, tenant.api.id);
          // Another node may have made it meanwhile: then it is brought up to date, not counted again.
          const madeMeanwhile = await q.connectedAppExists(trx, tenant.api.id, clientId);
          if (!madeMeanwhile && !(await q.makeRoomForConnectedApp(trx, tenant.api.id))) return 'full' as const;
          return q.saveMetadataApp(trx, row);
        });
    if (app === 'full') return { found: false, reason: `This sign-in service holds ${MAX_CONNECTED_APPS} apps people connect and none of them can be replaced` };
    if (!app) return { found: false, reason: 'unknown' };
    return { found: true, app };
  }

  /** Records that an app was used (spec 4.3: the 30-day cleanup counts from it), once an hour at most. */
  async markUsed(tenant: Tenant, app: Pick<AppRow, 'id' | 'last_used_at'>): Promise<void> {
    const now = this.clock.now();
    const key = `${tenant.api.id} ${app.id}`;
    const last = Math.max(app.last_used_at?.getTime() ?? 0, this.#markedAt.get(key) ?? 0);
    if (now.getTime() - last < LAST_USED_PRECISION_MS) return;
    await q.markUsed(this.db, tenant.api.id, app.id, now);
    this.#markedAt.set(key, now.getTime());
  }
}
