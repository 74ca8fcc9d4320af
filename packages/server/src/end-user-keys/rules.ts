// The rules of end-user keys as pure functions of what is known (style.md: small unit-tested
// pieces beside the logic): what a key may carry, its lifetime, its state, and its scope.
import { DAY } from '../platform/clock.js';
import { DEFAULT_LIFETIME_DAYS, MAX_LIFETIME_DAYS } from './limits.js';

export interface ExposedPermission {
  name: string;
  sensitive: boolean;
}

/**
 * The permissions a person can put on a key at one server (spec 5.6): those the server exposes
 * and the person holds, sensitive ones only while the owner allows them.
 */
export function grantablePermissions(exposed: readonly ExposedPermission[], held: ReadonlySet<string>, sensitiveAllowed: boolean): string[] {
  return exposed.filter((p) => held.has(p.name) && (sensitiveAllowed || !p.sensitive)).map((p) => p.name);
}

/**
 * A key's scope at one server right now (spec 4.3): what the key lists, the server still exposes,
 * the person still holds and the owner still allows, in the key's order. Empty when all were
 * taken away; the key stays active for routes that need no permission (spec 3).
 */
export function keyScope(keyPermissions: readonly string[], exposed: readonly ExposedPermission[], held: ReadonlySet<string>, sensitiveAllowed: boolean): string[] {
  const grantable = new Set(grantablePermissions(exposed, held, sensitiveAllowed));
  return keyPermissions.filter((name) => grantable.has(name));
}

/** The owner's lifetime setting as the account API applies it to new keys (spec 5.8, 8). */
export interface LifetimeRule {
  /** The longest lifetime in days. */
  maxDays: number;
  /** Keys may never expire (the owner set no limit). */
  allowNoExpiry: boolean;
  /** The lifetime of a key created without expires_in_days. */
  defaultDays: number;
}

export function lifetimeRule(maxLifetimeDays: number | null): LifetimeRule {
  if (maxLifetimeDays === null) return { maxDays: MAX_LIFETIME_DAYS, allowNoExpiry: true, defaultDays: DEFAULT_LIFETIME_DAYS };
  return { maxDays: maxLifetimeDays, allowNoExpiry: false, defaultDays: maxLifetimeDays };
}

/**
 * When a new key expires: `days` after `now`, never (null, where allowed), or the default when
 * not given. A string says why the value is not allowed.
 */
export function expiryOf(days: number | null | undefined, rule: LifetimeRule, now: Date): { expiresAt: Date | null } | string {
  if (days === undefined) return { expiresAt: new Date(now.getTime() + rule.defaultDays * DAY) };
  if (days === null) return rule.allowNoExpiry ? { expiresAt: null } : `keys of this service must expire, in at most ${rule.maxDays} days`;
  if (!Number.isSafeInteger(days) || days < 1) return 'must be a whole number of days, at least 1';
  if (days > rule.maxDays) return `must be at most ${rule.maxDays} days`;
  return { expiresAt: new Date(now.getTime() + days * DAY) };
}

export type KeyState = 'active' | 'expired' | 'revoked';

export function keyState(key: { revoked_at: Date | null; expires_at: Date | null }, now: Date): KeyState {
  if (key.revoked_at !== null) return 'revoked';
  if (key.expires_at !== null && key.expires_at <= now) return 'expired';
  return 'active';
}

/**
 * Whether the service lets keys work at all (spec 3 and 5.6): the API is not paused, the owner
 * turned keys on, and the platform plan includes them. While one fails keys answer inactive, and
 * are kept: listing, renaming and revoking them still work.
 */
export function keysUsable(api: { status: string }, settings: { keys_enabled: boolean }, planIncludesKeys: boolean): boolean {
  return api.status === 'active' && settings.keys_enabled && planIncludesKeys;
}
