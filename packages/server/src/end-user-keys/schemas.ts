// The account API's bodies (spec 4.5) where the spec leaves their fields to us (spec 2.7 "not
// shown beyond a key's id, name, secret and prefix"): one schema validates, types and serializes
// each, so a key's hash can never leave through an answer.
import { Type, type Static } from '@sinclair/typebox';
import { MAX_KEY_NAME_LENGTH, MAX_LIFETIME_DAYS, MAX_PERMISSIONS_PER_KEY, MAX_SERVERS_PER_KEY, ROLL_GRACE_HOURS } from './limits.js';

const Timestamp = Type.String({ format: 'date-time' });
// Names are stored trimmed, so a name must hold a non-space character.
const KeyName = Type.String({ minLength: 1, maxLength: MAX_KEY_NAME_LENGTH, pattern: '\\S' });

export const NewKeyInBody = Type.Object(
  {
    name: KeyName,
    resources: Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { minItems: 1, maxItems: MAX_SERVERS_PER_KEY, uniqueItems: true }),
    permissions: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: MAX_PERMISSIONS_PER_KEY, uniqueItems: true }),
    expires_in_days: Type.Optional(Type.Union([Type.Integer({ minimum: 1, maximum: MAX_LIFETIME_DAYS }), Type.Null()])),
  },
  { additionalProperties: false },
);
export type NewKeyIn = Static<typeof NewKeyInBody>;

export const RenameInBody = Type.Object({ name: KeyName }, { additionalProperties: false });
export const RollInBody = Type.Object(
  { old_secret_lasts_hours: Type.Union(ROLL_GRACE_HOURS.map((hours) => Type.Literal(hours))) },
  { additionalProperties: false },
);
export const KeyParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 64 }) });

export const KeyOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  prefix: Type.String(),
  start: Type.String({ description: 'the prefix and the first characters of the current secret' }),
  resources: Type.Array(Type.String()),
  permissions: Type.Array(Type.String()),
  status: Type.Union([Type.Literal('active'), Type.Literal('expired'), Type.Literal('inactive')]),
  created_at: Timestamp,
  expires_at: Type.Union([Timestamp, Type.Null()]),
  last_used_at: Type.Union([Timestamp, Type.Null()]),
  created_in: Type.String({ description: 'the app the key was made in' }),
  previous_secret_expires_at: Type.Optional(Timestamp),
});
export const KeyWithSecret = Type.Object({ key: KeyOut, secret: Type.String({ description: 'the whole key, shown once' }) });
export const KeysBody = Type.Object({ keys: Type.Array(KeyOut) });
export const OptionsBody = Type.Object({
  enabled: Type.Boolean(),
  prefix: Type.String(),
  servers: Type.Array(
    Type.Object({
      resource: Type.String(),
      name: Type.String(),
      permissions: Type.Array(Type.Object({ name: Type.String(), description: Type.String(), sensitive: Type.Boolean() })),
    }),
  ),
  max_lifetime_days: Type.Integer(),
  default_lifetime_days: Type.Integer(),
  allow_no_expiry: Type.Boolean(),
  max_servers_per_key: Type.Integer(),
  max_permissions_per_key: Type.Integer(),
});
