import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { fail, ok, Problem, type Result } from '../platform/errors.js';
import type { ApiRow, ApiService, PaymentsOutShape } from '../apis/service.js';
import type { PlatformPlan } from '../apis/platform-plans.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import type { CustomerService } from '../customers/service.js';
import type { PlanService } from '../plans/service.js';
import type { FollowUps, PaymentEvents, WebhookOutcome } from './events.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { PlatformPlanService } from './platform-plans.js';
import { syncPlansOf } from './plan-sync.js';
import type { CheckoutResult, CustomerRef, PaymentsProvider } from './provider.js';
import * as q from './queries.js';
import type { PaymentReceipts } from './receipts.js';
import type { AutoRecharge } from './auto-recharge.js';
import type { LowBalanceAlerts } from './low-balance.js';
import type { ProviderName } from './tables.js';
import type { RateLimitRule, RateLimits } from '../platform/rate-limit.js';

/** Stripe's checkout sessions lapse after 24 hours by default; an older one cannot be paid. */
const CHECKOUT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/**
 * Checkouts one customer opens (top-ups, plan subscriptions, saving a card), per hour. Each is a
 * call to the provider on the owner's account and a row kept here; a person pays with one or two,
 * and 300 in 1.5 s from one self-signed-up customer (issue 26 item 5) spent the owner's allowance
 * of provider calls. docs/decisions.md, "Hardening round two: console and portal".
 */
export const checkoutsPerCustomer = { name: 'checkout-customer', points: 10, durationS: 3600 } satisfies RateLimitRule;

/** The largest one-off top-up (spec 2.1: offered amounts and the minimum go up to 100000 cents). */
export const MAX_TOPUP_CENTS = 100_000;

export interface CheckoutUrls {
  successUrl: string;
  cancelUrl: string;
  /** The person who started the checkout on the portal: the receipt goes to them. */
  payer?: { personId: string; email: string };
}

/**
 * Payments (issue 13): an API's connection to the provider, platform plan checkout, and what the
 * customer portal calls to take money. Every call that moves money answers a URL or starts a
 * charge; the credit itself comes only from the provider's events (events.ts).
 */
export class PaymentsService {
  /** The owners' platform plans (upgrade, downgrade, cancel, resume). */
  readonly platformPlans: PlatformPlanService;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
    private readonly plans: PlanService,
    readonly provider: PaymentsProvider | null,
    readonly events: PaymentEvents,
    readonly receipts: PaymentReceipts,
    readonly autoRecharge: AutoRecharge,
    readonly lowBalance: LowBalanceAlerts,
    private readonly baseUrl: string,
    private readonly onError: (error: unknown) => void,
    outbox: MailOutbox,
    private readonly rateLimits: RateLimits,
  ) {
    this.platformPlans = new PlatformPlanService(db, clock, audit, apis, outbox, provider, baseUrl, (fn) => this.#provider(fn), (plan) => this.purchasable(plan), onError);
  }

  // ---- What ApiOut and ConnectionBody show ----

  async paymentsOut(apiId: string): Promise<PaymentsOutShape> {
    const configured = this.provider !== null;
    const account = await q.accountOf(this.db, apiId);
    if (!account || account.disconnected_at || account.provider !== this.provider?.name) {
      return { configured, connected: false, livemode: false, charges_enabled: false };
    }
    return {
      configured,
      connected: true,
      livemode: account.livemode,
      charges_enabled: account.charges_enabled,
      account_id: account.account_id,
      ...(account.account_name ? { account_name: account.account_name } : {}),
      connected_at: account.connected_at.toISOString(),
    };
  }

  /** A platform plan can be bought when the provider sells it: Stripe needs its price in the catalogue. */
  purchasable(plan: PlatformPlan): boolean {
    if (!this.provider || plan.price_monthly_cents <= 0) return false;
    return this.provider.name === 'dev' || !!plan.provider_price_id;
  }

  /** The API can take money now: the provider is set up and the owner's account takes charges. */
  async ready(apiId: string): Promise<boolean> {
    const out = await this.paymentsOut(apiId);
    return out.configured && out.connected && out.charges_enabled;
  }

  /** The owner's connected account, when it can take charges. */
  async #account(apiId: string): Promise<Result<{ provider: PaymentsProvider; accountId: string }>> {
    if (!this.provider) return fail('payments_not_configured', 'No payments provider is configured on this service');
    const account = await q.accountOf(this.db, apiId);
    if (!account || account.disconnected_at || account.provider !== this.provider.name || !account.charges_enabled) {
      return fail('payments_not_ready', 'The API owner has not connected a payments account that takes charges');
    }
    return ok({ provider: this.provider, accountId: account.account_id });
  }

  async #provider<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.onError(error);
      throw new Problem('provider_error', 'The payments provider refused or did not answer; try again');
    }
  }

  // ---- Console: the connection (admin) ----

  async get(caller: Caller, apiId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    return this.paymentsOut(apiId);
  }

  async connect(caller: Caller, apiId: string): Promise<{ url: string }> {
    const { api } = await this.apis.access(caller, apiId, 'admin');
    if (!this.provider) throw new Problem('payments_not_configured', 'Set STRIPE_SECRET_KEY (or run with the development provider) to connect accounts');
    const provider = this.provider;
    const existing = await q.accountOf(this.db, apiId);
    const reuse = existing && existing.provider === provider.name ? existing.account_id : null;
    const back = `${this.baseUrl}/apis/${apiId}/payments`;
    const email = caller.kind === 'user' ? caller.user.email : '';
    const result = await this.#provider(() => provider.connect({ apiId, accountId: reuse, email, returnUrl: `${back}?connect=done`, refreshUrl: `${back}?connect=again` }));
    const now = this.clock.now();
    const same = existing && existing.account_id === result.accountId && existing.provider === provider.name;
    await this.db.transaction().execute(async (trx) => {
      if (!same || existing.disconnected_at) {
        await q.upsertAccount(trx, {
          api_id: apiId, provider: provider.name, account_id: result.accountId, livemode: provider.livemode, charges_enabled: same ? existing.charges_enabled : false,
          account_name: same ? existing.account_name : null, connected_at: now, disconnected_at: null, status_event_at: same ? existing.status_event_at : null, updated_at: now,
        });
      }
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id, action: 'payments.connect', target: { type: 'api', id: apiId }, api: { id: apiId, name: api.name },
        summary: `Connected ${api.name} to a ${provider.name === 'dev' ? 'development' : 'Stripe'} payments account`, details: { account_id: result.accountId, provider: provider.name },
      });
    });
    await result.recorded?.();
    void this.syncPlans(apiId);
    return { url: result.url };
  }

  async disconnect(caller: Caller, apiId: string): Promise<void> {
    const { api } = await this.apis.access(caller, apiId, 'admin');
    const account = await q.accountOf(this.db, apiId);
    if (!account || account.disconnected_at) return;
    await this.db.transaction().execute(async (trx) => {
      await q.disconnect(trx, apiId, this.clock.now());
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id, action: 'payments.disconnect', target: { type: 'api', id: apiId }, api: { id: apiId, name: api.name },
        summary: `Disconnected the payments account of ${api.name}`, details: { account_id: account.account_id },
      });
    });
  }

  // ---- The customer portal (issue 12) calls these for a signed-in customer member ----

  async #customerRef(api: ApiRow, customerId: string): Promise<Result<CustomerRef>> {
    const customer = await this.customers.findRow(this.db, api.id, customerId);
    if (!customer) return fail('not_found', 'No such customer');
    if (customer.status !== 'active' || customer.is_test) return fail('customer_state', 'Only active customers pay');
    const known = await q.paymentCustomer(this.db, api.id, customerId);
    return ok({ apiId: api.id, customerId, email: customer.email, name: customer.name, providerCustomerId: known?.provider_customer_id ?? customer.provider_customer_id ?? null });
  }

  async #remember(apiId: string, customerId: string, accountId: string, providerCustomerId: string | null) {
    if (!providerCustomerId) return;
    const now = this.clock.now();
    await q.savePaymentCustomer(
      this.db,
      { api_id: apiId, customer_id: customerId, account_id: accountId, provider_customer_id: providerCustomerId, payment_method_id: null, subscription_id: null, subscription_event_at: null, past_due_since: null, updated_at: now },
      { account_id: accountId, provider_customer_id: providerCustomerId, updated_at: now },
    );
  }

  /** Remembers who started a checkout (the payer of its receipt), by the provider's session id. */
  async #started(input: { apiId: string; customerId: string; planId?: string; payer?: { personId: string; email: string } }, kind: 'topup' | 'subscription' | 'setup', session: CheckoutResult, amountCents: number) {
    // A plan's checkout is kept with or without a payer: the plan's withdrawal must find it.
    if (!input.payer && !input.planId) return;
    await q.insertCheckout(this.db, {
      session_id: session.sessionId, api_id: input.apiId, customer_id: input.customerId, kind, person_id: input.payer?.personId ?? null, email: input.payer?.email ?? null,
      amount_cents: amountCents, created_at: this.clock.now(), plan_id: input.planId ?? null,
    });
  }

  /**
   * A plan was deleted or deactivated (issue 23 item 4): its checkouts still open are expired at
   * the provider, so nobody pays for a plan that is gone. Best effort, after the plan's change
   * committed: a checkout the provider will not expire is logged, and a payment that still arrives
   * is refunded (deleted plan) or honoured (deactivated) by the subscription events. Stripe's
   * sessions lapse after 24 hours, so older ones are not asked about.
   */
  async expireCheckoutsOfPlan(apiId: string, planId: string): Promise<{ expired: number }> {
    const account = await q.accountOf(this.db, apiId);
    if (!this.provider || !account || account.disconnected_at) return { expired: 0 };
    const open = await q.openCheckoutsOfPlan(this.db, apiId, planId, new Date(this.clock.now().getTime() - CHECKOUT_LIFETIME_MS));
    let expired = 0;
    for (const checkout of open) {
      try {
        const outcome = await this.provider.expireCheckout({ accountId: account.account_id, sessionId: checkout.session_id });
        await q.markCheckoutExpired(this.db, apiId, checkout.session_id, this.clock.now());
        if (outcome === 'expired') expired++;
      } catch (error) {
        this.onError(new Error(`could not expire checkout ${checkout.session_id} of withdrawn plan ${planId}: ${String(error)}`));
      }
    }
    return { expired };
  }

  /** Where a portal form that starts a checkout sends the browser (its CSP form-action); null without a provider. */
  get checkoutOrigin(): string | null {
    return this.provider?.checkoutOrigin ?? null;
  }

  /**
   * What became of a top-up checkout the customer comes back from: `credited` once its payment
   * added credit, `pending` while the provider's event has not arrived, null when the session is
   * not one of this customer's.
   */
  async topUpOutcome(apiId: string, customerId: string, sessionId: string): Promise<{ state: 'credited' | 'pending'; amountCents: number } | null> {
    const receipt = await q.receiptOf(this.db, apiId, sessionId);
    if (receipt) return receipt.customer_id === customerId ? { state: 'credited', amountCents: receipt.amount_cents } : null;
    const checkout = await q.checkoutOf(this.db, apiId, sessionId);
    return checkout && checkout.customer_id === customerId && checkout.kind === 'topup' ? { state: 'pending', amountCents: checkout.amount_cents } : null;
  }

  /**
   * Spends one of the customer's checkouts of the hour, once every other check passed (so a
   * refused amount or plan costs nothing), before the provider is asked.
   */
  async #spendCheckout(apiId: string, customerId: string): Promise<Result<true>> {
    const outcome = await this.rateLimits.consume(checkoutsPerCustomer, `${apiId}:${customerId}`);
    if (outcome.allowed) return ok(true);
    const minutes = Math.ceil(outcome.retryAfterS / 60);
    return fail('rate_limited', `Too many checkouts started in the last hour (${checkoutsPerCustomer.points} at most). Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }

  async #api(apiId: string): Promise<Result<ApiRow>> {
    const api = await this.apis.findById(this.db, apiId);
    return api ? ok(api) : fail('not_found', 'No such API');
  }

  /**
   * Checkout of a one-off top-up: `amountCents` from the API's min_topup_cents to 100,000. The
   * completed payment adds amountCents × 10,000 micro units as a `topup` entry.
   */
  async checkoutTopUp(input: { apiId: string; customerId: string; amountCents: number } & CheckoutUrls): Promise<Result<{ url: string }>> {
    const api = await this.#api(input.apiId);
    if (!api.ok) return api;
    if (!api.value.payg_enabled) return fail('payment_state', 'This API does not sell prepaid credit');
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents < api.value.min_topup_cents || input.amountCents > MAX_TOPUP_CENTS) {
      return fail('validation', `A top-up is ${api.value.min_topup_cents} to ${MAX_TOPUP_CENTS} cents`, [{ location: 'body.amount_cents', message: `from ${api.value.min_topup_cents} to ${MAX_TOPUP_CENTS}`, value: input.amountCents }]);
    }
    const account = await this.#account(input.apiId);
    if (!account.ok) return account;
    const customer = await this.#customerRef(api.value, input.customerId);
    if (!customer.ok) return customer;
    const spent = await this.#spendCheckout(input.apiId, input.customerId);
    if (!spent.ok) return spent;
    const { provider, accountId } = account.value;
    const session = await this.#provider(() => provider.checkoutTopUp({ accountId, customer: customer.value, amountCents: input.amountCents, description: `${api.value.name} credit`, successUrl: input.successUrl, cancelUrl: input.cancelUrl }));
    await this.#remember(input.apiId, input.customerId, accountId, session.providerCustomerId);
    await this.#started(input, 'topup', session, input.amountCents);
    return ok({ url: session.url });
  }

  /** The provider's current price of a plan (synced first when it is missing or stale). */
  async #planPrice(apiId: string, planId: string, accountId: string): Promise<Result<{ priceId: string; name: string }>> {
    let plan = await this.plans.find(this.db, apiId, planId);
    if (!plan || !plan.active) return fail('not_found', 'No such plan');
    if (plan.price_monthly_cents <= 0) return fail('payment_state', 'A free plan needs no subscription');
    const latest = await q.latestPlanPrice(this.db, planId);
    if (!latest || latest.account_id !== accountId || latest.amount_cents !== plan.price_monthly_cents || plan.provider_price_id !== latest.price_id) {
      await this.syncPlans(apiId);
      plan = await this.plans.find(this.db, apiId, planId);
    }
    if (!plan?.provider_price_id) return fail('payments_not_ready', `The plan is not on sale at the provider yet${plan?.provider_sync_error ? `: ${plan.provider_sync_error}` : ''}`);
    return ok({ priceId: plan.provider_price_id, name: plan.name });
  }

  /** Checkout of a subscription to a plan; the portal switches an existing subscription instead. */
  async checkoutSubscription(input: { apiId: string; customerId: string; planId: string } & CheckoutUrls): Promise<Result<{ url: string }>> {
    const api = await this.#api(input.apiId);
    if (!api.ok) return api;
    const account = await this.#account(input.apiId);
    if (!account.ok) return account;
    const customer = await this.#customerRef(api.value, input.customerId);
    if (!customer.ok) return customer;
    const row = await this.customers.findRow(this.db, input.apiId, input.customerId);
    if (row?.plan_source === 'provider' && ['active', 'trialing', 'past_due'].includes(row.subscription_status ?? '')) return fail('payment_state', 'The customer has a subscription: switch it instead');
    const { provider, accountId } = account.value;
    const price = await this.#planPrice(input.apiId, input.planId, accountId);
    if (!price.ok) return price;
    const spent = await this.#spendCheckout(input.apiId, input.customerId);
    if (!spent.ok) return spent;
    const session = await this.#provider(() => provider.checkoutSubscription({ accountId, customer: customer.value, planId: input.planId, priceId: price.value.priceId, successUrl: input.successUrl, cancelUrl: input.cancelUrl }));
    await this.#remember(input.apiId, input.customerId, accountId, session.providerCustomerId);
    await this.#started(input, 'subscription', session, 0);
    return ok({ url: session.url });
  }

  async #subscription(apiId: string, customerId: string) {
    const account = await this.#account(apiId);
    if (!account.ok) return account;
    const known = await q.paymentCustomer(this.db, apiId, customerId);
    const row = await this.customers.findRow(this.db, apiId, customerId);
    if (!known?.subscription_id || row?.plan_source !== 'provider' || !['active', 'trialing', 'past_due'].includes(row.subscription_status ?? '')) {
      return fail<never>('payment_state', 'The customer has no subscription');
    }
    return ok({ ...account.value, subscriptionId: known.subscription_id });
  }

  /** Moves the customer's subscription to another plan; the provider's event then sets the plan. */
  async switchSubscription(input: { apiId: string; customerId: string; planId: string }): Promise<Result<{ switched: true }>> {
    const sub = await this.#subscription(input.apiId, input.customerId);
    if (!sub.ok) return sub;
    const { provider, accountId, subscriptionId } = sub.value;
    const price = await this.#planPrice(input.apiId, input.planId, accountId);
    if (!price.ok) return price;
    await this.#provider(() => provider.switchSubscription({ accountId, subscriptionId, apiId: input.apiId, customerId: input.customerId, planId: input.planId, priceId: price.value.priceId }));
    return ok({ switched: true });
  }

  /** Cancels at the end of the paid period (the plan stays until then) or at once. */
  async cancelSubscription(input: { apiId: string; customerId: string; atPeriodEnd?: boolean }): Promise<Result<{ canceled: true }>> {
    const sub = await this.#subscription(input.apiId, input.customerId);
    if (!sub.ok) return sub;
    const { provider, accountId, subscriptionId } = sub.value;
    await this.#provider(() => provider.cancelSubscription({ accountId, subscriptionId, atPeriodEnd: input.atPeriodEnd ?? true }));
    return ok({ canceled: true });
  }

  /** Undoes a cancellation at the end of the period, before it ends. */
  async resumeSubscription(input: { apiId: string; customerId: string }): Promise<Result<{ resumed: true }>> {
    const sub = await this.#subscription(input.apiId, input.customerId);
    if (!sub.ok) return sub;
    const row = await this.customers.findRow(this.db, input.apiId, input.customerId);
    if (!row?.subscription_cancel_at_period_end) return fail('payment_state', 'The subscription is not canceled');
    const { provider, accountId, subscriptionId } = sub.value;
    await this.#provider(() => provider.resumeSubscription({ accountId, subscriptionId }));
    return ok({ resumed: true });
  }

  /** A hosted page that saves a card for auto-recharge; the provider's event sets has_card. */
  async checkoutCardSetup(input: { apiId: string; customerId: string } & CheckoutUrls): Promise<Result<{ url: string }>> {
    const api = await this.#api(input.apiId);
    if (!api.ok) return api;
    if (!api.value.auto_recharge_allowed) return fail('payment_state', 'This API does not offer automatic top-ups');
    const account = await this.#account(input.apiId);
    if (!account.ok) return account;
    const customer = await this.#customerRef(api.value, input.customerId);
    if (!customer.ok) return customer;
    const spent = await this.#spendCheckout(input.apiId, input.customerId);
    if (!spent.ok) return spent;
    const { provider, accountId } = account.value;
    const session = await this.#provider(() => provider.checkoutCardSetup({ accountId, customer: customer.value, successUrl: input.successUrl, cancelUrl: input.cancelUrl }));
    await this.#remember(input.apiId, input.customerId, accountId, session.providerCustomerId);
    await this.#started(input, 'setup', session, 0);
    return ok({ url: session.url });
  }

  /**
   * Charges the saved card off-session (the auto-recharge job, issue 13 item 5). The credit, or
   * the failure that pauses auto-recharge, comes with the provider's event; `idempotencyKey`
   * makes a retried call the same charge.
   */
  async chargeAutoRecharge(input: { apiId: string; customerId: string; amountCents: number; idempotencyKey: string }) {
    const account = await this.#account(input.apiId);
    if (!account.ok) return account;
    if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 100 || input.amountCents > MAX_TOPUP_CENTS) return fail('validation', `An automatic top-up is 100 to ${MAX_TOPUP_CENTS} cents`);
    const known = await q.paymentCustomer(this.db, input.apiId, input.customerId);
    if (!known?.payment_method_id || known.account_id !== account.value.accountId) return fail('payment_state', 'The customer has no saved card');
    const { provider, accountId } = account.value;
    return ok(await this.#provider(() => provider.chargeOffSession({ accountId, apiId: input.apiId, customerId: input.customerId, providerCustomerId: known.provider_customer_id, paymentMethodId: known.payment_method_id!, amountCents: input.amountCents, idempotencyKey: input.idempotencyKey })));
  }

  // ---- Webhooks and plan prices ----

  /** One webhook request of a provider; `ok: false` is a bad signature (nothing was changed). */
  receiveWebhook(provider: ProviderName, rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    if (!this.provider || this.provider.name !== provider) return Promise.resolve({ ok: false });
    return this.events.receive(provider, this.provider.webhookSecrets, rawBody, signature).then((outcome) => {
      // A credit's receipt is mailed once its transaction has committed; the job retries failures.
      if (outcome.ok && !outcome.duplicate) void this.receipts.deliverPending().catch(this.onError);
      return outcome;
    }).then(async (outcome) => {
      if (outcome.ok && outcome.followUps) await this.#followUp(outcome.followUps);
      return outcome;
    });
  }

  /**
   * Before an API is deleted: its platform subscription and every customer subscription end at the
   * provider at once, without a further invoice. The first failure stops it with a problem naming
   * the subscription; those canceled before stay canceled (their events apply), nothing is deleted.
   */
  async endBilling(apiId: string): Promise<void> {
    const provider = this.provider;
    if (!provider) return;
    const failed = (what: string, error: unknown): never => {
      this.onError(error);
      throw new Problem('provider_error', `The payments provider did not cancel ${what}: ${error instanceof Error ? error.message : String(error)}. Nothing was deleted; try again.`);
    };
    // Each cancellation the provider confirmed is recorded at once (its event follows), so a delete
    // tried again after a failure does not ask to cancel it twice.
    const platform = await q.livePlatformSubscription(this.db, apiId);
    if (platform) {
      await provider.cancelSubscription({ accountId: null, subscriptionId: platform.subscription_id, atPeriodEnd: false }).catch((error) => failed(`the platform subscription ${platform.subscription_id}`, error));
      await q.setPlatformSubscriptionStatus(this.db, platform.subscription_id, 'canceled', this.clock.now());
    }
    const account = await q.accountOf(this.db, apiId);
    for (const sub of await q.liveCustomerSubscriptions(this.db, apiId)) {
      // An account disconnected from the platform cannot be acted on; its owner ends those in their own dashboard.
      if (!account || account.disconnected_at || account.account_id !== sub.account_id) continue;
      await provider.cancelSubscription({ accountId: sub.account_id, subscriptionId: sub.subscription_id!, atPeriodEnd: false }).catch((error) => failed(`the subscription ${sub.subscription_id} of customer ${sub.name} (${sub.customer_id})`, error));
      await this.db.transaction().execute((trx) => this.customers.applyProviderBilling(trx, apiId, sub.customer_id, { plan_id: null, plan_source: '', subscription_status: 'canceled' }));
    }
  }

  /** What an event asked of the provider once committed; a failure is logged (the provider's dashboard shows what is left). */
  async #followUp(followUps: FollowUps): Promise<void> {
    const provider = this.provider;
    if (!provider) return;
    await this.platformPlans.cancelDuplicates(followUps.cancelPlatform);
    for (const sub of followUps.cancel) await provider.cancelSubscription({ accountId: sub.accountId, subscriptionId: sub.subscriptionId, atPeriodEnd: false }).catch(this.onError);
    for (const payment of followUps.refund) await provider.refundInvoice(payment).catch(this.onError);
  }

  /** Makes provider prices for an API's plans that lack a current one; failures are kept on the plan and retried by the job. */
  async syncPlans(apiId: string): Promise<number> {
    if (!this.provider) return 0;
    const account = await q.accountOf(this.db, apiId);
    if (!account || account.disconnected_at || account.provider !== this.provider.name) return 0;
    try {
      return await syncPlansOf(this.db, this.clock, this.plans, this.provider, apiId, account.account_id);
    } catch (error) {
      this.onError(error);
      return 0;
    }
  }

  /** Every connected API's plans (the job). */
  async syncAllPlans(): Promise<number> {
    if (!this.provider) return 0;
    let made = 0;
    for (const apiId of await q.connectedApis(this.db, this.provider.name)) made += await this.syncPlans(apiId);
    return made;
  }

  /** Platform plans whose grace or period is over go back to `free`, and owners whose grace ends soon are warned (the job). */
  async endPlatformPlans(): Promise<number> {
    await this.platformPlans.warnGraces();
    return this.platformPlans.endPlans();
  }
}
