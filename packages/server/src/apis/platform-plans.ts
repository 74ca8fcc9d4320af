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
}

const defaultFile = fileURLToPath(new URL('../../../platform-plans.json', import.meta.url));

/**
 * The catalogue, read once from a JSON file the operator may replace (PLATFORM_PLANS_FILE).
 * It must contain `free`: every API starts on it.
 */
export class PlatformPlans {
  readonly list: PlatformPlan[];
  constructor(file: string = defaultFile) {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { plans: PlatformPlan[] };
    for (const plan of parsed.plans) {
      for (const key of ['monthly_requests', 'max_customers', 'price_monthly_cents'] as const) {
        if (!Number.isSafeInteger(plan[key]) || plan[key] < 0) throw new Error(`platform plan ${plan.code}: ${key} must be a whole number`);
      }
    }
    if (!parsed.plans.some((p) => p.code === 'free')) throw new Error(`platform plans file ${file} has no "free" plan`);
    this.list = parsed.plans;
  }
  get(code: string): PlatformPlan {
    return this.list.find((p) => p.code === code) ?? this.list.find((p) => p.code === 'free')!;
  }
  /** PlatformPlanOut; purchasable needs the payments connection, which is not configured yet. */
  toOut(plan: PlatformPlan, purchasable: boolean) {
    const { hard_cap: _hardCap, ...out } = plan;
    return { ...out, purchasable: purchasable && plan.price_monthly_cents > 0 };
  }
}
