import type { ApiService } from '../../apis/service.js';
import type { AuditService } from '../../audit/service.js';
import type { Caller } from '../../console/caller.js';
import type { Clock } from '../../platform/clock.js';
import { addMs, DAY, SECOND } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { signingKeysOf } from '../keys/console-queries.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import { ConnectedAppRegistry } from '../connected-apps/console.js';
import { AppRegistry } from './apps.js';
import { KeySettingsRegistry } from './key-settings.js';
import { recordChange, type RegistryDeps } from './common.js';
import * as q from './queries.js';
import { RoleRegistry } from './roles.js';
import { ServerRegistry } from './servers.js';
import { loadSettings, type SigninSettings } from './settings.js';
import { isUniqueViolation } from '../../platform/db/errors.js';

export interface SettingsChanges {
  access_token_ttl_s?: number;
  refresh_token_ttl_s?: number;
  session_ttl_s?: number;
  signups?: 'open' | 'closed';
  connected_apps?: 'on' | 'off';
  metadata_documents_unadvertised?: boolean;
  sensitive_permissions_allowed?: boolean;
}

function toSettingsOut(settings: SigninSettings) {
  return {
    access_token_ttl_s: settings.access_token_ttl_s,
    refresh_token_ttl_s: settings.refresh_token_ttl_s,
    session_ttl_s: settings.session_ttl_s,
    signups: settings.signups,
    connected_apps: settings.connected_apps,
    metadata_documents_unadvertised: settings.metadata_documents_unadvertised,
    sensitive_permissions_allowed: settings.sensitive_permissions_allowed,
    updated_at: settings.updated_at.toISOString(),
  };
}

/**
 * The owner console's side of an API's sign-in service (DESIGN 8): its settings, signing keys,
 * and, through `apps`, `servers` and `roles`, what it signs people in to.
 */
export class RegistryService {
  readonly apps: AppRegistry;
  readonly servers: ServerRegistry;
  readonly roles: RoleRegistry;
  /** Apps people connect (registered, metadata documents): list, block, unblock. */
  readonly connectedApps: ConnectedAppRegistry;
  /** End-user keys: on or off, prefix, longest lifetime, sensitive permissions. */
  readonly keySettings: KeySettingsRegistry;
  readonly #deps: RegistryDeps;

  constructor(
    db: Db,
    clock: Clock,
    audit: AuditService,
    private readonly apis: ApiService,
    private readonly signingKeys: SigningKeys,
  ) {
    this.#deps = { db, clock, audit, apis };
    this.apps = new AppRegistry(this.#deps);
    this.servers = new ServerRegistry(this.#deps);
    this.roles = new RoleRegistry(this.#deps);
    this.connectedApps = new ConnectedAppRegistry(this.#deps);
    this.keySettings = new KeySettingsRegistry(this.#deps);
  }

  async getSettings(caller: Caller, apiId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    return toSettingsOut(await loadSettings(this.#deps.db, this.#deps.clock, apiId));
  }

  async updateSettings(caller: Caller, apiId: string, changes: SettingsChanges) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const before = await loadSettings(this.#deps.db, this.#deps.clock, apiId);
    const changed = Object.fromEntries(Object.entries(changes).filter(([key, value]) => before[key as keyof SigninSettings] !== value)) as SettingsChanges;
    if (Object.keys(changed).length === 0) return toSettingsOut(before);
    const row = await this.#deps.db.transaction().execute(async (trx) => {
      const updated = await q.updateSettings(trx, apiId, { ...changed, updated_at: this.#deps.clock.now() });
      await recordChange(this.#deps, trx, caller, api, {
        action: 'signin.settings_update',
        target: { type: 'api', id: apiId },
        summary: `Changed ${Object.keys(changed).join(', ')} of the sign-in service of ${api.name}`,
        details: { changes: Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, { from: before[k as keyof SigninSettings], to: v }])) },
      });
      return updated;
    });
    return toSettingsOut(row);
  }

  /** The API's signing keys, newest first; a retired key is published until `published_until` (spec 4.3). */
  async listSigningKeys(caller: Caller, apiId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    const settings = await loadSettings(this.#deps.db, this.#deps.clock, apiId);
    const publishedFor = settings.access_token_ttl_s * SECOND + DAY;
    return (await signingKeysOf(this.#deps.db, apiId)).map((key) => ({
      kid: key.kid,
      active: key.active,
      created_at: key.created_at.toISOString(),
      ...(key.retired_at ? { retired_at: key.retired_at.toISOString(), published_until: addMs(key.retired_at, publishedFor).toISOString() } : {}),
    }));
  }

  /**
   * Retires the signing key and makes a new one (admins); the first one when the API has none.
   * Tokens signed by the old key stay valid: it stays in JWKS for the token lifetime plus 24 hours.
   */
  async rotateSigningKey(caller: Caller, apiId: string) {
    const { api } = await this.apis.access(caller, apiId, 'admin');
    // A first key made by the protocol at the same moment takes the one active slot; one more try
    // then retires that key instead.
    for (let attempt = 1; ; attempt++) {
      try {
        await this.#deps.db.transaction().execute(async (trx) => {
          await this.apis.lockAmongWriters(trx, apiId);
          const kid = await this.signingKeys.rotate(trx, apiId);
          await recordChange(this.#deps, trx, caller, api, {
            action: 'signin.signing_key_rotate',
            target: { type: 'signing_key', id: kid },
            summary: `Rotated the signing key of the sign-in service of ${api.name}`,
            details: { kid },
          });
        });
        break;
      } catch (error) {
        if (attempt >= 2 || !isUniqueViolation(error, 'signing_keys_one_active')) throw error;
      }
    }
    this.signingKeys.forget(apiId);
    return this.listSigningKeys(caller, apiId);
  }
}
