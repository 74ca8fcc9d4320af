import Stripe from 'stripe';
import type { CheckoutResult, CustomerRef, OffSessionChargeResult, PaymentsProvider } from './provider.js';

/**
 * Stripe through its library. Owners connect accounts with full dashboard access that pay their
 * own Stripe fees (what Standard accounts are); customers pay on the owner's account (direct
 * charges: `stripeAccount` on every call about customers), so the owner is the merchant of record
 * and sees customers, subscriptions and refunds in their own dashboard. No application fee: the
 * platform earns from its own plans (docs/decisions.md).
 *
 * Metadata names the API, customer and plan on everything made, so each event says whose it is;
 * events.ts also checks that the event came from the account connected to that API.
 */
export class StripeProvider implements PaymentsProvider {
  readonly name = 'stripe' as const;
  readonly livemode: boolean;
  readonly checkoutOrigin = 'https://checkout.stripe.com';
  readonly #stripe: Stripe;

  constructor(secretKey: string, readonly webhookSecrets: readonly string[], apiUrl: URL) {
    this.livemode = secretKey.includes('_live_');
    this.#stripe = new Stripe(secretKey, {
      host: apiUrl.hostname,
      port: apiUrl.port || (apiUrl.protocol === 'https:' ? 443 : 80),
      protocol: apiUrl.protocol === 'https:' ? 'https' : 'http',
      // The library retries network failures and 409/5xx with the same idempotency key.
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'Gatehouse' },
    });
  }

  async connect(input: { apiId: string; accountId: string | null; email: string; returnUrl: string; refreshUrl: string }) {
    const accountId =
      input.accountId ??
      (
        await this.#stripe.accounts.create(
          {
            // A workspace key has no address: the owner then gives one during onboarding.
            ...(input.email ? { email: input.email } : {}),
            controller: { stripe_dashboard: { type: 'full' }, fees: { payer: 'account' }, losses: { payments: 'stripe' }, requirement_collection: 'stripe' },
            metadata: { gh_api: input.apiId },
          },
          // One account per API even when the owner double-clicks.
          { idempotencyKey: `gh-connect-${input.apiId}` },
        )
      ).id;
    const link = await this.#stripe.accountLinks.create({ account: accountId, type: 'account_onboarding', return_url: input.returnUrl, refresh_url: input.refreshUrl });
    return { accountId, url: link.url };
  }

  async createPlanPrice(input: { accountId: string; productId: string | null; apiId: string; planId: string; planName: string; amountCents: number }) {
    const opts = { stripeAccount: input.accountId };
    const productId = input.productId ?? (await this.#stripe.products.create({ name: input.planName, metadata: { gh_api: input.apiId, gh_plan: input.planId } }, { ...opts, idempotencyKey: `gh-product-${input.planId}` })).id;
    const price = await this.#stripe.prices.create(
      { product: productId, currency: 'usd', unit_amount: input.amountCents, recurring: { interval: 'month' }, metadata: { gh_api: input.apiId, gh_plan: input.planId } },
      { ...opts, idempotencyKey: `gh-price-${input.planId}-${input.amountCents}-${productId}` },
    );
    return { productId, priceId: price.id };
  }

  async #customer(accountId: string, customer: CustomerRef): Promise<string> {
    if (customer.providerCustomerId) return customer.providerCustomerId;
    const made = await this.#stripe.customers.create(
      { email: customer.email, name: customer.name, metadata: { gh_api: customer.apiId, gh_customer: customer.customerId } },
      { stripeAccount: accountId, idempotencyKey: `gh-customer-${customer.customerId}` },
    );
    return made.id;
  }

  #session(session: Stripe.Checkout.Session, providerCustomerId: string | null): CheckoutResult {
    if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
    return { url: session.url, sessionId: session.id, providerCustomerId };
  }

  async checkoutTopUp(input: { accountId: string; customer: CustomerRef; amountCents: number; description: string; successUrl: string; cancelUrl: string }) {
    const customer = await this.#customer(input.accountId, input.customer);
    const metadata = { gh_kind: 'topup', gh_api: input.customer.apiId, gh_customer: input.customer.customerId };
    const session = await this.#stripe.checkout.sessions.create(
      {
        mode: 'payment',
        customer,
        line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: input.amountCents, product_data: { name: input.description } } }],
        payment_intent_data: { metadata },
        metadata,
        success_url: input.successUrl,
        cancel_url: input.cancelUrl,
      },
      { stripeAccount: input.accountId },
    );
    return this.#session(session, customer);
  }

  async checkoutSubscription(input: { accountId: string; customer: CustomerRef; planId: string; priceId: string; successUrl: string; cancelUrl: string }) {
    const customer = await this.#customer(input.accountId, input.customer);
    const metadata = { gh_kind: 'subscription', gh_api: input.customer.apiId, gh_customer: input.customer.customerId, gh_plan: input.planId };
    const session = await this.#stripe.checkout.sessions.create(
      { mode: 'subscription', customer, line_items: [{ price: input.priceId, quantity: 1 }], subscription_data: { metadata }, metadata, success_url: input.successUrl, cancel_url: input.cancelUrl },
      { stripeAccount: input.accountId },
    );
    return this.#session(session, customer);
  }

  async expireCheckout(input: { accountId: string; sessionId: string }): Promise<'expired' | 'not_open'> {
    try {
      await this.#stripe.checkout.sessions.expire(input.sessionId, {}, { stripeAccount: input.accountId });
      return 'expired';
    } catch (error) {
      // Stripe refuses to expire a session that is complete or expired already: nothing to close.
      if (error instanceof Stripe.errors.StripeInvalidRequestError) return 'not_open';
      throw error;
    }
  }

  async switchSubscription(input: { accountId: string; subscriptionId: string; apiId: string; customerId: string; planId: string; priceId: string }) {
    const opts = { stripeAccount: input.accountId };
    const subscription = await this.#stripe.subscriptions.retrieve(input.subscriptionId, {}, opts);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`subscription ${input.subscriptionId} has no item`);
    await this.#stripe.subscriptions.update(
      input.subscriptionId,
      {
        items: [{ id: item.id, price: input.priceId }],
        // The plan travels in metadata, so invoices of the new price credit the new plan.
        metadata: { gh_kind: 'subscription', gh_api: input.apiId, gh_customer: input.customerId, gh_plan: input.planId },
        cancel_at_period_end: false,
      },
      opts,
    );
  }

  async cancelSubscription(input: { accountId: string | null; subscriptionId: string; atPeriodEnd: boolean }) {
    const opts = input.accountId ? { stripeAccount: input.accountId } : {};
    if (input.atPeriodEnd) await this.#stripe.subscriptions.update(input.subscriptionId, { cancel_at_period_end: true }, opts);
    // At once: no final invoice for usage or prorations (invoice_now false), nothing credited back.
    else await this.#stripe.subscriptions.cancel(input.subscriptionId, { invoice_now: false, prorate: false }, opts);
  }

  async refundInvoice(input: { accountId: string; invoiceId: string; paymentIntentId: string | null }) {
    const opts = { stripeAccount: input.accountId, idempotencyKey: `gh-refund-${input.invoiceId}` };
    if (!input.paymentIntentId) throw new Error(`invoice ${input.invoiceId} names no payment intent to refund`);
    await this.#stripe.refunds.create({ payment_intent: input.paymentIntentId, reason: 'requested_by_customer', metadata: { gh_reason: 'plan_deleted', gh_invoice: input.invoiceId } }, opts);
  }

  async resumeSubscription(input: { accountId: string | null; subscriptionId: string }) {
    await this.#stripe.subscriptions.update(input.subscriptionId, { cancel_at_period_end: false }, input.accountId ? { stripeAccount: input.accountId } : {});
  }

  async switchPlatformPlan(input: { apiId: string; subscriptionId: string; planCode: string; priceId: string | null; amountCents: number; planName: string }) {
    if (!input.priceId) throw new Error(`platform plan ${input.planCode} has no provider price`);
    const subscription = await this.#stripe.subscriptions.retrieve(input.subscriptionId);
    const item = subscription.items.data[0];
    if (!item) throw new Error(`subscription ${input.subscriptionId} has no item`);
    await this.#stripe.subscriptions.update(
      input.subscriptionId,
      {
        items: [{ id: item.id, price: input.priceId }],
        // The difference for the rest of the period is invoiced now (an upgrade is paid at once, a
        // downgrade leaves credit on the owner's next invoice), rather than at the next renewal.
        proration_behavior: 'always_invoice',
        metadata: { gh_kind: 'platform', gh_api: input.apiId, gh_platform_plan: input.planCode },
        cancel_at_period_end: false,
      },
      { idempotencyKey: `gh-platform-switch-${input.subscriptionId}-${input.planCode}-${item.id}-${subscription.items.data[0]?.price?.id ?? ''}` },
    );
  }

  async checkoutCardSetup(input: { accountId: string; customer: CustomerRef; successUrl: string; cancelUrl: string }) {
    const customer = await this.#customer(input.accountId, input.customer);
    const metadata = { gh_kind: 'setup', gh_api: input.customer.apiId, gh_customer: input.customer.customerId };
    const session = await this.#stripe.checkout.sessions.create(
      { mode: 'setup', customer, currency: 'usd', setup_intent_data: { metadata }, metadata, success_url: input.successUrl, cancel_url: input.cancelUrl },
      { stripeAccount: input.accountId },
    );
    return this.#session(session, customer);
  }

  async chargeOffSession(input: { accountId: string; apiId: string; customerId: string; providerCustomerId: string; paymentMethodId: string; amountCents: number; idempotencyKey: string }): Promise<OffSessionChargeResult> {
    try {
      const intent = await this.#stripe.paymentIntents.create(
        {
          amount: input.amountCents,
          currency: 'usd',
          customer: input.providerCustomerId,
          payment_method: input.paymentMethodId,
          off_session: true,
          confirm: true,
          metadata: { gh_kind: 'auto_recharge', gh_api: input.apiId, gh_customer: input.customerId },
        },
        { stripeAccount: input.accountId, idempotencyKey: input.idempotencyKey },
      );
      if (intent.status === 'succeeded') return { status: 'succeeded', paymentIntentId: intent.id };
      if (intent.status === 'processing') return { status: 'processing', paymentIntentId: intent.id };
      return { status: 'failed', paymentIntentId: intent.id, reason: intent.status };
    } catch (error) {
      // A declined card is an answer, not a bug: the failure event follows as well.
      if (error instanceof Stripe.errors.StripeCardError) {
        return { status: 'failed', paymentIntentId: error.payment_intent?.id ?? null, reason: error.code ?? 'card_declined' };
      }
      throw error;
    }
  }

  async receiptUrl(input: { accountId: string; kind: 'topup' | 'auto_recharge'; objectId: string }): Promise<string | null> {
    const opts = { stripeAccount: input.accountId };
    // The receipt lives on the charge: a top-up's session names its payment intent, whose latest
    // charge has the receipt_url Stripe's own receipt mails link to.
    const intent = input.kind === 'topup'
      ? (await this.#stripe.checkout.sessions.retrieve(input.objectId, { expand: ['payment_intent.latest_charge'] }, opts)).payment_intent
      : await this.#stripe.paymentIntents.retrieve(input.objectId, { expand: ['latest_charge'] }, opts);
    if (!intent || typeof intent === 'string') return null;
    const charge = intent.latest_charge;
    return charge && typeof charge !== 'string' ? (charge.receipt_url ?? null) : null;
  }

  async checkoutPlatformPlan(input: { apiId: string; planCode: string; priceId: string | null; amountCents: number; planName: string; email: string; providerCustomerId: string | null; successUrl: string; cancelUrl: string }) {
    if (!input.priceId) throw new Error(`platform plan ${input.planCode} has no provider price`);
    const metadata = { gh_kind: 'platform', gh_api: input.apiId, gh_platform_plan: input.planCode };
    const session = await this.#stripe.checkout.sessions.create({
      mode: 'subscription',
      ...(input.providerCustomerId ? { customer: input.providerCustomerId } : { customer_email: input.email }),
      line_items: [{ price: input.priceId, quantity: 1 }],
      subscription_data: { metadata },
      metadata,
      client_reference_id: input.apiId,
      success_url: input.successUrl,
      cancel_url: input.cancelUrl,
    });
    return this.#session(session, input.providerCustomerId);
  }
}
