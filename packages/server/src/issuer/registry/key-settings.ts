import type { Updateable } from 'kysely';
import type { Caller } from '../../console/caller.js';
import { fail, ok, type Result } from '../../platform/errors.js';
import { recordChange, type RegistryDeps } from './common.js';
import * as q from './queries.js';
import { loadSettings, type SigninSettings } from './settings.js';
import type { SigninSettingsTable } from './tables.js';

/** What the owner may change of end-user keys (DESIGN 8 key-settings, spec 5.8). */
export interface KeySettingsChanges {
  enabled?: boolean;
  prefix?: string;
  max_lifetime_days?: number | null;
  sensitive_permissions_allowed?: boolean;
}

/** The key settings as columns of signin_settings. */
const COLUMN = {
  enabled: 'keys_enabled',
  prefix: 'key_prefix',
  max_lifetime_days: 'key_max_lifetime_days',
  sensitive_permissions_allowed: 'sensitive_permissions_allowed',
} as const satisfies Record<keyof KeySettingsChanges, keyof SigninSettings>;

export type KeySettingsOut = ReturnType<typeof toKeySettingsOut>;

function toKeySettingsOut(settings: SigninSettings, planIncludesKeys: boolean) {
  return {
    enabled: settings.keys_enabled,
    prefix: settings.key_prefix,
    max_lifetime_days: settings.key_max_lifetime_days,
    sensitive_permissions_allowed: settings.sensitive_permissions_allowed,
    plan_includes_keys: planIncludesKeys,
    updated_at: settings.updated_at.toISOString(),
  };
}

/**
 * End-user keys of an API's sign-in service, as its owner sets them: on or off, the prefix and the
 * longest lifetime of new keys, and whether keys may carry sensitive permissions. Keys work only
 * while they are on and the API's platform plan includes them (spec 5.6), so turning them on is
 * refused on a plan without them; turning them off, or any other change, never is.
 */
export class KeySettingsRegistry {
  constructor(private readonly deps: RegistryDeps) {}

  #planIncludesKeys(platformPlan: string): boolean {
    return this.deps.apis.platformPlans.get(platformPlan).end_user_keys === true;
  }

  async get(caller: Caller, apiId: string): Promise<KeySettingsOut> {
    const { api } = await this.deps.apis.access(caller, apiId, 'viewer');
    return toKeySettingsOut(await loadSettings(this.deps.db, this.deps.clock, apiId), this.#planIncludesKeys(api.platform_plan));
  }

  async update(caller: Caller, apiId: string, changes: KeySettingsChanges): Promise<Result<KeySettingsOut>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    const planIncludesKeys = this.#planIncludesKeys(api.platform_plan);
    const before = await loadSettings(this.deps.db, this.deps.clock, apiId);
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([field, value]) => before[COLUMN[field as keyof KeySettingsChanges]] !== value),
    ) as KeySettingsChanges;
    if (Object.keys(changed).length === 0) return ok(toKeySettingsOut(before, planIncludesKeys));
    if (changed.enabled === true && !planIncludesKeys) {
      return fail('plan_limit', `The ${api.platform_plan} platform plan does not include end-user API keys`, [{ location: 'body.enabled', message: 'the platform plan does not include end-user API keys', value: true }]);
    }
    const columns: Updateable<SigninSettingsTable> = {
      ...(changed.enabled !== undefined ? { keys_enabled: changed.enabled } : {}),
      ...(changed.prefix !== undefined ? { key_prefix: changed.prefix } : {}),
      ...(changed.max_lifetime_days !== undefined ? { key_max_lifetime_days: changed.max_lifetime_days } : {}),
      ...(changed.sensitive_permissions_allowed !== undefined ? { sensitive_permissions_allowed: changed.sensitive_permissions_allowed } : {}),
    };
    const row = await this.deps.db.transaction().execute(async (trx) => {
      const updated = await q.updateSettings(trx, apiId, { ...columns, updated_at: this.deps.clock.now() });
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin.key_settings_update',
        target: { type: 'api', id: apiId },
        summary: `Changed ${Object.keys(changed).join(', ')} of the end-user API keys of ${api.name}`,
        details: { changes: Object.fromEntries(Object.entries(changed).map(([field, to]) => [field, { from: before[COLUMN[field as keyof KeySettingsChanges]], to }])) },
      });
      return updated;
    });
    return ok(toKeySettingsOut(row, planIncludesKeys));
  }
}
