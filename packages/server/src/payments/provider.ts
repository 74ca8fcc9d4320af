import type { ProviderName } from './tables.js';

// The payments provider: everything Gatehouse asks of Stripe (or of the development provider that
// stands in for it offline). Calls that make money move return a URL the person's browser goes to
// (hosted checkout) or start a charge; what actually happened comes back later as signed events on
// the webhook endpoint, which is the only place credit is added (events.ts). Call these outside any
// database transaction: they are network calls, and the development provider delivers its events
// through the webhook path, which runs its own transactions.

/** Where a hosted page sends the browser afterwards. */
export interface ReturnUrls {
  successUrl: string;
  cancelUrl: string;
}

/** The customer of an API as the provider sees it on the owner's account. */
export interface CustomerRef {
  apiId: string;
  customerId: string;
  email: string;
  name: string;
  /** The provider's customer, when one was made before (payment_customers). */
  providerCustomerId: string | null;
}

export interface CheckoutResult {
  url: string;
  sessionId: string;
  /** The provider customer the session belongs to (made now when the customer had none). */
  providerCustomerId: string | null;
}

export interface ConnectResult {
  accountId: string;
  /** The hosted onboarding page (Stripe), or the return URL at once (development provider). */
  url: string;
  /**
   * Called once the connection is recorded. The development provider's onboarding is instant: it
   * then reports the account ready with the `account.updated` event Stripe sends after onboarding.
   */
  recorded?: () => Promise<void>;
}

export type OffSessionChargeResult =
  | { status: 'succeeded' | 'processing'; paymentIntentId: string }
  | { status: 'failed'; paymentIntentId: string | null; reason: string };

/**
 * The provider interface. `accountId` is the owner's connected account; customers pay on it
 * (direct charges, docs/decisions.md). Platform calls act on the platform's own account.
 */
export interface PaymentsProvider {
  readonly name: ProviderName;
  /** Live keys (Stripe sk_live_) or test mode. */
  readonly livemode: boolean;
  /**
   * The origin of the provider's hosted pages. A portal form that starts a checkout is answered
   * with a redirect there, and browsers hold a form's redirects to the page's CSP form-action.
   */
  readonly checkoutOrigin: string;

  // ---- Connect: the owner's account ----
  /** Makes the owner's account on first use and answers its onboarding link. */
  connect(input: { apiId: string; accountId: string | null; email: string; returnUrl: string; refreshUrl: string }): Promise<ConnectResult>;

  // ---- Plans of an API, on the owner's account ----
  /** A new monthly price for a plan (and its product, the first time). Prices are never edited. */
  createPlanPrice(input: { accountId: string; productId: string | null; apiId: string; planId: string; planName: string; amountCents: number }): Promise<{ productId: string; priceId: string }>;

  // ---- What customers do (called by the portal, issue 12) ----
  /** Hosted checkout of a one-off top-up of `amountCents`; its completion event adds the credit. */
  checkoutTopUp(input: { accountId: string; customer: CustomerRef; amountCents: number; description: string } & ReturnUrls): Promise<CheckoutResult>;
  /** Hosted checkout of a subscription to a plan's price; its events set the plan and each paid invoice adds plan credit. */
  checkoutSubscription(input: { accountId: string; customer: CustomerRef; planId: string; priceId: string } & ReturnUrls): Promise<CheckoutResult>;
  /**
   * Expires an open checkout, so it can no longer be paid (its plan was deleted or deactivated).
   * `not_open` when it was already paid, abandoned or expired: nothing to do.
   */
  expireCheckout(input: { accountId: string; sessionId: string }): Promise<'expired' | 'not_open'>;
  /** Moves a subscription to another plan's price (the provider prorates). */
  switchSubscription(input: { accountId: string; subscriptionId: string; apiId: string; customerId: string; planId: string; priceId: string }): Promise<void>;
  /** Cancels at the end of the paid period or at once (no further invoice). `accountId` null: the platform's own account. */
  cancelSubscription(input: { accountId: string | null; subscriptionId: string; atPeriodEnd: boolean }): Promise<void>;
  /** Refunds a paid invoice in full on the owner's account (a payment for a plan that no longer exists). */
  refundInvoice(input: { accountId: string; invoiceId: string; paymentIntentId: string | null }): Promise<void>;
  /** Undoes a cancellation at period end before the period is over. */
  resumeSubscription(input: { accountId: string | null; subscriptionId: string }): Promise<void>;
  /** Hosted page that saves a card for later off-session charges (auto-recharge). */
  checkoutCardSetup(input: { accountId: string; customer: CustomerRef } & ReturnUrls): Promise<CheckoutResult>;
  /** Charges a saved card without the customer present; the outcome also arrives as an event. */
  chargeOffSession(input: { accountId: string; apiId: string; customerId: string; providerCustomerId: string; paymentMethodId: string; amountCents: number; idempotencyKey: string }): Promise<OffSessionChargeResult>;

  /**
   * The receipt of a payment that added credit (a top-up's checkout session, an auto-recharge's
   * payment intent), as the provider shows it to the payer; null when it has none (yet).
   */
  receiptUrl(input: { accountId: string; kind: 'topup' | 'auto_recharge'; objectId: string }): Promise<string | null>;

  // ---- The platform's own account: owners buy platform plans ----
  /**
   * Moves an owner's one platform subscription to another plan (upgrade or downgrade), prorated
   * by the provider and billed at once; it also undoes a cancellation at period end.
   */
  switchPlatformPlan(input: { apiId: string; subscriptionId: string; planCode: string; priceId: string | null; amountCents: number; planName: string }): Promise<void>;
  checkoutPlatformPlan(input: { apiId: string; planCode: string; priceId: string | null; amountCents: number; planName: string; email: string; providerCustomerId: string | null } & ReturnUrls): Promise<CheckoutResult>;

  // ---- Webhooks ----
  /** The secrets an event's signature may be made with (several while one is being rolled). */
  readonly webhookSecrets: readonly string[];
}
