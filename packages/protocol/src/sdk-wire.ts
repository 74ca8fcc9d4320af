// SDK sync wire shapes (shared/spec/sdk-wire-protocol.md, with the spec's SnapshotBody on top).

export interface WireEffective {
  /** Requests per second; 0 = no limit. */
  rps: number;
  price_per_request_micro: number;
  /** null: no monthly quota; 0 blocks every request. */
  monthly_quota: number | null;
  billing_model: 'payg' | 'subscription' | 'none';
  source: 'custom' | 'plan' | 'payg';
}

export interface WireCustomer {
  id: string;
  /** `pending` only in the full shape (`?shape=full`); existing SDKs accept active and suspended. */
  status: 'active' | 'suspended' | 'pending';
  credit_balance_micro: number;
  balance_seq: number;
  month_requests: number;
  usage_policy_id: string | null;
  policy_valid_until: string | null;
  effective: WireEffective;
  /**
   * Full shape only: the id usage items name (as `api_key_id`) for requests this customer's people
   * made with access tokens instead of an API key (an MCP server behind sign-in). A UUID, stable
   * for the customer's life.
   */
  token_key_id?: string;
}

export interface WireKey {
  id: string;
  customer_id: string;
  key_hash: string;
}

export interface WireAllowance {
  limit: number;
  used: number;
  remaining: number;
  period_start: string;
  period_end: string;
  hard_cap: boolean;
}

/** Full shape only: a person of the sign-in service and the customer their calls are metered to. */
export interface WireMember {
  person_id: string;
  customer_id: string;
}

/** Full shape only: a server access tokens are for (RFC 8707 resource) and the permissions it exposes. */
export interface WireResourceServer {
  resource: string;
  permissions: string[];
}

/** Full shape only: what a server needs to accept the API's access tokens (spec 4.3). */
export interface WireSignin {
  /** The API's issuer identifier: tokens' `iss`, and where its JWKS is (`/oauth/jwks`). */
  issuer: string;
  servers: WireResourceServer[];
}

export interface SnapshotBody {
  generated_at: string;
  tenant_id: string;
  tenant_name: string;
  /** `active`, or `suspended` when the API is suspended (then every customer reads suspended). */
  tenant_status: 'active' | 'suspended';
  billable_status_codes: number[];
  platform_monthly_limit: number;
  platform_monthly_used: number;
  platform_monthly_remaining: number;
  platform_period_end: string;
  platform_hard_cap: boolean;
  platform_monthly_allowance: WireAllowance;
  customers: WireCustomer[];
  keys: WireKey[];
  /** Full shape only (`?shape=full`): the API's sign-in service, for servers that accept its access tokens. */
  signin?: WireSignin;
  /**
   * Full shape only: each person who belongs to a customer, once, with the customer their calls
   * are metered to; every customer named is in `customers`.
   */
  members?: WireMember[];
  /**
   * Where to follow changes from (`GET /sdk/v1/changes?since=`): every change up to it is in this
   * snapshot, none after. An opaque string of decimal digits; SDKs that do not follow ignore it.
   */
  sync_cursor?: string;
}

/** A customer whose balance moved (spec 2.5 SdkBalance); order observations by balance_seq. */
export interface WireBalance {
  id: string;
  credit_balance_micro: number;
  balance_seq: number;
}

/**
 * GET /sdk/v1/changes: what changed after a cursor, each object at most once with its newest
 * state, and the API's terms and platform numbers as a snapshot carries them.
 */
export interface ChangesBody {
  /** Pass it as `since` next time. */
  cursor: string;
  /** More changes are waiting: ask again at once with `cursor`. */
  has_more: boolean;
  generated_at: string;
  tenant_id: string;
  tenant_name: string;
  tenant_status: 'active' | 'suspended';
  billable_status_codes: number[];
  platform_monthly_limit: number;
  platform_monthly_used: number;
  platform_monthly_remaining: number;
  platform_period_end: string;
  platform_hard_cap: boolean;
  platform_monthly_allowance: WireAllowance;
  /** Customers added or changed (status, policy, plan, limits), with their balances. */
  customers: WireCustomer[];
  /** Keys added. */
  keys: WireKey[];
  /** Keys revoked or deleted: drop them. */
  removed_keys: string[];
  /** Customers removed (archived or deleted): drop them and their keys. */
  removed_customers: string[];
  /** Balances that moved, of customers not in `customers` of the same answer. */
  balances: WireBalance[];
}

export type VerifyBody =
  | { valid: false }
  | { valid: true; key_id: string; customer: WireCustomer; billable_status_codes: number[] };

export interface UsageItem {
  idempotency_key: string;
  api_key_id: string;
  usage_policy_id?: string;
  status_code: number;
  count: number;
  /** The UTC hour the request was admitted in: YYYY-MM-DDTHH:00:00Z. */
  period_start: string;
}

export type UsageItemStatus = 'accepted' | 'duplicate' | 'rejected';

export interface UsageResult {
  idempotency_key: string;
  status: UsageItemStatus;
  detail?: string;
}

export interface UsageAnswer {
  results: UsageResult[];
  /**
   * The balance of every customer an accepted or duplicate item of the report names, read after
   * the report was applied (issue 27): that balance_seq covers every such item of the customer.
   * Absent from servers older than it; SDKs that do not know it ignore it.
   */
  balances?: WireBalance[];
}

/** Largest count a single usage item may carry (wire protocol section 4). */
export const MAX_USAGE_COUNT = 10_000_000;
/** Largest integer the wire carries exactly. */
export const MAX_WIRE_INT = 9_007_199_254_740_991;
