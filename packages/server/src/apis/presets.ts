/** Starting settings of a new API per preset; every value is changeable afterwards (docs/decisions.md). */
export const presets = {
  payg: {
    payg_enabled: true,
    plans_enabled: false,
    price_per_request_micro: 1_000, // $0.001 a request
    rps: 10,
    monthly_quota: 0,
    welcome_credit_micro: 1_000_000, // $1 to try the API
    billable_status_codes: [200, 201, 202, 204],
    topup_amounts_cents: [1_000, 2_500, 5_000, 10_000],
    min_topup_cents: 500,
    low_balance_micro: 1_000_000,
    auto_recharge_allowed: true,
  },
  free: {
    payg_enabled: false,
    plans_enabled: false,
    price_per_request_micro: 0,
    rps: 5,
    monthly_quota: 10_000,
    welcome_credit_micro: 0,
    billable_status_codes: [],
    topup_amounts_cents: [],
    min_topup_cents: 500,
    low_balance_micro: 0,
    auto_recharge_allowed: false,
  },
  subscriptions: {
    payg_enabled: false,
    plans_enabled: true,
    price_per_request_micro: 0,
    rps: 20,
    monthly_quota: 1_000,
    welcome_credit_micro: 0,
    billable_status_codes: [200, 201, 202, 204],
    topup_amounts_cents: [],
    min_topup_cents: 500,
    low_balance_micro: 0,
    auto_recharge_allowed: false,
  },
} as const;

export type PresetName = keyof typeof presets;
