// The owner console's sign-in settings (DESIGN 8). Answers declare every field they may carry, so
// a secret hash or sealed key can never leave through them; secrets appear only in the answers of
// creation and rotation, once.
import { Type } from '@sinclair/typebox';
import { PERMISSION_NAME_PATTERN } from '../../issuer/registry/permission-names.js';
import { MAX_REDIRECT_URI_LENGTH } from '../../issuer/registry/redirect-uris.js';
import { Body, Timestamp } from '../common-schemas.js';

const Id = Type.String({ maxLength: 64 });
// Names are stored trimmed, so a name must hold a non-space character.
const Name = (maxLength: number) => Type.String({ minLength: 1, maxLength, pattern: '\\S' });
const Literals = <T extends string>(...values: T[]) => Type.Union(values.map((v) => Type.Literal(v)));

// ---- Settings

const settingsFields = {
  access_token_ttl_s: Type.Integer({ minimum: 60, maximum: 86400, description: 'lifetime of access tokens (at most 600 for apps people connect)' }),
  refresh_token_ttl_s: Type.Integer({ minimum: 3600, maximum: 31536000 }),
  session_ttl_s: Type.Integer({ minimum: 300, maximum: 31536000, description: 'how long a sign-in lasts on the sign-in pages' }),
  signups: Literals('open', 'closed'),
  connected_apps: Literals('on', 'off'),
  metadata_documents_unadvertised: Type.Boolean({
    description: 'discovery stops advertising client_id_metadata_document_supported, so MCP clients register instead; metadata documents are still accepted (default false)',
  }),
  sensitive_permissions_allowed: Type.Boolean({ description: 'end-user keys may carry sensitive permissions' }),
};
export const SigninSettingsOut = Type.Object({ ...settingsFields, updated_at: Timestamp });
export const SigninSettingsInBody = Body({
  access_token_ttl_s: Type.Optional(settingsFields.access_token_ttl_s),
  refresh_token_ttl_s: Type.Optional(settingsFields.refresh_token_ttl_s),
  session_ttl_s: Type.Optional(settingsFields.session_ttl_s),
  signups: Type.Optional(settingsFields.signups),
  connected_apps: Type.Optional(settingsFields.connected_apps),
  metadata_documents_unadvertised: Type.Optional(settingsFields.metadata_documents_unadvertised),
  sensitive_permissions_allowed: Type.Optional(settingsFields.sensitive_permissions_allowed),
});

// ---- End-user keys (DESIGN 8 key-settings, spec 4.4 and 5.8)

const keySettingsFields = {
  enabled: Type.Boolean({ description: 'people may make their own API keys; needs a platform plan that includes them' }),
  prefix: Type.String({ minLength: 2, maxLength: 10, pattern: '^[a-z][a-z0-9]{1,9}$', description: 'start of new keys: 2 to 10 lowercase letters or digits, starting with a letter; applies to new keys only' }),
  max_lifetime_days: Type.Union([Type.Integer({ minimum: 1, maximum: 3650 }), Type.Null()], { description: 'longest lifetime of a new key in days; null: no limit, which also allows keys that never expire; applies to new keys only' }),
  sensitive_permissions_allowed: Type.Boolean({ description: 'keys may carry sensitive permissions; turning it off removes them from every key at its next check' }),
};
export const KeySettingsOut = Type.Object({
  ...keySettingsFields,
  plan_includes_keys: Type.Boolean({ description: "the API's platform plan includes end-user keys; without it keys answer inactive" }),
  updated_at: Timestamp,
});
export const KeySettingsInBody = Body({
  enabled: Type.Optional(keySettingsFields.enabled),
  prefix: Type.Optional(keySettingsFields.prefix),
  max_lifetime_days: Type.Optional(keySettingsFields.max_lifetime_days),
  sensitive_permissions_allowed: Type.Optional(keySettingsFields.sensitive_permissions_allowed),
});

// ---- Apps

const RedirectUri = Type.String({ minLength: 1, maxLength: MAX_REDIRECT_URI_LENGTH, description: 'absolute, no fragment; https, or http on localhost, 127.0.0.1 or [::1]; native apps also a reverse-domain custom scheme' });
const RedirectUris = (minItems: number) => Type.Array(RedirectUri, { minItems, maxItems: 20, uniqueItems: true });
export const AppKind = Literals('web', 'spa', 'native');
const appFields = {
  name: Name(100),
  redirect_uris: RedirectUris(1),
  post_logout_redirect_uris: Type.Optional(RedirectUris(0)),
  refresh_tokens: Type.Optional(Type.Boolean({ description: 'the app may ask for offline_access' })),
  own_app: Type.Optional(Type.Boolean({ description: "the owner's own app may get the roles scope" })),
};
export const NewAppInBody = Body({ ...appFields, kind: AppKind }, 'kind is fixed at creation; web apps get a client secret, shown once');
export const AppChangesInBody = Body({ ...appFields, name: Type.Optional(appFields.name), redirect_uris: Type.Optional(appFields.redirect_uris) });
export const AppOut = Type.Object({
  id: Type.String({ description: 'the client_id' }),
  name: Type.String(),
  kind: AppKind,
  origin: Literals('owner', 'registered', 'metadata'),
  redirect_uris: Type.Array(Type.String()),
  post_logout_redirect_uris: Type.Array(Type.String()),
  refresh_tokens: Type.Boolean(),
  own_app: Type.Boolean(),
  blocked: Type.Boolean(),
  has_secret: Type.Boolean(),
  previous_secret_valid_until: Type.Optional(Timestamp),
  created_at: Timestamp,
  last_used_at: Type.Optional(Timestamp),
});
export const AppWithSecret = Type.Intersect([AppOut, Type.Object({ client_secret: Type.Optional(Type.String({ description: 'web apps only; shown once' })) })]);
export const AppRotated = Type.Intersect([AppOut, Type.Object({ client_secret: Type.String({ description: 'shown once' }) })]);

// ---- Apps people connect (spec 4.3): registered, or named by a client ID metadata document

export const ConnectedAppOut = Type.Object({
  client_id: Type.String({ description: 'an id given at registration, or the metadata document URL' }),
  kind: Literals('registered', 'metadata'),
  name: Type.String({ description: "the app's own name: unverified" }),
  host: Type.String({ description: "the metadata document's host, or where a registered app sends people back" }),
  application_type: Literals('native', 'web'),
  redirect_uris: Type.Array(Type.String()),
  refresh_tokens: Type.Boolean(),
  blocked: Type.Boolean(),
  people: Type.Integer({ description: 'people who connected it' }),
  created_at: Timestamp,
  last_used_at: Type.Optional(Timestamp),
});
export const ConnectedAppsBody = Type.Object({ apps: Type.Array(ConnectedAppOut), next_cursor: Type.Optional(Type.String()) });
export const ConnectedAppsQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 3000 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
export const ConnectedAppInBody = Body({ client_id: Type.String({ minLength: 1, maxLength: 2000 }) });

// ---- Servers

const Permission = Type.Object(
  {
    name: Type.String({ maxLength: 64, pattern: PERMISSION_NAME_PATTERN, description: 'a scope; not a standard scope name' }),
    description: Type.Optional(Type.String({ maxLength: 200 })),
    sensitive: Type.Optional(Type.Boolean({ description: 'end-user keys carry it only when the service allows sensitive permissions' })),
  },
  { additionalProperties: false },
);
const serverFields = {
  name: Name(100),
  resource_url: Type.String({ minLength: 1, maxLength: 2000, description: 'absolute http(s) URL, no fragment: the `resource` and token `aud`, exactly as given' }),
  permissions: Type.Optional(Type.Array(Permission, { maxItems: 100, description: 'replaces the whole list' })),
  requests_per_minute: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: 1000000 }), Type.Null()], { description: 'per person at this server; null for none' })),
};
export const NewServerInBody = Body(serverFields);
export const ServerChangesInBody = Body({ ...serverFields, name: Type.Optional(serverFields.name), resource_url: Type.Optional(serverFields.resource_url) });
export const ServerOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  resource_url: Type.String(),
  client_id: Type.String({ description: 'rs_…, for introspection' }),
  permissions: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), sensitive: Type.Boolean() })),
  requests_per_minute: Type.Union([Type.Integer(), Type.Null()]),
  previous_secret_valid_until: Type.Optional(Timestamp),
  created_at: Timestamp,
});
export const ServerWithSecret = Type.Intersect([ServerOut, Type.Object({ client_secret: Type.String({ description: 'shown once' }) })]);

// ---- Roles

const RolePermission = Type.Object({ server_id: Id, permission: Type.String({ maxLength: 64 }) }, { additionalProperties: false });
const roleFields = {
  name: Name(64),
  description: Type.Optional(Type.String({ maxLength: 300 })),
  permissions: Type.Optional(Type.Array(RolePermission, { maxItems: 500, uniqueItems: true, description: 'replaces the whole list' })),
};
export const NewRoleInBody = Body(roleFields);
export const RoleChangesInBody = Body({ ...roleFields, name: Type.Optional(roleFields.name) });
export const RoleOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  permissions: Type.Array(Type.Object({ server_id: Type.String(), permission: Type.String() })),
  people: Type.Integer({ description: 'people holding the role' }),
  created_at: Timestamp,
});

// ---- People

export const PersonStatus = Literals('active', 'suspended');
export const PersonOut = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  email_verified: Type.Boolean(),
  status: PersonStatus,
  roles: Type.Array(Type.Object({ id: Type.String(), name: Type.String() })),
  created_at: Timestamp,
  last_login_at: Type.Optional(Timestamp),
});
export const PeopleBody = Type.Object({ people: Type.Array(PersonOut), next_cursor: Type.Optional(Type.String()) });
export const PeopleQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  status: Type.Optional(PersonStatus),
  q: Type.Optional(Type.String({ maxLength: 254, description: 'part of an e-mail address or name' })),
});
export const PersonStatusInBody = Body({ status: PersonStatus }, 'suspending ends the person\'s sessions; their tokens and keys answer inactive');
export const PersonRolesInBody = Body({ role_ids: Type.Array(Id, { maxItems: 100, uniqueItems: true }) });

export const PersonSessionOut = Type.Object({
  id: Type.String({ description: 'the `sid` of the tokens issued in this session' }),
  amr: Type.Array(Type.String(), { description: 'how the person signed in (RFC 8176: pwd, otp)' }),
  auth_time: Timestamp,
  created_at: Timestamp,
  expires_at: Timestamp,
});
export const PersonSessionsBody = Type.Object({ sessions: Type.Array(PersonSessionOut) });

// ---- Signing keys

export const SigningKeyOut = Type.Object({
  kid: Type.String(),
  active: Type.Boolean({ description: 'this key signs new tokens' }),
  created_at: Timestamp,
  retired_at: Type.Optional(Timestamp),
  published_until: Type.Optional(Timestamp),
});
export const SigningKeysBody = Type.Object({ keys: Type.Array(SigningKeyOut) });

// ---- Path parameters

export const ItemParams = Type.Object({ api: Id, id: Id });
export const SessionParams = Type.Object({ api: Id, id: Id, session: Id });
