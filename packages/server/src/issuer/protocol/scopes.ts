import { OAuthError } from './oauth-error.js';

/** Standard scopes a sign-in service supports, in discovery's order (spec 4.1). */
export const STANDARD_SCOPES = ['openid', 'profile', 'email', 'offline_access', 'roles'] as const;
/** Scopes of OpenID Connect we do not support: dropped from a request without error (spec 4.3). */
const DROPPED_SCOPES = new Set(['phone', 'address']);
/** The reserved scope of the account API for end-user keys (spec 4.5): web apps only, never with a resource. */
export const API_KEYS_SCOPE = 'platform:api_keys';
/** Names no permission may take: every scope the protocol gives a meaning of its own. */
export const RESERVED_SCOPES: ReadonlySet<string> = new Set([...STANDARD_SCOPES, ...DROPPED_SCOPES, API_KEYS_SCOPE]);

export interface ScopeContext {
  appKind: 'web' | 'spa' | 'native';
  /** The app may get refresh tokens (offline_access). */
  refreshTokens: boolean;
  /** The owner's own app (may get `roles`). */
  ownApp: boolean;
  /** An app people connect (spec 4.5: third-party apps cannot obtain platform:api_keys). */
  connected: boolean;
  /** Permissions the named server exposes; null when no resource was named. */
  serverPermissions: ReadonlySet<string> | null;
  /** Every permission any server of the API exposes. */
  knownPermissions: ReadonlySet<string>;
}

/**
 * The scopes an authorization request may ask for (spec 4.3): unsupported standard scopes dropped,
 * an unknown scope or a permission without (or not exposed by) the resource refused with
 * invalid_scope, and scopes this app may not have (roles, offline_access) left out.
 */
export function requestedScopes(scope: string, context: ScopeContext): string[] {
  const out: string[] = [];
  for (const name of scope.split(' ')) {
    if (name === '' || out.includes(name) || DROPPED_SCOPES.has(name)) continue;
    if ((STANDARD_SCOPES as readonly string[]).includes(name)) {
      if (name === 'offline_access' && !context.refreshTokens) continue;
      if (name === 'roles' && !context.ownApp) continue;
      out.push(name);
    } else if (name === API_KEYS_SCOPE) {
      // Spec 4.5: third-party apps cannot; an app the owner registered but marked not their own
      // (own_app false) is a third party's too, as the roles scope already reads it.
      if (context.appKind !== 'web' || context.connected || !context.ownApp) throw new OAuthError('invalid_scope', `${API_KEYS_SCOPE} is for the owner's own web applications only`);
      if (context.serverPermissions) throw new OAuthError('invalid_scope', `${API_KEYS_SCOPE} cannot be combined with resource`);
      out.push(name);
    } else if (context.knownPermissions.has(name)) {
      if (!context.serverPermissions) throw new OAuthError('invalid_scope', `The permission ${name} needs a resource`);
      if (!context.serverPermissions.has(name)) throw new OAuthError('invalid_scope', `The resource does not expose ${name}`);
      out.push(name);
    } else {
      throw new OAuthError('invalid_scope', `Unknown scope ${name.slice(0, 100)}`);
    }
  }
  return out;
}

/** The scopes granted: standard ones as asked, permissions only those the person holds (no error). */
export function grantableScopes(requested: readonly string[], held: ReadonlySet<string>): string[] {
  return requested.filter((name) => (STANDARD_SCOPES as readonly string[]).includes(name) || name === API_KEYS_SCOPE || held.has(name));
}

export function isPermission(scope: string): boolean {
  return !(STANDARD_SCOPES as readonly string[]).includes(scope) && scope !== API_KEYS_SCOPE;
}
