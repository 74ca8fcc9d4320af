import { MAX_WIRE_INT, type WireCustomer } from '@gatehouse/protocol';

export interface CustomerForWire {
  id: string;
  status: 'active' | 'pending' | 'suspended';
  balance_micro: number;
  balance_seq: number;
  month_requests: number;
  policy_id: string | null;
  rps: number | null;
  price_per_request_micro: number | null;
  monthly_quota: number | null;
  billing_model: string | null;
  source: string | null;
  token_key_id: string;
}

export interface WireOptions {
  /** Our SDK asks for the spec's wider shape, with `pending` as it is. */
  full: boolean;
  apiSuspended: boolean;
  policyValidUntil: string;
}

// Stored amounts already read within ±(2^53 - 1) (platform/money.ts); these keep the wire's own
// ranges: a balance down to -(2^53 - 1), and counts from 0 (an "int" of wire protocol section 2).
/** An amount as the wire carries it (a balance, in customers and in balance records). */
export const wireAmount = (n: number) => Math.max(-MAX_WIRE_INT, Math.min(MAX_WIRE_INT, n));
const clamp = wireAmount;
const count = (n: number) => Math.max(0, clamp(n));

/**
 * A customer as the wire protocol carries it. Existing SDKs know only active and suspended, so a
 * pending customer reads suspended (its requests are refused, 403) unless the full shape is asked
 * for; a suspended API makes every customer read suspended.
 */
export function toWireCustomer(row: CustomerForWire, options: WireOptions): WireCustomer {
  const status = options.apiSuspended ? 'suspended' : row.status === 'pending' && !options.full ? 'suspended' : row.status;
  return {
    id: row.id,
    status,
    credit_balance_micro: clamp(row.balance_micro),
    balance_seq: row.balance_seq,
    month_requests: count(Number(row.month_requests)),
    usage_policy_id: row.policy_id,
    policy_valid_until: row.policy_id ? options.policyValidUntil : null,
    effective: {
      rps: row.rps ?? 0,
      price_per_request_micro: row.price_per_request_micro ?? 0,
      monthly_quota: row.monthly_quota,
      billing_model: (row.billing_model ?? 'none') as WireCustomer['effective']['billing_model'],
      source: (row.source ?? 'payg') as WireCustomer['effective']['source'],
    },
    ...(options.full ? { token_key_id: row.token_key_id } : {}),
  };
}
