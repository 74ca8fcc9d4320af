import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { PlanService } from '../plans/service.js';
import type { PaymentsProvider } from './provider.js';
import * as q from './queries.js';

/**
 * Brings an API's plans on sale at the provider: each active paid plan needs a monthly price of
 * its current amount on the connected account. A price is never edited: a new amount (or a new
 * account) makes a new price, and subscribers of the old one keep it until they switch. A failure
 * is written on the plan (provider_sync_error) and the job tries again.
 */
export async function syncPlansOf(db: Db, clock: Clock, plans: PlanService, provider: PaymentsProvider, apiId: string, accountId: string): Promise<number> {
  let made = 0;
  for (const plan of await plans.sellable(apiId)) {
    const latest = await q.latestPlanPrice(db, plan.id);
    const current = latest && latest.account_id === accountId && latest.amount_cents === plan.price_monthly_cents;
    if (current && plan.provider_price_id === latest.price_id && !plan.provider_sync_error) continue;
    if (current) {
      await plans.recordProviderSync(apiId, plan.id, { priceId: latest.price_id, at: clock.now() });
      continue;
    }
    try {
      const productId = latest && latest.account_id === accountId ? latest.product_id : null;
      const price = await provider.createPlanPrice({ accountId, productId, apiId, planId: plan.id, planName: plan.name, amountCents: plan.price_monthly_cents });
      const at = clock.now();
      await q.insertPlanPrice(db, { plan_id: plan.id, api_id: apiId, account_id: accountId, product_id: price.productId, price_id: price.priceId, amount_cents: plan.price_monthly_cents, created_at: at });
      await plans.recordProviderSync(apiId, plan.id, { priceId: price.priceId, at });
      made++;
    } catch (error) {
      await plans.recordProviderSync(apiId, plan.id, { error: error instanceof Error ? error.message : String(error) });
    }
  }
  return made;
}
