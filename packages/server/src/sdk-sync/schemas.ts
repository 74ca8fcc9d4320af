import { Type } from '@sinclair/typebox';
import { Timestamp } from '../console/common-schemas.js';

// The records of GET /sdk/v1/changes (service-spec 2.5, wire protocol section 2), as the OpenAPI
// describes them and the serializer writes them.
const WireInt = (options: object = {}) => Type.Integer({ minimum: 0, maximum: 9007199254740991, ...options });
const WireAmount = () => Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991 });

export const SdkEffective = Type.Object({
  rps: WireInt({ description: '0 = no limit' }),
  price_per_request_micro: WireInt(),
  monthly_quota: Type.Union([WireInt(), Type.Null()], { description: 'null: no quota; 0 blocks every request' }),
  billing_model: Type.String(),
  source: Type.String(),
});

export const SdkCustomer = Type.Object({
  id: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('pending'), Type.Literal('suspended')], { description: '`pending` only with shape=full' }),
  credit_balance_micro: WireAmount(),
  balance_seq: WireInt({ description: 'grows with every balance change; orders balance observations of one customer' }),
  month_requests: WireInt(),
  usage_policy_id: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  policy_valid_until: Type.Union([Timestamp, Type.Null()]),
  effective: SdkEffective,
  token_key_id: Type.Optional(Type.String({ description: 'shape=full only' })),
});

export const SdkKey = Type.Object({
  id: Type.String({ format: 'uuid' }),
  customer_id: Type.String(),
  key_hash: Type.String({ description: 'lowercase SHA-256 hex of the full API key' }),
});

export const SdkBalance = Type.Object({ id: Type.String(), credit_balance_micro: WireAmount(), balance_seq: WireInt() });

export const SdkAllowance = Type.Object({
  limit: WireInt(),
  used: WireInt(),
  remaining: WireInt(),
  period_start: Timestamp,
  period_end: Timestamp,
  hard_cap: Type.Boolean(),
});

/** Largest page of changes; a page counts changed objects, each at most once. */
export const MAX_CHANGES_LIMIT = 10_000;
export const DEFAULT_CHANGES_LIMIT = 1_000;
/** Longest hold of a long poll, in seconds (issue 27). */
export const MAX_CHANGES_WAIT_S = 30;

export const ChangesQuery = Type.Object({
  since: Type.String({ maxLength: 15, pattern: '^(0|[1-9][0-9]{0,14})$', description: "a cursor: a snapshot's sync_cursor or a previous answer's cursor" }),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CHANGES_LIMIT, default: DEFAULT_CHANGES_LIMIT, description: 'changed objects per answer' })),
  shape: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('wire')])),
  wait: Type.Optional(Type.Integer({
    minimum: 0,
    maximum: MAX_CHANGES_WAIT_S,
    description: 'seconds to hold the request while nothing is above since: it answers as soon as a change of the API commits on any node, or the empty page at the same cursor when the wait ends',
  })),
});

export const ChangesBody = Type.Object({
  cursor: Type.String({ description: 'pass as since next time' }),
  has_more: Type.Boolean({ description: 'more changes wait: ask again at once with cursor' }),
  generated_at: Timestamp,
  tenant_id: Type.String(),
  tenant_name: Type.String(),
  tenant_status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  billable_status_codes: Type.Array(Type.Integer({ minimum: 100, maximum: 599 })),
  platform_monthly_limit: WireInt(),
  platform_monthly_used: WireInt(),
  platform_monthly_remaining: WireInt(),
  platform_period_end: Timestamp,
  platform_hard_cap: Type.Boolean(),
  platform_monthly_allowance: SdkAllowance,
  customers: Type.Array(SdkCustomer, { description: 'added or changed, with their balances' }),
  keys: Type.Array(SdkKey, { description: 'added' }),
  removed_keys: Type.Array(Type.String(), { description: 'revoked or deleted key ids' }),
  removed_customers: Type.Array(Type.String(), { description: 'archived or deleted customer ids; their keys go with them' }),
  balances: Type.Array(SdkBalance, { description: 'moved balances of customers not in customers' }),
});
