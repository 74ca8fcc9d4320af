import type { Clock } from '../platform/clock.js';
import { addMs, DAY } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import type { ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import type { CustomerService } from '../customers/service.js';
import type { LedgerService } from '../ledger/service.js';
import type { LedgerKind } from '../ledger/tables.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import * as mails from './mails.js';
import type { PlanService } from '../plans/service.js';
import { applyPlatformSubscription } from './platform-billing.js';
import * as q from './queries.js';
import type { PaymentReceipts } from './receipts.js';
import type { AutoRecharge } from './auto-recharge.js';
import { MONEY_BOUND } from '../platform/money.js';
import { eventShapeProblem, readEvent, verifyEvent, type PaymentEvent } from './stripe-events.js';
import { nextSubscriptionState } from './subscriptions.js';
import { raisePaymentFailed } from './webhook-events.js';
import { applyDispute, applyRefund, type ReversalDeps } from './refunds.js';
import type { ProviderName } from './tables.js';

/** Credit of one cent (issue 13: a top-up adds cents × 10,000 micro units). */
export const MICRO_PER_CENT = 10_000;
/** How long a past-due subscription (a customer's, or an owner's platform plan) keeps its plan. */
export const PAST_DUE_GRACE_MS = 7 * DAY;

/**
 * What the provider is asked once the event is committed: `cancelPlatform`, duplicate platform
 * subscriptions; `cancel` and `refund`, a subscription to a plan deleted meanwhile and its payment.
 */
export interface FollowUps {
  cancelPlatform: string[];
  cancel: { accountId: string; subscriptionId: string }[];
  refund: { accountId: string; invoiceId: string; paymentIntentId: string | null }[];
}
export type WebhookOutcome = { ok: true; duplicate: boolean; outcome: string; followUps?: FollowUps } | { ok: false; malformed?: string };

/**
 * The webhook path of every provider: the signature on the raw body, then the event recorded by its
 * id and applied in one transaction. A repeat (also 20 at once: the others wait on the first's
 * insert, then find it) changes nothing; credit is a ledger entry whose ref is the provider's
 * object id, so even an event that names the same payment under another id adds nothing.
 */
export class PaymentEvents {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
    private readonly ledger: LedgerService,
    private readonly plans: PlanService,
    private readonly audit: AuditService,
    private readonly receipts: PaymentReceipts,
    private readonly autoRecharge: AutoRecharge,
    private readonly outbox: MailOutbox,
  ) {}

  async receive(provider: ProviderName, secrets: readonly string[], rawBody: Buffer, signature: string | undefined): Promise<WebhookOutcome> {
    const event = verifyEvent(rawBody, signature, secrets, this.clock.now().getTime());
    if (!event) return { ok: false };
    const malformed = eventShapeProblem(event, MONEY_BOUND, MICRO_PER_CENT);
    if (malformed) return { ok: false, malformed };
    const verified = readEvent(event);
    const result = await this.db.transaction().execute(async (trx) => {
      const fresh = await q.recordEvent(trx, { provider, event_id: verified.id, type: verified.type, account_id: verified.accountId, received_at: this.clock.now() });
      if (!fresh) return { ok: true as const, duplicate: true, outcome: 'duplicate' };
      const followUps: FollowUps = { cancelPlatform: [], cancel: [], refund: [] };
      const outcome = await this.#apply(trx, provider, verified.meaning, verified.at, followUps);
      await q.setEventOutcome(trx, provider, verified.id, outcome);
      const any = followUps.cancelPlatform.length + followUps.cancel.length + followUps.refund.length > 0;
      return { ok: true as const, duplicate: false, outcome, ...(any ? { followUps } : {}) };
    });
    // Mail an applied event queued (a failed renewal or automatic top-up) goes now that it is
    // committed; a kick with nothing queued is one cheap query, and kicks coalesce.
    if (!result.duplicate) this.outbox.kick();
    return result;
  }

  /** An event about a customer counts only from the account connected to that customer's API. */
  async #ownedBy(trx: Trx, provider: ProviderName, apiId: string, accountId: string): Promise<boolean> {
    const account = await q.accountOf(trx, apiId);
    return !!account && account.provider === provider && account.account_id === accountId;
  }

  #reversals(provider: ProviderName): ReversalDeps {
    return { ledger: this.ledger, now: () => this.clock.now(), ownedBy: (trx, apiId, accountId) => this.#ownedBy(trx, provider, apiId, accountId) };
  }

  async #credit(trx: Trx, event: { apiId: string; customerId: string }, kind: LedgerKind, amountMicro: number, ref: string, note: string): Promise<{ outcome: string; applied: boolean }> {
    const customer = await this.customers.findRow(trx, event.apiId, event.customerId);
    if (!customer) return { outcome: 'ignored: no such customer', applied: false };
    const posted = await this.ledger.post(trx, { apiId: event.apiId, customerId: event.customerId, kind, amountMicro, note, actor: 'payments', ref });
    if (!posted.ok) return { outcome: `refused: ${posted.code}`, applied: false };
    return posted.value.applied ? { outcome: `${kind} ${amountMicro}`, applied: true } : { outcome: `duplicate ref ${ref}`, applied: false };
  }

  /** A payment that bought credit: the ledger entry, and its receipt (mailed after the commit). */
  async #paid(trx: Trx, event: { accountId: string; apiId: string; customerId: string; objectId: string; amountCents: number; paymentIntentId: string | null }, kind: 'topup' | 'auto_recharge', note: string): Promise<string> {
    const credited = await this.#credit(trx, event, kind, event.amountCents * MICRO_PER_CENT, event.objectId, note);
    if (credited.applied) await this.receipts.record(trx, { apiId: event.apiId, customerId: event.customerId, ref: event.objectId, kind, accountId: event.accountId, amountCents: event.amountCents, paymentIntentId: event.paymentIntentId });
    return credited.outcome;
  }

  async #apply(trx: Trx, provider: ProviderName, event: PaymentEvent, at: Date, followUps: FollowUps): Promise<string> {
    const now = this.clock.now();
    switch (event.kind) {
      case 'ignored':
        return `ignored: ${event.reason}`;
      case 'account': {
        const rows = await q.lockAccountsByProviderId(trx, provider, event.accountId);
        const current = rows.filter((r) => !r.status_event_at || r.status_event_at <= at);
        if (!current.length) return rows.length ? 'ignored: older than the status applied' : 'ignored: no API holds this account';
        await q.updateAccountsByProviderId(trx, provider, event.accountId, { livemode: event.livemode, charges_enabled: event.chargesEnabled, account_name: event.name, status_event_at: at, updated_at: now });
        return `account charges_enabled=${event.chargesEnabled}`;
      }
      case 'account_deauthorized': {
        const rows = await q.updateAccountsByProviderId(trx, provider, event.accountId, { disconnected_at: now, charges_enabled: false, updated_at: now });
        return `disconnected ${rows.length}`;
      }
      case 'topup_paid':
        if (!(await this.#ownedBy(trx, provider, event.apiId, event.accountId))) return 'ignored: account not connected to the API';
        return this.#paid(trx, event, 'topup', `Top-up of ${(event.amountCents / 100).toFixed(2)}`);
      case 'recharge_succeeded':
        if (!(await this.#ownedBy(trx, provider, event.apiId, event.accountId))) return 'ignored: account not connected to the API';
        return this.#paid(trx, { ...event, paymentIntentId: event.objectId }, 'auto_recharge', `Automatic top-up of ${(event.amountCents / 100).toFixed(2)}`);
      case 'recharge_failed': {
        if (!(await this.#ownedBy(trx, provider, event.apiId, event.accountId))) return 'ignored: account not connected to the API';
        if (!(await this.customers.findRow(trx, event.apiId, event.customerId))) return 'ignored: no such customer';
        // Auto-recharge pauses until the customer acts (a new card, or saving the settings, clears
        // it); its owners and admins hear of it once, whether this event or the job saw it first.
        const paused = await this.autoRecharge.pause(trx, event.apiId, event.customerId, at, 'the card was declined', event.objectId);
        return paused ? 'auto-recharge failed: paused' : 'auto-recharge failed: paused before';
      }
      case 'card_saved': {
        if (!(await this.#ownedBy(trx, provider, event.apiId, event.accountId))) return 'ignored: account not connected to the API';
        if (!(await this.customers.findRow(trx, event.apiId, event.customerId))) return 'ignored: no such customer';
        await q.savePaymentCustomer(
          trx,
          { api_id: event.apiId, customer_id: event.customerId, account_id: event.accountId, provider_customer_id: event.providerCustomerId, payment_method_id: event.paymentMethodId, subscription_id: null, subscription_event_at: null, past_due_since: null, updated_at: now },
          { account_id: event.accountId, provider_customer_id: event.providerCustomerId, payment_method_id: event.paymentMethodId, updated_at: now },
        );
        await this.customers.applyProviderBilling(trx, event.apiId, event.customerId, { has_card: true, auto_recharge_failed_at: null, provider_customer_id: event.providerCustomerId });
        return 'card saved';
      }
      case 'subscription':
        return this.#subscription(trx, provider, event, at, followUps);
      case 'charge_refunded':
        return applyRefund(trx, this.#reversals(provider), event);
      case 'dispute':
        return applyDispute(trx, this.#reversals(provider), event);
      case 'invoice_paid': {
        if (!(await this.#ownedBy(trx, provider, event.apiId, event.accountId))) return 'ignored: account not connected to the API';
        const plan = await this.plans.find(trx, event.apiId, event.planId);
        if (!plan) {
          // Paid for a plan deleted meanwhile: the money goes back (a deactivated plan still exists and is honoured).
          followUps.refund.push({ accountId: event.accountId, invoiceId: event.invoiceId, paymentIntentId: event.paymentIntentId });
          return 'plan deleted: the payment is refunded';
        }
        // The invoice joins the portal's receipts once, with the credit it added (none for a
        // plan without credit, or when this payment was credited before under another event).
        const credited = plan.credit_micro > 0 ? await this.#credit(trx, event, 'plan_credit', plan.credit_micro, event.invoiceId, `Credit of plan ${plan.name}`) : { outcome: 'no plan credit', applied: false };
        if (!(await this.customers.findRow(trx, event.apiId, event.customerId))) return credited.outcome;
        await this.receipts.recordInvoice(trx, { apiId: event.apiId, customerId: event.customerId, invoiceId: event.invoiceId, accountId: event.accountId, amountCents: event.amountCents, creditMicro: credited.applied ? plan.credit_micro : 0, planName: plan.name, url: event.url, paymentIntentId: event.paymentIntentId });
        return credited.outcome;
      }
      case 'invoice_failed':
        return this.#invoiceFailed(trx, provider, event, at);
      case 'platform_subscription': {
        const applied = await applyPlatformSubscription(trx, { apis: this.apis, clock: this.clock, audit: this.audit, outbox: this.outbox }, event, at, PAST_DUE_GRACE_MS);
        if (applied.cancelAtProvider) followUps.cancelPlatform.push(applied.cancelAtProvider);
        return applied.outcome;
      }
    }
  }

  async #subscription(trx: Trx, provider: ProviderName, event: Extract<PaymentEvent, { kind: 'subscription' }>, at: Date, followUps: FollowUps): Promise<string> {
    if (!(await this.#ownedBy(trx, provider, event.apiId, event.accountId))) return 'ignored: account not connected to the API';
    // The plan before the customer (docs/architecture.md, lock order): a deletion of the plan waits
    // for this event, or this event finds the plan gone.
    const plan = await this.customers.lockPlanForAssignment(trx, event.apiId, event.planId);
    if (!plan) {
      // The plan was deleted while the checkout was open: a subscription to nothing is ended at once
      // rather than left to renew (issue 23 item 4); its payment is refunded with its invoice.
      if (['active', 'trialing', 'past_due'].includes(event.status)) {
        followUps.cancel.push({ accountId: event.accountId, subscriptionId: event.subscriptionId });
        return 'plan deleted: the subscription is canceled at the provider';
      }
      return 'ignored: no such plan';
    }
    // Events of one customer's subscription take turns (the order check reads what the last applied).
    await this.ledger.lockCustomers(trx, event.apiId, [event.customerId]);
    const customer = await this.customers.findRow(trx, event.apiId, event.customerId);
    if (!customer) return 'ignored: no such customer';
    const now = this.clock.now();
    const known = await q.lockPaymentCustomer(trx, event.apiId, event.customerId);
    const next = nextSubscriptionState(
      { subscriptionId: known?.subscription_id ?? null, status: customer.subscription_status, eventAt: known?.subscription_event_at ?? null, pastDueSince: known?.past_due_since ?? null },
      { subscriptionId: event.subscriptionId, status: event.status, at },
      PAST_DUE_GRACE_MS,
    );
    if (!next.apply) return `ignored: ${next.reason}`;
    await q.savePaymentCustomer(
      trx,
      { api_id: event.apiId, customer_id: event.customerId, account_id: event.accountId, provider_customer_id: event.providerCustomerId, payment_method_id: null, subscription_id: event.subscriptionId, subscription_event_at: at, past_due_since: next.pastDueSince, updated_at: now },
      { account_id: event.accountId, provider_customer_id: event.providerCustomerId, subscription_id: event.subscriptionId, subscription_event_at: at, past_due_since: next.pastDueSince, updated_at: now },
    );
    // An ended subscription leaves its plan (the plan's subscriber count drops) and keeps its status.
    const ended = next.status === 'canceled' || next.status === 'incomplete_expired';
    await this.customers.applyProviderBilling(trx, event.apiId, event.customerId, {
      plan_id: ended ? null : event.planId,
      plan_source: ended ? '' : 'provider',
      provider_customer_id: event.providerCustomerId,
      subscription_status: next.status,
      subscription_period_end: event.periodEnd,
      subscription_cancel_at_period_end: !ended && event.cancelAtPeriodEnd,
    });
    return `subscription ${next.status}`;
  }

  /**
   * A renewal that was not paid: the customer's owners and admins hear of it on the first failed
   * attempt of each invoice (the provider retries, and says so each time), with the provider's
   * page to pay it and the day the plan ends if it stays unpaid. The subscription's own event
   * moves it to past_due; the plan's limits stay until the grace is over (DESIGN 7).
   */
  async #invoiceFailed(trx: Trx, provider: ProviderName, event: Extract<PaymentEvent, { kind: 'invoice_failed' }>, at: Date): Promise<string> {
    if (!(await this.#ownedBy(trx, provider, event.apiId, event.accountId))) return 'ignored: account not connected to the API';
    // Every failed attempt is a payment that failed; only the first is mailed.
    if (await this.customers.findRow(trx, event.apiId, event.customerId)) {
      await raisePaymentFailed(trx, event.apiId, this.clock.now(), { id: event.invoiceId, customerId: event.customerId, kind: 'plan', amountCents: event.amountCents, creditMicro: 0, reason: `attempt ${event.attempt} failed` });
    }
    if (event.attempt > 1) return `invoice payment failed (attempt ${event.attempt}): mailed at the first`;
    const api = await this.apis.findById(trx, event.apiId);
    const customer = await this.customers.findRow(trx, event.apiId, event.customerId);
    const plan = await this.plans.find(trx, event.apiId, event.planId);
    if (!api || !customer || !plan) return 'ignored: no such API, customer or plan';
    const known = await q.paymentCustomer(trx, event.apiId, event.customerId);
    // The grace runs from the first past-due event; this failure may arrive before it.
    const graceEnds = addMs(known?.past_due_since && known.subscription_id === event.subscriptionId ? known.past_due_since : at, PAST_DUE_GRACE_MS);
    const link = event.url ?? `${this.apis.portalUrl(api.slug)}/plans`;
    for (const to of await this.customers.billingContacts(trx, api.id, customer)) {
      await this.outbox.enqueue(trx, mails.planPaymentFailed(to, api.name, customer.name, plan.name, event.amountCents, graceEnds, link));
    }
    return 'invoice payment failed: mailed';
  }

  /** Customers whose past-due grace is over: recorded as `unpaid`, which takes their plan away. */
  async endGraces(): Promise<number> {
    const now = this.clock.now();
    const rows = await q.pastDueBefore(this.db, addMs(now, -PAST_DUE_GRACE_MS));
    for (const row of rows) {
      await this.db.transaction().execute(async (trx) => {
        const customer = await this.customers.findRow(trx, row.api_id, row.customer_id);
        if (customer?.subscription_status !== 'past_due' || customer.plan_source !== 'provider') return;
        await this.customers.applyProviderBilling(trx, row.api_id, row.customer_id, { subscription_status: 'unpaid' });
      });
    }
    return rows.length;
  }
}
