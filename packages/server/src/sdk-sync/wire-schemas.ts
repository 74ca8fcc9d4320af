import { MAX_USAGE_COUNT, MAX_WIRE_INT, type SnapshotBody as ProtocolSnapshot, type UsageAnswer as ProtocolUsageAnswer, type VerifyBody as ProtocolVerify } from '@gatehouse/protocol';
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { TEXT_RULE_IN_HANDLER } from '../platform/http/validation.js';

// The SDK sync records (spec 2.5; shared/spec/sdk-wire-protocol.md sections 2 to 4) as one set of
// schemas: the OpenAPI document's `sdk` operations describe them (registered by name in app.ts),
// the item parser of usage reports checks each item against UsageItem's properties
// (usage-items.ts), the server's types are checked against them below, and the tests validate
// every record the server serves against them (test/money/sdk-openapi.test.ts). They describe,
// they never shape: the routes keep serializing with JSON.stringify, so what SDKs receive is
// what it was byte for byte (wire protocol section 2 forbids, for example, `5.0` for 5).

/** A wire "int": a JSON integer from 0 to 2^53 - 1. */
const WireCount = (description?: string) => Type.Integer({ minimum: 0, maximum: MAX_WIRE_INT, ...(description ? { description } : {}) });
const WireTime = (description?: string) => Type.String({ format: 'date-time', ...(description ? { description } : {}) });
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';
/** Journals from before SDK 2.5 keep their old keys (wire protocol section 4): any short token. */
const LEGACY_KEY_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
/** YYYY-MM-DDTHH:00:00Z, or +00:00 from migrated journals (wire protocol section 4). */
const HOUR_STAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:00:00(?:\\.0+)?(?:Z|\\+00:00)$';
const Uuid = (description?: string) => Type.String({ pattern: UUID_PATTERN, format: 'uuid', ...(description ? { description } : {}) });

export const SdkEffective = Type.Object({
  rps: WireCount('requests per second; 0 = no limit'),
  price_per_request_micro: WireCount(),
  monthly_quota: Type.Union([WireCount(), Type.Null()], { description: 'null: no monthly quota; 0 blocks every request' }),
  billing_model: Type.Union([Type.Literal('payg'), Type.Literal('subscription'), Type.Literal('none')]),
  source: Type.Union([Type.Literal('custom'), Type.Literal('plan'), Type.Literal('payg')]),
}, { $id: 'SdkEffective', description: "The customer's limits and price in force (spec 2.2 Effective)" });

export const SdkAllowance = Type.Object({
  limit: WireCount(),
  used: WireCount(),
  remaining: WireCount('max(0, limit - used)'),
  period_start: WireTime(),
  period_end: WireTime(),
  hard_cap: Type.Boolean(),
}, { $id: 'SdkAllowance', description: 'The platform allowance of the API this month, in the nested shape older SDKs read' });

export const SdkCustomer = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 512 }),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended'), Type.Literal('pending')], { description: '`pending` only with `shape=full`; otherwise a pending customer reads `suspended`' }),
  credit_balance_micro: Type.Integer({ minimum: -MAX_WIRE_INT, maximum: MAX_WIRE_INT }),
  balance_seq: WireCount('grows with every balance change; orders balance observations of one customer'),
  month_requests: WireCount('requests this calendar month, every status'),
  usage_policy_id: Type.Union([Uuid('sent back with usage so late reports are billed at this price'), Type.Null()]),
  policy_valid_until: Type.Union([WireTime(), Type.Null()], { description: 'null exactly when usage_policy_id is' }),
  effective: Type.Ref(SdkEffective),
  token_key_id: Type.Optional(Uuid('`shape=full` only: the api_key_id of usage of requests made with access tokens')),
}, { $id: 'SdkCustomer' });

export const SdkKey = Type.Object({
  id: Uuid('sent back as api_key_id'),
  customer_id: Type.String({ description: 'a customer of the same snapshot' }),
  key_hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'lowercase SHA-256 hex of the full API key' }),
}, { $id: 'SdkKey' });

/** Spec 2.5: in a changes answer and a usage acknowledgement (issue 27). */
export const SdkBalance = Type.Object({
  id: Type.String(),
  credit_balance_micro: Type.Integer({ minimum: -MAX_WIRE_INT, maximum: MAX_WIRE_INT }),
  balance_seq: WireCount(),
}, { $id: 'SdkBalance', description: "A customer's balance as of balance_seq (spec 2.5)" });

export const SdkMember = Type.Object({ person_id: Type.String(), customer_id: Type.String() }, { $id: 'SdkMember', description: '`shape=full` only: a person of the sign-in service and the customer their calls are metered to' });
export const SdkResourceServer = Type.Object({ resource: Type.String(), permissions: Type.Array(Type.String()) }, { $id: 'SdkResourceServer' });
export const SdkSignin = Type.Object({
  issuer: Type.String({ description: "the API's issuer identifier: tokens' `iss`, and where its JWKS is (`/oauth/jwks`)" }),
  servers: Type.Array(Type.Ref(SdkResourceServer)),
}, { $id: 'SdkSignin', description: '`shape=full` only: what a server needs to accept the API\'s access tokens' });

export const SnapshotBody = Type.Object({
  generated_at: WireTime('rises strictly per API'),
  tenant_id: Type.String(),
  tenant_name: Type.String(),
  tenant_status: Type.Union([Type.Literal('active'), Type.Literal('suspended')], { description: 'suspended: every customer reads suspended' }),
  billable_status_codes: Type.Array(Type.Integer({ minimum: 100, maximum: 599 }), { uniqueItems: true, description: 'responses with these statuses are charged; every status is reported, since all count toward quotas' }),
  platform_monthly_limit: WireCount(),
  platform_monthly_used: WireCount(),
  platform_monthly_remaining: WireCount('max(0, limit - used)'),
  platform_period_end: WireTime('the first instant of next month (UTC), fixed for the period'),
  platform_hard_cap: Type.Boolean(),
  platform_monthly_allowance: Type.Ref(SdkAllowance),
  customers: Type.Array(Type.Ref(SdkCustomer)),
  keys: Type.Array(Type.Ref(SdkKey), { description: 'every key names a customer of this snapshot' }),
  signin: Type.Optional(Type.Ref(SdkSignin)),
  members: Type.Optional(Type.Array(Type.Ref(SdkMember))),
}, { $id: 'SnapshotBody' });

export const VerifyBody = Type.Union([
  Type.Object({ valid: Type.Literal(false) }),
  Type.Object({ valid: Type.Literal(true), key_id: Uuid(), customer: Type.Ref(SdkCustomer), billable_status_codes: Type.Array(Type.Integer({ minimum: 100, maximum: 599 })) }),
], { $id: 'SdkVerifyBody', description: 'An unknown, revoked or malformed hash is `{"valid": false}`' });

/**
 * One usage item. Each property's `description` is the end of the detail a rejected item gets
 * ("count must be …"): the item parser reads both from here.
 */
export const UsageItem = Type.Object({
  idempotency_key: Type.Union([Uuid(), Type.String({ pattern: LEGACY_KEY_PATTERN })], { description: 'a UUID (or an older SDK key of up to 128 letters, digits and ._:-)' }),
  api_key_id: Uuid('a UUID'),
  usage_policy_id: Type.Optional(Type.Union([Uuid(), Type.Null()], { description: 'a UUID when present' })),
  status_code: Type.Integer({ minimum: 100, maximum: 599, description: 'an integer from 100 to 599' }),
  count: Type.Integer({ minimum: 1, maximum: MAX_USAGE_COUNT, description: `an integer from 1 to ${MAX_USAGE_COUNT}` }),
  period_start: Type.String({ pattern: HOUR_STAMP_PATTERN, description: 'a UTC hour like 2026-08-04T00:00:00Z' }),
}, { $id: 'SdkUsageItem', description: 'Unknown properties are ignored. A bad item is rejected alone, never the report.' });

// Bounded as the route's own body is: at most 10,000 items, each checked alone (the marker says so).
export const UsageReport = Type.Object({ items: Type.Array(Type.Ref(UsageItem), { maxItems: 10_000 }) }, { $id: 'SdkUsageReport', [TEXT_RULE_IN_HANDLER]: 'each item is checked alone and rejected alone' });

export const UsageResult = Type.Object({
  idempotency_key: Type.String({ description: 'as the item sent it' }),
  status: Type.Union([Type.Literal('accepted'), Type.Literal('duplicate'), Type.Literal('rejected')]),
  detail: Type.Optional(Type.String({ maxLength: 2000 })),
}, { $id: 'SdkUsageResult' });

/** The acknowledgement of a usage report: one result per item. */
export const UsageAnswer = Type.Object({
  results: Type.Array(Type.Ref(UsageResult)),
  balances: Type.Optional(Type.Array(Type.Ref(SdkBalance), {
    description: 'Every customer an accepted or duplicate item names, as of after this report: its balance_seq covers those items (issue 27). Always sent by this server; absent from older ones.',
  })),
}, { $id: 'SdkUsageAnswer' });

export const SdkError = Type.Object({ error: Type.String(), detail: Type.Optional(Type.String()) }, { $id: 'SdkError', description: 'SDK answers are JSON objects, errors too (wire protocol section 1)' });

/** Every record, for app.addSchema and for validators of tests (refs resolve by $id). */
export const SDK_WIRE_SCHEMAS: TSchema[] = [SdkEffective, SdkAllowance, SdkCustomer, SdkKey, SdkBalance, SdkMember, SdkResourceServer, SdkSignin, SnapshotBody, VerifyBody, UsageItem, UsageReport, UsageResult, UsageAnswer, SdkError];

// The shared wire types of @gatehouse/protocol (which the SDK imports without TypeBox) must be the
// records above: a field added to one and not the other fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const agree = <T extends true>(value: T) => value;
agree<Same<Static<typeof SnapshotBody>, ProtocolSnapshot>>(true);
agree<Same<Static<typeof VerifyBody>, ProtocolVerify>>(true);
agree<Same<Static<typeof UsageAnswer>, ProtocolUsageAnswer>>(true);
