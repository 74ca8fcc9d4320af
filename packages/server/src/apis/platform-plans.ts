import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A plan of the platform itself, bought by an API owner (spec PlatformPlanOut). */
export interface PlatformPlan {
  code: string;
  name: string;
  price_monthly_cents: number;
  monthly_requests: number;
  max_customers: number;
  custom_domain: boolean;
  teams: boolean;
  remove_branding: boolean;
  /** Requests past monthly_requests are refused (true) or allowed as overage (false). */
  hard_cap: boolean;
  /**
   * Apps people connect (spec 4.1, 4.3: dynamic registration and client ID metadata documents)
   * may be turned on. A catalogue that leaves it out gives none.
   */
  connected_apps?: boolean;
  /**
   * End-user API keys (spec 5.6: keys exist only when the owner turns them on and the plan
   * includes them). A catalogue that leaves it out gives none.
   */
  end_user_keys?: boolean;
  /**
   * The monthly price on the platform's Stripe account (price_…) that sells this plan; without
   * it Stripe cannot sell the plan. The development provider sells every paid plan at its price.
   */
  provider_price_id?: string;
}

/**
 * The one plan of a self-hosted Gatehouse, used when no catalogue is configured: nothing capped
 * (0 is "no limit", as for an API's rps and monthly_quota), every feature on, no branding, nothing
 * to buy. A priced catalogue is for operators who sell Gatehouse to other owners.
 */
export const SELF_HOSTED_PLAN: PlatformPlan = {
  code: 'self_hosted',
  name: 'Self-hosted',
  price_monthly_cents: 0,
  monthly_requests: 0,
  max_customers: 0,
  custom_domain: true,
  teams: true,
  remove_branding: true,
  hard_cap: false,
  connected_apps: true,
  end_user_keys: true,
};

/** The example priced catalogue shipped with the server (docs/operations.md, "Platform plans"). */
export const PRICED_CATALOGUE_EXAMPLE = fileURLToPath(new URL('../../platform-plans.json', import.meta.url));

/** A limit of a platform plan, where 0 means none. */
export const withinPlanLimit = (used: number, limit: number) => limit === 0 || used < limit;

/**
 * The catalogue: without a file, the self-hosted plan alone; with PLATFORM_PLANS_FILE, the priced
 * plans the operator sells, read once. A priced catalogue must contain `free`: every API starts on
 * it. APIs store the code of their plan; one the catalogue lacks (`free` in a self-hosted
 * catalogue, or a plan an operator removed) reads as the catalogue's starting plan.
 */
export class PlatformPlans {
  readonly list: PlatformPlan[];
  /** True without a priced catalogue: every API is on the self-hosted plan. */
  readonly selfHosted: boolean;
  constructor(file?: string) {
    this.selfHosted = file === undefined;
    if (file === undefined) {
      this.list = [SELF_HOSTED_PLAN];
      return;
    }
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { plans: PlatformPlan[] };
    for (const plan of parsed.plans) {
      for (const key of ['monthly_requests', 'max_customers', 'price_monthly_cents'] as const) {
        if (!Number.isSafeInteger(plan[key]) || plan[key] < 0) throw new Error(`platform plan ${plan.code}: ${key} must be a whole number`);
      }
      if (plan.provider_price_id !== undefined && !/^price_[A-Za-z0-9]+$/.test(plan.provider_price_id)) throw new Error(`platform plan ${plan.code}: provider_price_id must be a price id (price_…)`);
    }
    if (!parsed.plans.some((p) => p.code === 'free')) throw new Error(`platform plans file ${file} has no "free" plan`);
    this.list = parsed.plans;
  }
  get(code: string): PlatformPlan {
    return this.list.find((p) => p.code === code) ?? (this.selfHosted ? SELF_HOSTED_PLAN : this.list.find((p) => p.code === 'free')!);
  }
  /** PlatformPlanOut; `purchasable` when the payments provider can sell it (payments/service.ts). */
  toOut(plan: PlatformPlan, purchasable: boolean) {
    const { hard_cap: _hardCap, provider_price_id: _price, ...out } = plan;
    return { ...out, connected_apps: plan.connected_apps === true, end_user_keys: plan.end_user_keys === true, purchasable: purchasable && plan.price_monthly_cents > 0 };
  }
}
