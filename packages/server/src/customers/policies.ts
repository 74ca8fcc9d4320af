import { randomUUID } from 'node:crypto';
import type { Trx } from '../platform/db/database.js';
import { effectiveLimits, planInForce, sameTerms, type EffectiveLimits } from './effective.js';
import * as q from './queries.js';

type PolicyRow = Awaited<ReturnType<typeof q.customersForPolicies>>[number];

function currentTerms(row: PolicyRow): EffectiveLimits | null {
  if (!row.policy_id) return null;
  return {
    rps: row.policy_rps!,
    price_per_request_micro: row.policy_price_per_request_micro!,
    monthly_quota: row.policy_monthly_quota,
    source: row.policy_source as EffectiveLimits['source'],
    billing_model: row.policy_billing_model as EffectiveLimits['billing_model'],
    billable_status_codes: row.policy_billable_status_codes ?? [],
  };
}

/**
 * Gives each customer whose terms changed a new immutable usage policy. Policies are never edited,
 * so usage reported late still names, and is billed at, the terms it was admitted under.
 */
export async function refreshPolicies(
  trx: Trx,
  api: { id: string; price_per_request_micro: number; rps: number; monthly_quota: number; billable_status_codes: number[]; payg_enabled: boolean },
  customerIds: string[] | null,
  at: Date,
): Promise<void> {
  const rows = await q.customersForPolicies(trx, api.id, customerIds);
  const inserts = [];
  const pairs = [];
  for (const row of rows) {
    const terms = effectiveLimits({
      api,
      plan: planInForce(row) ? { price_per_request_micro: row.plan_price_per_request_micro, rps: row.plan_rps, monthly_quota: row.plan_monthly_quota } : null,
      custom: { price_per_request_micro: row.custom_price_per_request_micro, rps: row.custom_rps, monthly_quota: row.custom_monthly_quota },
    });
    const current = currentTerms(row);
    if (current && sameTerms(current, terms)) continue;
    const id = randomUUID();
    inserts.push({ id, api_id: api.id, customer_id: row.id, ...terms, created_at: at });
    pairs.push({ customerId: row.id, policyId: id });
  }
  for (let i = 0; i < inserts.length; i += 1000) {
    await q.insertPolicies(trx, inserts.slice(i, i + 1000));
    await q.assignPolicies(trx, api.id, pairs.slice(i, i + 1000));
  }
}
