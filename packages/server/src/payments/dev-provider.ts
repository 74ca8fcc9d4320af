import { createHmac } from 'node:crypto';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import * as store from './dev-store.js';
import type { CheckoutResult, CustomerRef, OffSessionChargeResult, PaymentsProvider } from './provider.js';

/** Where the development provider's events go: the webhook path, exactly as a request to it would. */
export type Deliver = (rawBody: Buffer, signature: string) => Promise<unknown>;

export const DEV_CHECKOUT_PATH = '/dev/payments/checkout';
export const DEV_RECEIPT_PATH = '/dev/payments/receipts';
/** The test page of an invoice (Stripe's hosted invoice page): a receipt once paid, a pay button while open. */
export const DEV_INVOICE_PATH = '/dev/payments/invoices';
/** The development provider's subscriptions: a page per subscription with its test clock. */
export const DEV_SUBSCRIPTIONS_PATH = '/dev/payments/subscriptions';
/** Where a payment's test page posts a refund or a dispute. */
export const DEV_PAYMENT_PATH = '/dev/payments/payments';
/** A month of the development provider's subscriptions. */
const PERIOD_S = 30 * 24 * 3600;

/**
 * `t=<unix seconds>,v1=<HMAC-SHA256 of "t.body">`: Stripe's signature scheme, so the development
 * provider's events are checked by the very code that checks Stripe's.
 */
export function signPayload(payload: string, secret: string, atSeconds: number): string {
  const v1 = createHmac('sha256', secret).update(`${atSeconds}.${payload}`, 'utf8').digest('hex');
  return `t=${atSeconds},v1=${v1}`;
}

/** The development provider's webhook secret: derived from SECRET_KEY, so every node has it. */
export function devWebhookSecret(secretKey: Buffer): string {
  return `whsec_dev_${createHmac('sha256', secretKey).update('gatehouse development payments webhooks').digest('base64url')}`;
}

/**
 * The development provider: every money flow works offline. Connecting succeeds at once; each
 * checkout is a test page on this service (dev-pages.ts) that pays or fails on a click; whatever
 * happens is sent as the event Stripe would send, in Stripe's shape, signed with Stripe's scheme,
 * through the webhook code path. No money moves.
 */
export class DevProvider implements PaymentsProvider {
  readonly name = 'dev' as const;
  readonly livemode = false;
  readonly checkoutOrigin: string;
  readonly webhookSecrets: readonly string[];
  #deliver: Deliver = async () => {
    throw new Error('the development provider has no webhook path yet');
  };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly baseUrl: string,
    secretKey: Buffer,
  ) {
    this.webhookSecrets = [devWebhookSecret(secretKey)];
    this.checkoutOrigin = new URL(baseUrl).origin;
  }

  /** Connects the provider to the webhook path (set once the payments service exists). */
  deliverTo(deliver: Deliver): void {
    this.#deliver = deliver;
  }

  #seconds(): number {
    return Math.floor(this.clock.now().getTime() / 1000);
  }

  /** Sends one event as Stripe would: JSON in Stripe's event shape, signed, to the webhook path. */
  async emit(type: string, object: Record<string, unknown>, accountId: string | null): Promise<string> {
    const created = this.#seconds();
    const id = `evt_dev_${newId('x').slice(2)}`;
    const event = { id, object: 'event', api_version: null, created, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type, ...(accountId ? { account: accountId } : {}), data: { object } };
    const payload = JSON.stringify(event);
    await this.#deliver(Buffer.from(payload), signPayload(payload, this.webhookSecrets[0]!, created));
    return id;
  }

  async connect(input: { apiId: string; accountId: string | null; email: string; returnUrl: string }) {
    const accountId = input.accountId ?? `acct_dev_${newId('x').slice(2)}`;
    if (!input.accountId) await store.put(this.db, { id: accountId, kind: 'account', account_id: accountId, data: { api_id: input.apiId, email: input.email }, created_at: this.clock.now() });
    // Onboarding is instant: the account can take charges, and says so as Stripe would.
    const recorded = async () => {
      await this.emit('account.updated', { id: accountId, object: 'account', charges_enabled: true, details_submitted: true, email: input.email, business_profile: { name: 'Development account' }, settings: { dashboard: { display_name: 'Development account' } } }, accountId);
    };
    return { accountId, url: input.returnUrl, recorded };
  }

  async createPlanPrice(input: { accountId: string; productId: string | null; apiId: string; planId: string; planName: string; amountCents: number }) {
    const productId = input.productId ?? `prod_dev_${newId('x').slice(2)}`;
    const priceId = `price_dev_${newId('x').slice(2)}`;
    await store.put(this.db, { id: priceId, kind: 'price', account_id: input.accountId, data: { product: productId, unit_amount: input.amountCents, plan_id: input.planId, name: input.planName }, created_at: this.clock.now() });
    return { productId, priceId };
  }

  async #customer(accountId: string, customer: CustomerRef): Promise<string> {
    if (customer.providerCustomerId) return customer.providerCustomerId;
    const id = `cus_dev_${newId('x').slice(2)}`;
    await store.put(this.db, { id, kind: 'customer', account_id: accountId, data: { email: customer.email, name: customer.name }, created_at: this.clock.now() });
    return id;
  }

  async #session(accountId: string, data: store.DevCheckout): Promise<string> {
    const id = `cs_dev_${newId('x').slice(2)}`;
    await store.put(this.db, { id, kind: 'checkout', account_id: accountId, data: { ...data }, created_at: this.clock.now() });
    return id;
  }

  #result(sessionId: string, customer: string | null): CheckoutResult {
    return { url: `${this.baseUrl}${DEV_CHECKOUT_PATH}/${sessionId}`, sessionId, providerCustomerId: customer };
  }

  async checkoutTopUp(input: { accountId: string; customer: CustomerRef; amountCents: number; description: string; successUrl: string; cancelUrl: string }) {
    const customer = await this.#customer(input.accountId, input.customer);
    const metadata = { gh_kind: 'topup', gh_api: input.customer.apiId, gh_customer: input.customer.customerId };
    const id = await this.#session(input.accountId, { mode: 'payment', status: 'open', customer, amount_cents: input.amountCents, description: input.description, price_id: null, metadata, success_url: input.successUrl, cancel_url: input.cancelUrl, connected: true });
    return this.#result(id, customer);
  }

  async checkoutSubscription(input: { accountId: string; customer: CustomerRef; planId: string; priceId: string; successUrl: string; cancelUrl: string }) {
    const customer = await this.#customer(input.accountId, input.customer);
    const price = await store.get(this.db, input.priceId, 'price');
    if (!price || price.account_id !== input.accountId) throw new Error(`no price ${input.priceId} on ${input.accountId}`);
    const metadata = { gh_kind: 'subscription', gh_api: input.customer.apiId, gh_customer: input.customer.customerId, gh_plan: input.planId };
    const id = await this.#session(input.accountId, { mode: 'subscription', status: 'open', customer, amount_cents: Number(price.data.unit_amount), description: String(price.data.name), price_id: input.priceId, metadata, success_url: input.successUrl, cancel_url: input.cancelUrl, connected: true });
    return this.#result(id, customer);
  }

  async expireCheckout(input: { accountId: string; sessionId: string }): Promise<'expired' | 'not_open'> {
    return (await store.expireCheckout(this.db, input.sessionId, input.accountId)) ? 'expired' : 'not_open';
  }

  async checkoutCardSetup(input: { accountId: string; customer: CustomerRef; successUrl: string; cancelUrl: string }) {
    const customer = await this.#customer(input.accountId, input.customer);
    const metadata = { gh_kind: 'setup', gh_api: input.customer.apiId, gh_customer: input.customer.customerId };
    const id = await this.#session(input.accountId, { mode: 'setup', status: 'open', customer, amount_cents: 0, description: 'Save a card for automatic top-ups', price_id: null, metadata, success_url: input.successUrl, cancel_url: input.cancelUrl, connected: true });
    return this.#result(id, customer);
  }

  async checkoutPlatformPlan(input: { apiId: string; planCode: string; amountCents: number; planName: string; email: string; providerCustomerId: string | null; successUrl: string; cancelUrl: string }) {
    const customer = input.providerCustomerId ?? `cus_dev_${newId('x').slice(2)}`;
    const metadata = { gh_kind: 'platform', gh_api: input.apiId, gh_platform_plan: input.planCode };
    const id = await this.#session(PLATFORM_ACCOUNT, { mode: 'subscription', status: 'open', customer, amount_cents: input.amountCents, description: `Gatehouse ${input.planName}`, price_id: null, metadata, success_url: input.successUrl, cancel_url: input.cancelUrl, connected: false });
    return this.#result(id, customer);
  }

  #subscriptionObject(id: string, sub: store.DevSubscription, status: string) {
    return {
      id, object: 'subscription', status, customer: sub.customer, metadata: sub.metadata, cancel_at_period_end: sub.cancel_at_period_end,
      items: { object: 'list', data: [{ id: `si_${id}`, object: 'subscription_item', price: { id: sub.price_id, unit_amount: sub.amount_cents }, current_period_end: sub.period_end }] },
    };
  }

  async switchSubscription(input: { accountId: string; subscriptionId: string; apiId: string; customerId: string; planId: string; priceId: string }) {
    const row = await store.get(this.db, input.subscriptionId, 'subscription');
    const price = await store.get(this.db, input.priceId, 'price');
    if (!row || row.account_id !== input.accountId || !price) throw new Error(`no subscription ${input.subscriptionId} or price ${input.priceId}`);
    const sub = { ...(row.data as unknown as store.DevSubscription), price_id: input.priceId, amount_cents: Number(price.data.unit_amount), cancel_at_period_end: false, metadata: { gh_kind: 'subscription', gh_api: input.apiId, gh_customer: input.customerId, gh_plan: input.planId } };
    await store.update(this.db, input.subscriptionId, { ...sub });
    await this.emit('customer.subscription.updated', this.#subscriptionObject(input.subscriptionId, sub, sub.status), input.accountId);
  }

  /** A subscription of this account (`null`: the platform's own), or an error as Stripe's 404. */
  async #subscriptionRow(accountId: string | null, subscriptionId: string) {
    const row = await store.get(this.db, subscriptionId, 'subscription');
    if (!row || row.account_id !== (accountId ?? PLATFORM_ACCOUNT)) throw new Error(`no subscription ${subscriptionId}`);
    return { row, sub: row.data as unknown as store.DevSubscription };
  }

  async cancelSubscription(input: { accountId: string | null; subscriptionId: string; atPeriodEnd: boolean }) {
    const { sub: before } = await this.#subscriptionRow(input.accountId, input.subscriptionId);
    if (before.status === 'canceled') throw new Error(`subscription ${input.subscriptionId} is canceled`);
    const sub = { ...before, cancel_at_period_end: input.atPeriodEnd, status: input.atPeriodEnd ? before.status : 'canceled' };
    await store.update(this.db, input.subscriptionId, { ...sub });
    const type = input.atPeriodEnd ? 'customer.subscription.updated' : 'customer.subscription.deleted';
    await this.emit(type, this.#subscriptionObject(input.subscriptionId, sub, sub.status), input.accountId);
  }

  async refundInvoice(input: { accountId: string; invoiceId: string }) {
    const row = await store.get(this.db, input.invoiceId, 'invoice');
    if (!row || row.account_id !== input.accountId) throw new Error(`no invoice ${input.invoiceId}`);
    await this.refund(input.invoiceId);
  }

  async resumeSubscription(input: { accountId: string | null; subscriptionId: string }) {
    const { sub: before } = await this.#subscriptionRow(input.accountId, input.subscriptionId);
    if (before.status === 'canceled') throw new Error(`subscription ${input.subscriptionId} is canceled`);
    const sub = { ...before, cancel_at_period_end: false };
    await store.update(this.db, input.subscriptionId, { ...sub });
    await this.emit('customer.subscription.updated', this.#subscriptionObject(input.subscriptionId, sub, sub.status), input.accountId);
  }

  /**
   * An upgrade or downgrade of the owner's platform subscription, as Stripe's update with
   * `proration_behavior: always_invoice`: the new price from now on, and an invoice at once for the
   * difference over the rest of the period (an upgrade's is paid; a downgrade's is a credit the
   * next renewal would use, which offline is only recorded).
   */
  async switchPlatformPlan(input: { apiId: string; subscriptionId: string; planCode: string; priceId: string | null; amountCents: number; planName: string }) {
    const { sub: before } = await this.#subscriptionRow(null, input.subscriptionId);
    if (before.status === 'canceled') throw new Error(`subscription ${input.subscriptionId} is canceled`);
    const left = Math.max(0, before.period_end - this.#seconds());
    const proration = Math.round(((input.amountCents - before.amount_cents) * left) / PERIOD_S);
    const sub = { ...before, amount_cents: input.amountCents, cancel_at_period_end: false, metadata: { gh_kind: 'platform', gh_api: input.apiId, gh_platform_plan: input.planCode } };
    await store.update(this.db, input.subscriptionId, { ...sub });
    await this.emit('customer.subscription.updated', this.#subscriptionObject(input.subscriptionId, sub, sub.status), null);
    if (proration > 0) await this.emit('invoice.paid', await this.#invoice(PLATFORM_ACCOUNT, input.subscriptionId, { ...sub, amount_cents: proration }, 'paid', 'subscription_update'), null);
  }

  /**
   * The test clock of a subscription (Stripe's test clocks, offline): its period ends now, and the
   * renewal (or the end, when canceled at period end) happens as it would then.
   */
  async endPeriodNow(subscriptionId: string): Promise<number> {
    const row = await store.get(this.db, subscriptionId, 'subscription');
    if (!row) return 0;
    const sub = row.data as unknown as store.DevSubscription;
    if (sub.status === 'canceled') return 0;
    await store.advance(this.db, row.id, sub.period_end, { ...sub, period_end: Math.min(sub.period_end, this.#seconds()) });
    return this.renewDue();
  }

  /** A subscription as its test page shows it, with the number of its invoices. */
  async subscription(id: string) {
    const row = await store.get(this.db, id, 'subscription');
    if (!row) return null;
    const sub = row.data as unknown as store.DevSubscription;
    return { id: row.id, status: sub.status, amountCents: sub.amount_cents, periodEnd: sub.period_end, cancelAtPeriodEnd: sub.cancel_at_period_end, invoices: await store.countInvoices(this.db, row.id) };
  }

  /** Every subscription made for an API (its owner's platform plan and its customers' plans), oldest first. */
  async subscriptionsOfApi(apiId: string) {
    const rows = await store.subscriptionsOfApi(this.db, apiId);
    return Promise.all(rows.map(async (row) => {
      const sub = row.data as unknown as store.DevSubscription;
      return { id: row.id, kind: sub.metadata.gh_kind === 'platform' ? 'platform' : 'customer', plan: sub.metadata.gh_platform_plan ?? sub.metadata.gh_plan ?? null, customer_id: sub.metadata.gh_customer ?? null, status: sub.status, amount_cents: sub.amount_cents, cancel_at_period_end: sub.cancel_at_period_end, invoices: await store.countInvoices(this.db, row.id) };
    }));
  }

  /** Every subscription of an account that still bills (the walkthrough and the delete of an API check it). */
  async liveSubscriptions(accountId: string | null) {
    return (await store.subscriptionsOf(this.db, accountId ?? PLATFORM_ACCOUNT)).filter((row) => ['active', 'past_due', 'trialing'].includes(String(row.data.status)));
  }

  async chargeOffSession(input: { accountId: string; apiId: string; customerId: string; providerCustomerId: string; paymentMethodId: string; amountCents: number; idempotencyKey: string }): Promise<OffSessionChargeResult> {
    const card = await store.get(this.db, input.paymentMethodId, 'payment_method');
    if (!card || card.account_id !== input.accountId) return { status: 'failed', paymentIntentId: null, reason: 'no such card' };
    // The idempotency key names the payment intent, so a retried charge is the same charge.
    const intentId = `pi_dev_${createHmac('sha256', 'dev').update(`${input.accountId}:${input.idempotencyKey}`).digest('hex').slice(0, 24)}`;
    const previous = await store.get(this.db, intentId, 'payment_intent');
    if (previous) return previous.data.status === 'succeeded' ? { status: 'succeeded', paymentIntentId: intentId } : { status: 'failed', paymentIntentId: intentId, reason: 'card_declined' };
    const declined = card.data.declines === true;
    const status = declined ? 'requires_payment_method' : 'succeeded';
    await store.put(this.db, { id: intentId, kind: 'payment_intent', account_id: input.accountId, data: { status, amount: input.amountCents }, created_at: this.clock.now() });
    const metadata = { gh_kind: 'auto_recharge', gh_api: input.apiId, gh_customer: input.customerId };
    const intent = { id: intentId, object: 'payment_intent', amount: input.amountCents, amount_received: declined ? 0 : input.amountCents, currency: 'usd', customer: input.providerCustomerId, payment_method: input.paymentMethodId, status, metadata };
    await this.emit(declined ? 'payment_intent.payment_failed' : 'payment_intent.succeeded', intent, input.accountId);
    return declined ? { status: 'failed', paymentIntentId: intentId, reason: 'card_declined' } : { status: 'succeeded', paymentIntentId: intentId };
  }

  /** The test page's "pay" (or, for a card, "save"): the events Stripe sends for this session. */
  async completeCheckout(sessionId: string, options: { declineLater?: boolean; declineRenewals?: boolean } = {}): Promise<{ redirect: string } | null> {
    const row = await store.claim(this.db, sessionId);
    if (!row) return null;
    const session = row.data as unknown as store.DevCheckout;
    const account = session.connected ? row.account_id : null;
    const now = this.#seconds();
    if (session.mode === 'setup') {
      const card = `pm_dev_${newId('x').slice(2)}`;
      await store.put(this.db, { id: card, kind: 'payment_method', account_id: row.account_id, data: { customer: session.customer, declines: !!options.declineLater }, created_at: this.clock.now() });
      await this.emit('setup_intent.succeeded', { id: `seti_${sessionId}`, object: 'setup_intent', status: 'succeeded', customer: session.customer, payment_method: card, metadata: session.metadata }, account);
    }
    if (session.mode === 'subscription') {
      const subId = `sub_dev_${newId('x').slice(2)}`;
      const sub: store.DevSubscription = { customer: session.customer, price_id: session.price_id, amount_cents: session.amount_cents, metadata: session.metadata, status: 'active', period_end: now + PERIOD_S, cancel_at_period_end: false, declines: !!options.declineRenewals };
      await store.put(this.db, { id: subId, kind: 'subscription', account_id: row.account_id, data: { ...sub }, created_at: this.clock.now() });
      await this.emit('customer.subscription.created', this.#subscriptionObject(subId, sub, 'active'), account);
      await this.emit('invoice.paid', await this.#invoice(row.account_id, subId, sub, 'paid', 'subscription_create'), account);
    }
    const completed = {
      id: sessionId, object: 'checkout.session', mode: session.mode, status: 'complete', customer: session.customer, metadata: session.metadata,
      amount_total: session.amount_cents, currency: 'usd', payment_status: session.mode === 'setup' ? 'no_payment_required' : 'paid', payment_intent: session.mode === 'payment' ? `pi_${sessionId}` : null,
    };
    await this.emit('checkout.session.completed', completed, account);
    return { redirect: session.success_url.replace('{CHECKOUT_SESSION_ID}', sessionId) };
  }

  /**
   * Renewals, as Stripe's billing does at the end of each period: a subscription that ends with its
   * period is deleted; any other starts its next period, paid by a new invoice (`invoice.paid`,
   * which adds the plan's credit again) and `customer.subscription.updated`. One period per call;
   * the job calls again while more are due (a clock moved months ahead renews month by month).
   */
  async renewDue(): Promise<number> {
    let renewed = 0;
    for (const row of await store.dueSubscriptions(this.db, this.#seconds())) {
      const sub = row.data as unknown as store.DevSubscription;
      const account = row.account_id === PLATFORM_ACCOUNT ? null : row.account_id;
      if (sub.cancel_at_period_end) {
        const ended = { ...sub, status: 'canceled' };
        if (!(await store.advance(this.db, row.id, sub.period_end, { ...ended }))) continue;
        await this.emit('customer.subscription.deleted', this.#subscriptionObject(row.id, ended, 'canceled'), account);
      } else if (sub.declines) {
        // The card is declined: the new period starts unpaid, its invoice stays open on its test
        // page, and the subscription is past_due, as Stripe does before its retries run out.
        const next = { ...sub, period_end: sub.period_end + PERIOD_S, status: 'past_due' };
        if (!(await store.advance(this.db, row.id, sub.period_end, { ...next }))) continue;
        await this.emit('invoice.payment_failed', await this.#invoice(row.account_id, row.id, sub, 'open', 'subscription_cycle'), account);
        await this.emit('customer.subscription.updated', this.#subscriptionObject(row.id, next, 'past_due'), account);
      } else {
        const next = { ...sub, period_end: sub.period_end + PERIOD_S };
        if (!(await store.advance(this.db, row.id, sub.period_end, { ...next }))) continue;
        await this.emit('invoice.paid', await this.#invoice(row.account_id, row.id, sub, 'paid', 'subscription_cycle'), account);
        await this.emit('customer.subscription.updated', this.#subscriptionObject(row.id, next, next.status), account);
      }
      renewed++;
    }
    return renewed;
  }

  /** A subscription's invoice, kept for its test page, in Stripe's event shape. */
  async #invoice(accountId: string, subscriptionId: string, sub: store.DevSubscription, status: 'paid' | 'open', reason: string) {
    const id = `in_dev_${newId('x').slice(2)}`;
    const data: store.DevInvoice = { status, subscription: subscriptionId, customer: sub.customer, amount_cents: sub.amount_cents, metadata: sub.metadata };
    await store.put(this.db, { id, kind: 'invoice', account_id: accountId, data: { ...data }, created_at: this.clock.now() });
    return this.#invoiceObject(id, data, reason);
  }

  #invoiceObject(id: string, invoice: store.DevInvoice, reason: string) {
    const paid = invoice.status === 'paid';
    return {
      id, object: 'invoice', status: invoice.status, billing_reason: reason, customer: invoice.customer, amount_due: invoice.amount_cents, amount_paid: paid ? invoice.amount_cents : 0,
      attempt_count: 1, hosted_invoice_url: `${this.baseUrl}${DEV_INVOICE_PATH}/${id}`, payment_intent: paid ? `pi_${id}` : null, parent: { type: 'subscription_details', subscription_details: { subscription: invoice.subscription, metadata: invoice.metadata } },
    };
  }

  /** What an invoice's test page shows. */
  async invoice(invoiceId: string) {
    const row = await store.get(this.db, invoiceId, 'invoice');
    return row ? { ...(row.data as unknown as store.DevInvoice), id: row.id, createdAt: row.created_at } : null;
  }

  /**
   * The invoice test page's "pay" (the customer pays the open invoice with a card that works):
   * the invoice is paid, the card replaces the declining one, and the subscription is active
   * again, with the events Stripe sends for it. Null when the invoice is not open (paid before).
   */
  async payInvoice(invoiceId: string): Promise<{ subscriptionId: string } | null> {
    const row = await store.claim(this.db, invoiceId, 'invoice');
    if (!row) return null;
    const invoice = row.data as unknown as store.DevInvoice;
    const account = row.account_id === PLATFORM_ACCOUNT ? null : row.account_id;
    await this.emit('invoice.paid', this.#invoiceObject(row.id, invoice, 'subscription_cycle'), account);
    const subRow = await store.get(this.db, invoice.subscription, 'subscription');
    const sub = subRow?.data as unknown as store.DevSubscription | undefined;
    if (subRow && sub && sub.status === 'past_due') {
      const next = { ...sub, status: 'active', declines: false };
      await store.update(this.db, subRow.id, { ...next });
      await this.emit('customer.subscription.updated', this.#subscriptionObject(subRow.id, next, 'active'), account);
    }
    return { subscriptionId: invoice.subscription };
  }

  /**
   * A payment that can be refunded or disputed on its test page: a paid top-up session, a
   * succeeded automatic top-up, a paid invoice. Its charge and payment intent are named after it,
   * as the events that paid it named them.
   */
  async payment(objectId: string): Promise<store.DevPayment | null> {
    const kind = objectId.startsWith('cs_dev_') ? 'checkout' : objectId.startsWith('pi_dev_') ? 'payment_intent' : objectId.startsWith('in_dev_') ? 'invoice' : null;
    const row = kind ? await store.get(this.db, objectId, kind) : undefined;
    if (!row || !kind) return null;
    const data = row.data as Record<string, unknown> & store.DevReversals;
    const paid = kind === 'checkout' ? data.mode === 'payment' && data.status === 'complete' : kind === 'invoice' ? data.status === 'paid' : data.status === 'succeeded';
    if (!paid) return null;
    const amount = Number(kind === 'payment_intent' ? data.amount : data.amount_cents);
    const intent = kind === 'payment_intent' ? row.id : `pi_${row.id}`;
    return { id: row.id, kind, accountId: row.account_id, amountCents: amount, paymentIntentId: intent, chargeId: `ch_${intent}`, refunds: data.refunds ?? [], amountRefunded: Number(data.amount_refunded ?? 0), dispute: data.dispute ?? null, data };
  }

  /**
   * The test page's "refund" (as from the owner's provider dashboard): refunds `amountCents` (what
   * is left, by default) and sends `charge.refunded` with the cumulative amount refunded, the
   * newest refund first. Null when nothing is left to refund.
   */
  async refund(objectId: string, amountCents?: number): Promise<string | null> {
    const payment = await this.payment(objectId);
    if (!payment) return null;
    const left = payment.amountCents - payment.amountRefunded;
    const amount = Math.min(amountCents ?? left, left);
    if (amount <= 0) return null;
    const refund = { id: `re_dev_${newId('x').slice(2)}`, object: 'refund', amount, status: 'succeeded', created: this.#seconds(), charge: payment.chargeId, payment_intent: payment.paymentIntentId };
    const refunds = [refund, ...payment.refunds];
    // Two clicks at once: the update applies to the state it read, so one of them refunds.
    if (!(await store.replaceIf(this.db, payment.id, payment.data, { ...payment.data, refunds, amount_refunded: payment.amountRefunded + amount }))) return null;
    const account = payment.accountId === PLATFORM_ACCOUNT ? null : payment.accountId;
    const charge = { id: payment.chargeId, object: 'charge', amount: payment.amountCents, amount_refunded: payment.amountRefunded + amount, refunded: payment.amountRefunded + amount === payment.amountCents, payment_intent: payment.paymentIntentId, status: 'succeeded', refunds: { object: 'list', data: refunds } };
    await this.emit('charge.refunded', charge, account);
    return refund.id;
  }

  /** The test page's "dispute" (the payer's bank disputes the whole payment), and closing it won or lost. */
  async dispute(objectId: string, outcome: 'open' | 'won' | 'lost'): Promise<string | null> {
    const payment = await this.payment(objectId);
    if (!payment) return null;
    const current = payment.dispute;
    if (outcome === 'open' ? current !== null : current?.status !== 'needs_response') return null;
    const dispute = { id: current?.id ?? `dp_dev_${newId('x').slice(2)}`, amount: payment.amountCents, status: outcome === 'open' ? 'needs_response' : outcome };
    if (!(await store.replaceIf(this.db, payment.id, payment.data, { ...payment.data, dispute }))) return null;
    const account = payment.accountId === PLATFORM_ACCOUNT ? null : payment.accountId;
    const object = { id: dispute.id, object: 'dispute', amount: dispute.amount, status: dispute.status, charge: payment.chargeId, payment_intent: payment.paymentIntentId, reason: 'fraudulent' };
    await this.emit(outcome === 'open' ? 'charge.dispute.created' : 'charge.dispute.closed', object, account);
    return dispute.id;
  }

  /** The test page's "decline": the session stays open to try again, and the failure is an event. */
  async declineCheckout(sessionId: string): Promise<boolean> {
    const row = await store.get(this.db, sessionId, 'checkout');
    if (!row || row.data.status !== 'open') return false;
    const session = row.data as unknown as store.DevCheckout;
    if (session.mode === 'payment') {
      await this.emit('payment_intent.payment_failed', { id: `pi_${sessionId}`, object: 'payment_intent', status: 'requires_payment_method', amount: session.amount_cents, amount_received: 0, customer: session.customer, metadata: session.metadata, last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' } }, session.connected ? row.account_id : null);
    }
    return true;
  }

  /** A test receipt page of this service, for a paid top-up session or a succeeded charge. */
  async receiptUrl(input: { accountId: string; kind: 'topup' | 'auto_recharge'; objectId: string }): Promise<string | null> {
    return (await this.receipt(input.objectId, input.accountId)) ? `${this.baseUrl}${DEV_RECEIPT_PATH}/${input.objectId}` : null;
  }

  /** What the test receipt page shows: a completed top-up session or a succeeded charge. */
  async receipt(objectId: string, accountId?: string): Promise<{ id: string; amountCents: number; description: string; paidAt: Date } | null> {
    const kind = objectId.startsWith('cs_dev_') ? 'checkout' : objectId.startsWith('pi_dev_') ? 'payment_intent' : null;
    const row = kind ? await store.get(this.db, objectId, kind) : undefined;
    if (!row || (accountId && row.account_id !== accountId)) return null;
    if (kind === 'checkout') {
      const session = row.data as unknown as store.DevCheckout;
      if (session.mode !== 'payment' || session.status !== 'complete') return null;
      return { id: row.id, amountCents: session.amount_cents, description: session.description, paidAt: row.created_at };
    }
    if (row.data.status !== 'succeeded') return null;
    return { id: row.id, amountCents: Number(row.data.amount), description: 'Automatic top-up', paidAt: row.created_at };
  }

  /** What the test page shows. */
  async checkout(sessionId: string) {
    const row = await store.get(this.db, sessionId, 'checkout');
    return row ? { ...(row.data as unknown as store.DevCheckout), id: row.id } : null;
  }
}

/** The platform's own account at the development provider. */
export const PLATFORM_ACCOUNT = 'acct_dev_platform';
