// Names of the permissions a server exposes. They are scopes (spec 4.3), so they may not take the
// name of a standard or reserved scope (protocol/scopes.ts RESERVED_SCOPES).

/** A scope token (RFC 6749 3.3) kept to characters that read well in a consent screen. */
export const PERMISSION_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9:._/-]{0,63}$';
