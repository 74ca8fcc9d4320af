import { Type } from '@sinclair/typebox';
import { Body, RoleName, Timestamp } from '../console/common-schemas.js';

const Int64 = (options: object = {}) => Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991, ...options });
/** An http(s) address, or empty to clear it. */
const WebUrl = Type.Union([Type.Literal(''), Type.String({ maxLength: 300, format: 'http-url', pattern: '^https?://' })]);
export const StatusCode = Type.Integer({ minimum: 100, maximum: 599 });

export const DomainOut = Type.Object({
  status: Type.Union(['none', 'pending', 'verified', 'active', 'failed'].map((s) => Type.Literal(s))),
  cname_target: Type.String(),
  allowed: Type.Boolean(),
  domain: Type.Optional(Type.String()),
  error: Type.Optional(Type.String()),
  txt_name: Type.Optional(Type.String()),
  txt_value: Type.Optional(Type.String()),
  checked_at: Type.Optional(Timestamp),
});
export const PaymentsOut = Type.Object({
  configured: Type.Boolean(),
  connected: Type.Boolean(),
  livemode: Type.Boolean(),
  charges_enabled: Type.Boolean(),
  account_id: Type.Optional(Type.String()),
  account_name: Type.Optional(Type.String()),
  connected_at: Type.Optional(Timestamp),
});
export const PlatformPlanOut = Type.Object({
  code: Type.String(),
  name: Type.String(),
  price_monthly_cents: Type.Integer(),
  monthly_requests: Int64(),
  max_customers: Type.Integer(),
  custom_domain: Type.Boolean(),
  teams: Type.Boolean(),
  remove_branding: Type.Boolean(),
  connected_apps: Type.Boolean({ description: 'apps people connect (dynamic registration, client ID metadata documents) may be turned on' }),
  end_user_keys: Type.Boolean({ description: 'people may make their own API keys (spec 5.6) when the owner turns keys on' }),
  purchasable: Type.Boolean(),
});

export const ApiOut = Type.Object({
  id: Type.String(),
  workspace_id: Type.String(),
  slug: Type.String(),
  name: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('suspended')]),
  suspended_reason: Type.Optional(Type.String()),
  portal_url: Type.String(),
  tagline: Type.String(),
  accent_color: Type.String(),
  support_email: Type.String(),
  website_url: Type.String(),
  docs_url: Type.String(),
  terms_url: Type.String(),
  privacy_url: Type.String(),
  logo_url: Type.Optional(Type.String()),
  signup_mode: Type.Union([Type.Literal('open'), Type.Literal('approval'), Type.Literal('invite')]),
  api_base_url: Type.String(),
  key_header: Type.String(),
  payg_enabled: Type.Boolean(),
  plans_enabled: Type.Boolean(),
  price_per_request_micro: Int64(),
  rps: Type.Integer(),
  monthly_quota: Int64(),
  welcome_credit_micro: Int64(),
  billable_status_codes: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  topup_amounts_cents: Type.Union([Type.Array(Type.Integer()), Type.Null()]),
  min_topup_cents: Type.Integer(),
  low_balance_micro: Int64(),
  auto_recharge_allowed: Type.Boolean(),
  secret_prefix: Type.String(),
  domain: DomainOut,
  plan: PlatformPlanOut,
  plan_status: Type.Union([Type.Literal('active'), Type.Literal('past_due'), Type.Literal('canceled')]),
  plan_grace_until: Type.Optional(Timestamp),
  plan_period_end: Type.Optional(Timestamp),
  payments: PaymentsOut,
  role: RoleName,
  previous_secret_valid_until: Type.Optional(Timestamp),
  first_usage_at: Type.Optional(Timestamp),
  sdk_first_seen_at: Type.Optional(Timestamp),
  sdk_last_seen_at: Type.Optional(Timestamp),
  sdk_agent: Type.Optional(Type.String()),
  created_at: Timestamp,
});

export const ApiSummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  status: Type.String(),
  portal_url: Type.String(),
  plan_code: Type.String(),
  customers: Int64(),
  month_requests: Int64(),
  created_at: Timestamp,
  logo_url: Type.Optional(Type.String()),
  sdk_last_seen_at: Type.Optional(Timestamp),
});

// Names are stored trimmed, so a name must hold a non-space character: without the pattern "   "
// passed minLength 1 and was stored as an empty name, below the spec's 1-character bound (2.1).
const ApiName = Type.String({ minLength: 1, maxLength: 80, pattern: '\\S' });

export const CreateAPIInBody = Body({
  name: ApiName,
  preset: Type.Union([Type.Literal('payg'), Type.Literal('free'), Type.Literal('subscriptions')], { default: 'payg' }),
  api_base_url: Type.Optional(WebUrl),
  slug: Type.Optional(Type.String({ maxLength: 40, description: 'generated from the name when empty' })),
});
export const CreatedAPIBody = Type.Object({ api: ApiOut, secret: Type.String({ description: 'the SDK secret key' }) });

export const UpdateAPIInBody = Body({
  accent_color: Type.Optional(Type.String({ maxLength: 7, pattern: '^#[0-9a-fA-F]{6}$' })),
  api_base_url: Type.Optional(WebUrl),
  auto_recharge_allowed: Type.Optional(Type.Boolean()),
  billable_status_codes: Type.Optional(Type.Array(StatusCode, { maxItems: 40, uniqueItems: true })),
  docs_url: Type.Optional(WebUrl),
  key_header: Type.Optional(Type.String({ minLength: 1, maxLength: 40, pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" })),
  low_balance_micro: Type.Optional(Int64({ minimum: 0 })),
  min_topup_cents: Type.Optional(Type.Integer({ minimum: 100, maximum: 100000 })),
  monthly_quota: Type.Optional(Int64({ minimum: 0, description: '0 removes the quota' })),
  name: Type.Optional(ApiName),
  payg_enabled: Type.Optional(Type.Boolean()),
  plans_enabled: Type.Optional(Type.Boolean()),
  price_per_request_micro: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000000 })),
  privacy_url: Type.Optional(WebUrl),
  rps: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000, description: '0 = no limit' })),
  // Fields past rps (the spec leaves them open; docs/decisions.md):
  secret_prefix: Type.Optional(Type.String({ maxLength: 10, pattern: '^[a-z][a-z0-9]{1,9}$', description: 'prefix of new customer keys' })),
  signup_mode: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('approval'), Type.Literal('invite')])),
  support_email: Type.Optional(Type.Union([Type.Literal(''), Type.String({ maxLength: 254, format: 'email' })])),
  tagline: Type.Optional(Type.String({ maxLength: 200 })),
  terms_url: Type.Optional(WebUrl),
  topup_amounts_cents: Type.Optional(Type.Array(Type.Integer({ minimum: 100, maximum: 100000 }), { maxItems: 10, uniqueItems: true })),
  website_url: Type.Optional(WebUrl),
  welcome_credit_micro: Type.Optional(Int64({ minimum: 0, maximum: 100000000000 })),
});

export const SecretBody = Type.Object({ secret: Type.String() });
export const RotateInBody = Body({ grace_hours: Type.Integer({ minimum: 0, maximum: 168, default: 24, description: 'how long the old secret keeps working' }) });
// null removes the logo (nullable like LimitsBody's fields; spec 2.1 LogoBody shows only the string).
export const LogoBody = Body({ logo_url: Type.Union([Type.String({ maxLength: 2000, format: 'uri', pattern: '^https://' }), Type.Null()], { description: 'an https address, or null to remove the logo' }) });
export const LogoQuery = Type.Object({ v: Type.Optional(Type.String({ maxLength: 64, description: 'any value; a new one when the logo changes' })) });
export const SuspendInBody = Body({ reason: Type.Optional(Type.String({ maxLength: 300 })) });
export const SlugBody = Type.Object({ slug: Type.String(), available: Type.Boolean(), reason: Type.Optional(Type.String()) });
export const ApiParams = Type.Object({ api: Type.String({ maxLength: 64 }) });
