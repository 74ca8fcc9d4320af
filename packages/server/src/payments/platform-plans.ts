import type { Clock } from '../platform/clock.js';
import { DAY } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { Problem } from '../platform/errors.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { ApiRow, ApiService } from '../apis/service.js';
import type { PlatformPlan } from '../apis/platform-plans.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import { mailEnded, PAYMENTS_ACTOR } from './platform-billing.js';
import * as mails from './mails.js';
import type { PaymentsProvider } from './provider.js';
import * as q from './queries.js';

/** The owners are warned this long before the grace of a past-due platform plan ends. */
export const GRACE_WARNING_MS = 2 * DAY;

/**
 * An owner's platform plan (issue 23 item 1): one subscription per API at the provider. The first
 * paid plan is a checkout; every later change (upgrade, downgrade, back from a cancellation) moves
 * that subscription, prorated by the provider; `free` and cancel end it at the period's end, and
 * resume undoes that before. The provider's events change the plan here, never these calls.
 */
export class PlatformPlanService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly outbox: MailOutbox,
    private readonly provider: PaymentsProvider | null,
    private readonly baseUrl: string,
    private readonly call: <T>(fn: () => Promise<T>) => Promise<T>,
    private readonly purchasable: (plan: PlatformPlan) => boolean,
    private readonly onError: (error: unknown) => void,
  ) {}

  #provider(): PaymentsProvider {
    if (!this.provider) throw new Problem('payments_not_configured', 'No payments provider is configured on this service');
    return this.provider;
  }

  async #audit(caller: Caller, api: ApiRow, action: string, summary: string, details: Record<string, unknown>) {
    await this.db.transaction().execute((trx) =>
      this.audit.record(trx, actorOf(caller), { workspaceId: api.workspace_id, action, target: { type: 'api', id: api.id }, api: { id: api.id, name: api.name }, summary, details }),
    );
  }

  /**
   * Buys or changes the API's platform plan: a checkout when it has no live subscription, else the
   * one subscription moved to the new plan (prorated) at once; `free` cancels at the period's end.
   */
  async choose(caller: Caller, apiId: string, planCode: string): Promise<{ url: string }> {
    const { api } = await this.apis.access(caller, apiId, 'owner');
    const plan = this.apis.platformPlans.list.find((p) => p.code === planCode);
    if (!plan) throw new Problem('validation', 'No platform plan has this code', [{ location: 'body.plan_code', message: 'no platform plan has this code', value: planCode }]);
    const provider = this.#provider();
    const live = await q.livePlatformSubscription(this.db, apiId);
    const back = `${this.baseUrl}/apis/${apiId}/plan`;
    if (plan.price_monthly_cents <= 0) {
      if (!live) throw new Problem('payment_state', `${api.name} is on the ${plan.name} plan already`);
      await this.cancel(caller, apiId);
      return { url: `${back}?change=canceled` };
    }
    if (!this.purchasable(plan)) throw new Problem('validation', 'This plan cannot be bought', [{ location: 'body.plan_code', message: 'this plan cannot be bought', value: planCode }]);
    if (live) {
      if (api.platform_plan === plan.code && api.plan_status !== 'canceled') throw new Problem('payment_state', `${api.name} is on the ${plan.name} plan already`);
      await this.call(() => provider.switchPlatformPlan({ apiId, subscriptionId: live.subscription_id, planCode, priceId: plan.provider_price_id ?? null, amountCents: plan.price_monthly_cents, planName: plan.name }));
      await this.#audit(caller, api, 'api.plan_switch', `Moved the platform subscription of ${api.name} to the ${plan.name} plan`, { plan_code: planCode, from: api.platform_plan, subscription_id: live.subscription_id });
      return { url: `${back}?change=done` };
    }
    const known = await q.latestPlatformCustomer(this.db, apiId);
    const email = caller.kind === 'user' ? caller.user.email : '';
    const session = await this.call(() =>
      provider.checkoutPlatformPlan({ apiId, planCode, priceId: plan.provider_price_id ?? null, amountCents: plan.price_monthly_cents, planName: plan.name, email, providerCustomerId: known?.provider_customer_id ?? null, successUrl: `${back}?checkout=done`, cancelUrl: `${back}?checkout=canceled` }),
    );
    await this.#audit(caller, api, 'api.plan_checkout', `Started checkout of the ${plan.name} platform plan for ${api.name}`, { plan_code: planCode, session_id: session.sessionId });
    return { url: session.url };
  }

  /** Cancels at the end of the paid period: the plan stays until then, then the API is on free. */
  async cancel(caller: Caller, apiId: string): Promise<void> {
    const { api } = await this.apis.access(caller, apiId, 'owner');
    const provider = this.#provider();
    const live = await q.livePlatformSubscription(this.db, apiId);
    if (!live) throw new Problem('payment_state', `${api.name} has no platform subscription to cancel`);
    if (api.plan_status === 'canceled') return;
    await this.call(() => provider.cancelSubscription({ accountId: null, subscriptionId: live.subscription_id, atPeriodEnd: true }));
    await this.#audit(caller, api, 'api.plan_cancel', `Canceled the ${api.platform_plan} platform plan of ${api.name} at the end of its period`, { subscription_id: live.subscription_id });
  }

  /** Undoes a cancellation before the period ends. */
  async resume(caller: Caller, apiId: string): Promise<void> {
    const { api } = await this.apis.access(caller, apiId, 'owner');
    const provider = this.#provider();
    const live = await q.livePlatformSubscription(this.db, apiId);
    if (!live || api.plan_status !== 'canceled') throw new Problem('payment_state', `${api.name} has no canceled platform subscription to resume`);
    await this.call(() => provider.resumeSubscription({ accountId: null, subscriptionId: live.subscription_id }));
    await this.#audit(caller, api, 'api.plan_resume', `Kept the ${api.platform_plan} platform plan of ${api.name}`, { subscription_id: live.subscription_id });
  }

  /** A duplicate subscription (two checkouts raced) is canceled at once; a failure is logged, the row stays `duplicate`. */
  async cancelDuplicates(subscriptionIds: readonly string[]): Promise<void> {
    const provider = this.provider;
    if (!provider) return;
    for (const subscriptionId of subscriptionIds) {
      await provider.cancelSubscription({ accountId: null, subscriptionId, atPeriodEnd: false }).catch(this.onError);
    }
  }

  /** Platform plans whose grace or period is over go back to `free` (the job); a past-due one is canceled at the provider. */
  async endPlans(): Promise<number> {
    const ended = await this.apis.platformPlansEnded(this.clock.now());
    const unpaid: string[] = [];
    for (const api of ended) {
      await this.db.transaction().execute(async (trx) => {
        await this.apis.lockAmongWriters(trx, api.id);
        // An event may have renewed the plan since the list was read.
        const now = await this.apis.findById(trx, api.id);
        if (!now || now.plan_status !== api.plan_status || now.platform_plan !== api.platform_plan || now.plan_grace_until?.getTime() !== api.plan_grace_until?.getTime() || now.plan_period_end?.getTime() !== api.plan_period_end?.getTime()) return;
        await this.apis.setPlatformPlan(trx, api.id, { platform_plan: 'free', plan_status: 'canceled', plan_grace_until: api.plan_grace_until, plan_period_end: api.plan_period_end });
        const current = await q.lockCurrentPlatformSubscription(trx, api.id);
        const pastDue = api.plan_status === 'past_due';
        if (current && ['trialing', 'active', 'past_due'].includes(current.status)) {
          await q.setPlatformSubscriptionStatus(trx, current.subscription_id, pastDue ? 'unpaid' : 'canceled', this.clock.now());
          if (pastDue) unpaid.push(current.subscription_id);
        }
        const why = pastDue ? 'unpaid past its grace' : 'canceled';
        await this.audit.record(trx, PAYMENTS_ACTOR, {
          workspaceId: now.workspace_id, action: 'api.plan_change', target: { type: 'api', id: api.id }, api: { id: api.id, name: now.name },
          summary: `The ${api.platform_plan} plan of ${now.name} ended (${why}); it is on free`,
          details: { from: { plan: api.platform_plan, status: api.plan_status }, to: { plan: 'free', status: 'canceled' } },
        });
        await mailEnded(trx, { apis: this.apis, outbox: this.outbox }, now, this.apis.platformPlans.get(api.platform_plan).name, why);
      });
    }
    // The provider stops retrying an invoice nobody will pay: the unpaid subscription ends there too.
    await this.cancelDuplicates(unpaid);
    if (ended.length) this.outbox.kick();
    return ended.length;
  }

  /** Owners of past-due plans whose grace ends within GRACE_WARNING_MS are mailed once (the job). */
  async warnGraces(): Promise<number> {
    const now = this.clock.now();
    const apis = await this.apis.platformGracesEndingBefore(new Date(now.getTime() + GRACE_WARNING_MS));
    let warned = 0;
    for (const sub of await q.platformGracesEndingBefore(this.db, apis.map((a) => a.id))) {
      const api = apis.find((a) => a.id === sub.api_id)!;
      await this.db.transaction().execute(async (trx) => {
        if (!(await q.claimGraceWarning(trx, sub.subscription_id, now))) return;
        for (const to of await this.apis.ownerContacts(trx, api.workspace_id)) {
          await this.outbox.enqueue(trx, mails.platformGraceEnding(to, api.name, this.apis.platformPlans.get(api.platform_plan).name, api.plan_grace_until!, this.apis.planPageUrl(api.id)));
        }
        warned++;
      });
    }
    if (warned) this.outbox.kick();
    return warned;
  }
}
