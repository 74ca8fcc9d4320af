// Dynamic client registration (RFC 7591, spec 4.3): checks, limits, the cap of 1000 registered
// apps per service with its replacement rule, and the app's row.
import type { ApiService } from '../../apis/service.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { networkOf } from '../../platform/http/network.js';
import { newId } from '../../platform/ids.js';
import type { TokenBuckets } from '../../platform/token-bucket.js';
import type { Tenant } from '../tenant.js';
import { grantTypesOf, MetadataError, UNNAMED_APP } from './client-metadata.js';
import type { ClientDirectory } from './client-directory.js';
import { MAX_CONNECTED_APPS, REGISTRATION_RETRY_AFTER_S, REGISTRATIONS_PER_NETWORK, REGISTRATIONS_PER_SERVICE } from './limits.js';
import * as q from './queries.js';
import { checkRegistrationMetadata } from './registration-rules.js';

/** RFC 7591 3.2.1's answer, as spec 4.3 lists it. */
export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  application_type: 'native' | 'web';
  client_name: string;
  redirect_uris: string[];
  token_endpoint_auth_method: 'none';
  grant_types: string[];
  response_types: ['code'];
}

/** RFC 7591 3.2.2: a refused registration, with the status and headers of spec 7. */
export class RegistrationError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status: number,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
  }
}

const tooMany = () =>
  new RegistrationError('temporarily_unavailable', `Too many apps were registered; try again in ${REGISTRATION_RETRY_AFTER_S} seconds`, 429, { 'retry-after': String(REGISTRATION_RETRY_AFTER_S) });

export class Registration {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apis: ApiService,
    private readonly clients: ClientDirectory,
    private readonly buckets: TokenBuckets,
  ) {}

  /** Registers an app (spec 4.3), or throws a RegistrationError saying why not. */
  async register(tenant: Tenant, request: { contentType: string; body: unknown; clientIp: string }): Promise<RegisteredClient> {
    const { body, clientIp } = request;
    if (!this.clients.connectedAppsOn(tenant)) throw new RegistrationError('access_denied', 'This sign-in service does not accept apps that register themselves', 403);
    if (tenant.api.status !== 'active') throw new RegistrationError('temporarily_unavailable', 'Sign-ins are not accepted now', 503);
    if (request.contentType !== 'application/json') throw new RegistrationError('invalid_client_metadata', 'Send the client metadata as application/json', 400);
    let metadata;
    try {
      metadata = checkRegistrationMetadata(body);
    } catch (error) {
      if (error instanceof MetadataError) throw new RegistrationError(error.code, error.description, 400);
      throw error;
    }
    // Spec 8: only registrations count; the network is asked first, so one network cannot spend the service's allowance.
    if (!(await this.buckets.take(REGISTRATIONS_PER_NETWORK, networkOf(clientIp))).allowed) throw tooMany();
    if (!(await this.buckets.take(REGISTRATIONS_PER_SERVICE, tenant.api.id)).allowed) throw tooMany();
    const app = await this.db.transaction().execute(async (trx) => {
      // Registrations of one API take turns, so two at the cap cannot both pass it.
      await this.apis.lockAmongWriters(trx, tenant.api.id);
      if (!(await q.makeRoomForConnectedApp(trx, tenant.api.id))) return null;
      const now = this.clock.now();
      return q.insertConnectedApp(trx, {
        id: newId('app'),
        api_id: tenant.api.id,
        name: metadata.clientName ?? UNNAMED_APP,
        kind: metadata.applicationType,
        origin: 'registered',
        redirect_uris: metadata.redirectUris,
        refresh_tokens: metadata.refreshTokens,
        own_app: false,
        secret_hash: null,
        previous_secret_hash: null,
        previous_secret_valid_until: null,
        last_used_at: null,
        created_at: now,
        updated_at: now,
      });
    });
    if (!app) throw new RegistrationError('access_denied', `This sign-in service holds ${MAX_CONNECTED_APPS} apps people connect and none of them can be replaced`, 403);
    return {
      client_id: app.id,
      client_id_issued_at: Math.floor(app.created_at.getTime() / 1000),
      application_type: app.kind === 'web' ? 'web' : 'native',
      client_name: app.name,
      redirect_uris: app.redirect_uris,
      token_endpoint_auth_method: 'none',
      grant_types: grantTypesOf(app.refresh_tokens),
      response_types: ['code'],
    };
  }
}
