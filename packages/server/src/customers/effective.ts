// Effective limits of a customer (DESIGN section 7): each field is the customer's custom value,
// else its plan's non-null value, else the API's default. 0 means "no limit" for rps and quota.

export interface LimitSource {
  price_per_request_micro: number | null;
  rps: number | null;
  monthly_quota: number | null;
}

export interface EffectiveInput {
  /** payg_enabled false: the API's price is not charged unless a plan is in force (absent: true). */
  api: { price_per_request_micro: number; rps: number; monthly_quota: number; billable_status_codes: number[]; payg_enabled?: boolean };
  /** The customer's plan, only while the subscription to it is in force. */
  plan: LimitSource | null;
  custom: LimitSource;
}

export interface EffectiveLimits {
  rps: number;
  price_per_request_micro: number;
  /** null: no monthly quota. */
  monthly_quota: number | null;
  source: 'custom' | 'plan' | 'payg';
  billing_model: 'payg' | 'subscription' | 'none';
  billable_status_codes: number[];
}

export function hasCustomLimits(custom: LimitSource): boolean {
  return custom.price_per_request_micro !== null || custom.rps !== null || custom.monthly_quota !== null;
}

export function effectiveLimits(input: EffectiveInput): EffectiveLimits {
  const { api, plan, custom } = input;
  const pick = (field: keyof LimitSource): number => custom[field] ?? plan?.[field] ?? api[field];
  // Without pay-as-you-go the API's price is not charged (issue 13 item 8): only a plan in force,
  // or a price the owner set for this customer, makes requests cost anything.
  const apiPrice = plan !== null || api.payg_enabled !== false ? api.price_per_request_micro : 0;
  const price = custom.price_per_request_micro ?? plan?.price_per_request_micro ?? apiPrice;
  const quota = pick('monthly_quota');
  return {
    rps: pick('rps'),
    price_per_request_micro: price,
    monthly_quota: quota === 0 ? null : quota,
    source: hasCustomLimits(custom) ? 'custom' : plan ? 'plan' : 'payg',
    billing_model: plan ? 'subscription' : price > 0 ? 'payg' : 'none',
    billable_status_codes: [...api.billable_status_codes].sort((a, b) => a - b),
  };
}

/**
 * Whether a plan is in force for a customer: assigned by hand, or a provider subscription in good
 * standing. `past_due` is the grace: payments applies it for at most 7 days and then records the
 * subscription as `unpaid` (payments/subscriptions.ts, docs/decisions.md).
 */
export function planInForce(customer: { plan_id: string | null; plan_source: string; subscription_status: string | null }): boolean {
  if (!customer.plan_id) return false;
  if (customer.plan_source === 'manual') return true;
  return customer.plan_source === 'provider' && ['active', 'trialing', 'past_due'].includes(customer.subscription_status ?? '');
}

/** Two policies bill and limit the same way (a new policy is made only when this is false). */
export function sameTerms(a: EffectiveLimits, b: EffectiveLimits): boolean {
  return (
    a.rps === b.rps &&
    a.price_per_request_micro === b.price_per_request_micro &&
    a.monthly_quota === b.monthly_quota &&
    a.source === b.source &&
    a.billing_model === b.billing_model &&
    a.billable_status_codes.join(',') === b.billable_status_codes.join(',')
  );
}
