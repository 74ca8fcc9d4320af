import type { PlatformPlans } from '../apis/platform-plans.js';
import type { ServerRow } from '../issuer/protocol/client-auth.js';
import type { Tenant } from '../issuer/tenant.js';
import type { Clock } from '../platform/clock.js';
import { addMs } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { matchingSecret, presentedKeyHash } from './key-secret.js';
import { LAST_USED_PRECISION_MS } from './limits.js';
import * as q from './queries.js';
import { keyState, keysUsable } from './rules.js';

const INACTIVE = { active: false } as const;
const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** Spec 4.3's answer for an end-user key, its fields in the spec's order. */
export interface KeyIntrospection {
  active: true;
  token_use: 'api_key';
  key_id: string;
  sub: string;
  scope: string;
  aud: string | string[];
  iss: string;
  iat: number;
  exp?: number;
  requests_per_minute?: number;
}

/**
 * Judges an end-user key presented to a server at /oauth/introspect (spec 4.3). Active only while
 * the service lets keys work, the key is neither revoked nor expired (a rolled-out secret only
 * within its grace), its person is active, and it names the calling server. The scope is
 * recomputed at every check; nothing here is cached, so a revocation or a removed role shows at
 * the next check and servers see it within their 30 s of caching.
 */
export class KeyIntrospector {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly platformPlans: PlatformPlans,
  ) {}

  async judge(tenant: Tenant, server: ServerRow, value: string): Promise<KeyIntrospection | typeof INACTIVE> {
    const hash = presentedKeyHash(value);
    if (!hash) return INACTIVE;
    if (!keysUsable(tenant.api, tenant.settings, this.platformPlans.get(tenant.api.platform_plan).end_user_keys === true)) return INACTIVE;
    const key = await q.keyForIntrospection(this.db, tenant.api.id, hash, server.id, tenant.settings.sensitive_permissions_allowed);
    const now = this.clock.now();
    if (!key || !matchingSecret(hash, key, now) || keyState(key, now) !== 'active' || key.person_status !== 'active') return INACTIVE;
    if (!key.server_ids.includes(server.id)) return INACTIVE;
    if (key.last_used_at === null || key.last_used_at.getTime() <= now.getTime() - LAST_USED_PRECISION_MS) {
      await q.touchKey(this.db, tenant.api.id, key.id, now, addMs(now, -LAST_USED_PRECISION_MS));
    }
    const urls = new Map((key.servers ?? []).map((s) => [s.id, s.url]));
    const aud = key.server_ids.flatMap((id) => (urls.has(id) ? [urls.get(id)!] : []));
    const scope = new Set(key.scope ?? []);
    return {
      active: true,
      token_use: 'api_key',
      key_id: key.id,
      sub: key.person_id,
      scope: key.permissions.filter((name) => scope.has(name)).join(' '),
      // A string when the key works at one server, else every server it names (spec 4.3).
      aud: aud.length === 1 ? aud[0]! : aud,
      iss: tenant.issuer,
      iat: seconds(key.created_at),
      ...(key.expires_at ? { exp: seconds(key.expires_at) } : {}),
      ...(server.requests_per_minute !== null ? { requests_per_minute: server.requests_per_minute } : {}),
    };
  }
}
