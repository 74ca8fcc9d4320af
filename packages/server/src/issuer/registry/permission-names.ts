// Names of the permissions a server exposes. They are scopes (spec 4.3), so they may not take the
// name of a standard or reserved scope.

/** Standard scopes of spec 4.3, the unsupported ones it drops, and the account API's (spec 4.5). */
export const RESERVED_SCOPES: ReadonlySet<string> = new Set(['openid', 'profile', 'email', 'offline_access', 'roles', 'phone', 'address', 'platform:api_keys']);

/** A scope token (RFC 6749 3.3) kept to characters that read well in a consent screen. */
export const PERMISSION_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9:._/-]{0,63}$';
