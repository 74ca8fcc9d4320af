import { Type } from '@sinclair/typebox';
import { Body, Email, Timestamp } from '../console/common-schemas.js';

const Int64 = (options: object = {}) => Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991, ...options });
const Nullable = <T extends ReturnType<typeof Type.Integer>>(schema: T) => Type.Union([schema, Type.Null()]);
export const CustomerStatus = Type.Union([Type.Literal('active'), Type.Literal('pending'), Type.Literal('suspended')]);

// Spec 2.2.
export const CustomerSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Type.String(),
  status: CustomerStatus,
  is_test: Type.Boolean(),
  balance_micro: Int64(),
  month_requests: Int64(),
  custom_limits: Type.Boolean(),
  created_at: Timestamp,
  last_used_at: Type.Optional(Timestamp),
  plan_id: Type.Optional(Type.String()),
  plan_name: Type.Optional(Type.String()),
  archived_at: Type.Optional(Type.String({ format: 'date-time', description: 'set when the customer was removed but had money, usage or keys on record' })),
});
export const CustomersBody = Type.Object({ customers: Type.Union([Type.Array(CustomerSummary), Type.Null()]), next_cursor: Type.Optional(Type.String()) });
export const CustomerKey = Type.Object({ id: Type.String(), name: Type.String(), prefix: Type.String(), created_at: Timestamp, last_used_at: Type.Optional(Timestamp) });
export const NewCustomerKey = Type.Intersect([CustomerKey, Type.Object({ key: Type.String({ description: 'shown once' }) })]);
export const MemberSummary = Type.Object({ id: Type.String(), email: Type.String(), name: Type.String(), role: Type.String(), created_at: Timestamp, last_login_at: Type.Optional(Timestamp) });
export const Effective = Type.Object({
  rps: Type.Integer(),
  price_per_request_micro: Int64(),
  source: Type.Union([Type.Literal('custom'), Type.Literal('plan'), Type.Literal('payg')]),
  billing_model: Type.Union([Type.Literal('payg'), Type.Literal('subscription'), Type.Literal('none')]),
  monthly_quota: Type.Optional(Int64()),
});
export const LimitsBody = Body({
  monthly_quota: Type.Optional(Nullable(Int64({ minimum: 0, description: '0 = no quota' }))),
  price_per_request_micro: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100000000 }))),
  rps: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 100000, description: '0 = no limit' }))),
});
export const AutoRechargeOut = Type.Object({
  enabled: Type.Boolean(),
  threshold_micro: Int64(),
  amount_cents: Type.Integer(),
  has_card: Type.Boolean(),
  failed_at: Type.Optional(Timestamp),
});
export const CustomerDetail = Type.Intersect([
  CustomerSummary,
  Type.Object({
    notes: Type.String(),
    plan_source: Type.Union([Type.Literal(''), Type.Literal('manual'), Type.Literal('provider')]),
    effective: Effective,
    custom: Type.Object({
      monthly_quota: Type.Union([Int64(), Type.Null()]),
      price_per_request_micro: Type.Union([Int64(), Type.Null()]),
      rps: Type.Union([Type.Integer(), Type.Null()]),
    }),
    auto_recharge: AutoRechargeOut,
    members: Type.Union([Type.Array(MemberSummary), Type.Null()]),
    keys: Type.Union([Type.Array(CustomerKey), Type.Null()]),
    low_balance_micro: Type.Optional(Int64()),
    provider_customer_id: Type.Optional(Type.String()),
    subscription_period_end: Type.Optional(Timestamp),
    subscription_status: Type.Optional(Type.String()),
    subscription_cancel_at_period_end: Type.Optional(Type.Boolean({ description: 'true while a subscription is canceled at the end of its period and can still be resumed' })),
  }),
]);
// Names are stored trimmed, so a name must hold a non-space character: without the pattern "   "
// passed minLength 1 and was stored empty, below the 1-character bound (spec 8, people 1..100).
const NotBlank = '\\S';
export const NewCustomerInBody = Body({ name: Type.String({ minLength: 1, maxLength: 100, pattern: NotBlank }), email: Email });
export const UpdateCustomerInBody = Body({
  status: Type.Optional(CustomerStatus),
  notes: Type.Optional(Type.String({ maxLength: 2000 })),
  plan_id: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 64 }), Type.Null()])),
  // Issue 13: this customer's low-balance line (a mail when the balance falls below it; 0 = none);
  // null goes back to the API's.
  low_balance_micro: Type.Optional(Type.Union([Int64({ minimum: 0 }), Type.Null()])),
});
export const InviteCustomerInBody = Body({ email: Email });
export const CustomerInviteOut = Type.Object({ id: Type.String(), email: Type.String(), created_at: Timestamp, expires_at: Timestamp });
export const CustomerInvitesBody = Type.Object({ invites: Type.Array(CustomerInviteOut) });
export const InviteParams = Type.Object({ api: Type.String({ maxLength: 64 }), invite: Type.String({ maxLength: 64 }) });
export const NewKeyInBody = Body({ name: Type.String({ minLength: 1, maxLength: 80, pattern: NotBlank }) });
export const TestKeyBody = Type.Object({ key: Type.String(), customer_id: Type.String(), balance_micro: Int64(), key_header: Type.String() });
export const CustomersQuery = Type.Object({
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  status: Type.Optional(CustomerStatus),
  q: Type.Optional(Type.String({ maxLength: 254 })),
  archived: Type.Optional(Type.Boolean({ default: false, description: 'true lists archived customers only; they are hidden otherwise' })),
});
export const CustomerParams = Type.Object({ api: Type.String({ maxLength: 64 }), id: Type.String({ maxLength: 64 }) });
export const KeyParams = Type.Object({ api: Type.String({ maxLength: 64 }), id: Type.String({ maxLength: 64 }), key_id: Type.String({ maxLength: 64 }) });
