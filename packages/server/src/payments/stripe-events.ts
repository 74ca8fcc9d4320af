import Stripe from 'stripe';

// Stripe's events (and the development provider's, which are the same shapes), verified and read
// into the few facts Gatehouse acts on. Anything else is recorded and ignored.

/** What one event means to Gatehouse. `at` is the provider's creation time (event ordering). */
export type PaymentEvent =
  | { kind: 'account'; accountId: string; livemode: boolean; chargesEnabled: boolean; name: string | null }
  | { kind: 'account_deauthorized'; accountId: string }
  | { kind: 'topup_paid'; accountId: string; apiId: string; customerId: string; objectId: string; amountCents: number; providerCustomerId: string | null; paymentIntentId: string | null }
  | { kind: 'card_saved'; accountId: string; apiId: string; customerId: string; providerCustomerId: string; paymentMethodId: string }
  | { kind: 'recharge_succeeded'; accountId: string; apiId: string; customerId: string; objectId: string; amountCents: number }
  | { kind: 'recharge_failed'; accountId: string; apiId: string; customerId: string; objectId: string }
  | { kind: 'subscription'; accountId: string; apiId: string; customerId: string; planId: string; subscriptionId: string; providerCustomerId: string; status: string; periodEnd: Date | null; cancelAtPeriodEnd: boolean }
  | { kind: 'invoice_paid'; accountId: string; apiId: string; customerId: string; planId: string; invoiceId: string; subscriptionId: string | null; amountCents: number; url: string | null; paymentIntentId: string | null }
  | { kind: 'invoice_failed'; accountId: string; apiId: string; customerId: string; planId: string; invoiceId: string; subscriptionId: string | null; amountCents: number; url: string | null; attempt: number }
  | { kind: 'platform_subscription'; apiId: string; planCode: string; subscriptionId: string; providerCustomerId: string; status: string; periodEnd: Date | null; cancelAtPeriodEnd: boolean }
  | { kind: 'charge_refunded'; accountId: string; chargeId: string; paymentIntentId: string; amountRefundedCents: number; refundId: string | null }
  | { kind: 'dispute'; accountId: string; disputeId: string; chargeId: string | null; paymentIntentId: string; amountCents: number; status: string; closed: boolean }
  | { kind: 'ignored'; reason: string };

export interface VerifiedEvent {
  id: string;
  type: string;
  /** The connected account the event happened on; null for the platform's own account. */
  accountId: string | null;
  at: Date;
  meaning: PaymentEvent;
}

/**
 * Checks the `Stripe-Signature` header on the raw body with each secret (HMAC-SHA256, compared in
 * constant time by the library; 5 minutes of tolerance against `nowMs`). Null when none matches.
 */
export function verifyEvent(rawBody: Buffer, header: string | undefined, secrets: readonly string[], nowMs: number): Stripe.Event | null {
  if (!header) return null;
  for (const secret of secrets) {
    try {
      return Stripe.webhooks.constructEvent(rawBody, header, secret, 300, undefined, nowMs);
    } catch {
      // not this secret (or not a valid signature at all)
    }
  }
  return null;
}

type Metadata = Record<string, string> | null | undefined;
const idOf = (value: string | { id: string } | null | undefined): string | null => (typeof value === 'string' ? value : (value?.id ?? null));
const seconds = (value: number | null | undefined): Date | null => (typeof value === 'number' ? new Date(value * 1000) : null);

/** Events about customers happen on a connected account and name the API and customer we made them for. */
function customerFacts(accountId: string | null, metadata: Metadata, kind: string): { accountId: string; apiId: string; customerId: string } | string {
  if (!accountId) return 'not on a connected account';
  if (metadata?.gh_kind !== kind) return `not a Gatehouse ${kind}`;
  if (!metadata.gh_api || !metadata.gh_customer) return 'no API or customer in metadata';
  return { accountId, apiId: metadata.gh_api, customerId: metadata.gh_customer };
}

function subscriptionPeriodEnd(subscription: Stripe.Subscription): Date | null {
  // Newer API versions keep the period on each item; older ones on the subscription.
  const item = subscription.items?.data?.[0] as (Stripe.SubscriptionItem & { current_period_end?: number }) | undefined;
  return seconds(item?.current_period_end ?? (subscription as unknown as { current_period_end?: number }).current_period_end);
}

function readSubscription(event: Stripe.Event, accountId: string | null): PaymentEvent {
  const subscription = event.data.object as Stripe.Subscription;
  const metadata = subscription.metadata;
  const status = event.type === 'customer.subscription.deleted' ? 'canceled' : subscription.status;
  const common = { subscriptionId: subscription.id, providerCustomerId: idOf(subscription.customer) ?? '', status, periodEnd: subscriptionPeriodEnd(subscription), cancelAtPeriodEnd: !!subscription.cancel_at_period_end };
  if (metadata?.gh_kind === 'platform') {
    // A platform plan is bought on the platform's own account only: the same metadata on an
    // owner's account must not buy anything.
    if (accountId) return { kind: 'ignored', reason: 'platform subscription on a connected account' };
    if (!metadata.gh_api || !metadata.gh_platform_plan) return { kind: 'ignored', reason: 'no API or plan in metadata' };
    return { kind: 'platform_subscription', apiId: metadata.gh_api, planCode: metadata.gh_platform_plan, ...common };
  }
  const facts = customerFacts(accountId, metadata, 'subscription');
  if (typeof facts === 'string') return { kind: 'ignored', reason: facts };
  if (!metadata?.gh_plan) return { kind: 'ignored', reason: 'no plan in metadata' };
  return { kind: 'subscription', ...facts, planId: metadata.gh_plan, ...common };
}

function readInvoice(invoice: Stripe.Invoice, accountId: string | null, paid: boolean): PaymentEvent {
  const legacy = invoice as unknown as { subscription?: string | { id: string }; subscription_details?: { metadata?: Metadata } };
  const details = invoice.parent?.subscription_details;
  const metadata = details?.metadata ?? legacy.subscription_details?.metadata;
  if (metadata?.gh_kind === 'platform') return { kind: 'ignored', reason: 'platform invoices change nothing beyond their subscription' };
  const facts = customerFacts(accountId, metadata, 'subscription');
  if (typeof facts === 'string') return { kind: 'ignored', reason: facts };
  if (!metadata?.gh_plan) return { kind: 'ignored', reason: 'no plan in metadata' };
  if (!invoice.id) return { kind: 'ignored', reason: 'invoice without an id' };
  const common = { ...facts, planId: metadata.gh_plan, invoiceId: invoice.id, subscriptionId: idOf(details?.subscription ?? legacy.subscription), url: invoice.hosted_invoice_url ?? null };
  if (paid) return { kind: 'invoice_paid', ...common, amountCents: Number.isSafeInteger(invoice.amount_paid) ? invoice.amount_paid : 0, paymentIntentId: invoicePaymentIntent(invoice) };
  // Stripe retries a failed invoice (Smart Retries) and sends this event for every attempt.
  return { kind: 'invoice_failed', ...common, amountCents: Number.isSafeInteger(invoice.amount_due) ? invoice.amount_due : 0, attempt: Number.isSafeInteger(invoice.attempt_count) ? invoice.attempt_count : 1 };
}

/** The payment intent that paid an invoice: in its payments list (newer API versions) or on the invoice (older). */
function invoicePaymentIntent(invoice: Stripe.Invoice): string | null {
  const legacy = invoice as unknown as { payment_intent?: string | { id: string } | null; payments?: { data?: { payment?: { payment_intent?: string | { id: string } | null } }[] } };
  return idOf(legacy.payments?.data?.[0]?.payment?.payment_intent ?? legacy.payment_intent ?? null);
}

/**
 * A refund of a charge (full or partial). `amount_refunded` is cumulative, so the ledger takes
 * back only what it did not take before; the newest refund (Stripe lists them newest first, when
 * the charge carries them) names the entry, else the charge and its cumulative amount do.
 */
function readRefund(charge: Stripe.Charge, accountId: string | null): PaymentEvent {
  if (!accountId) return { kind: 'ignored', reason: 'refunds of the platform account change no credit' };
  const paymentIntentId = idOf(charge.payment_intent);
  if (!paymentIntentId) return { kind: 'ignored', reason: 'a charge without a payment intent is none of ours' };
  if (!Number.isSafeInteger(charge.amount_refunded) || charge.amount_refunded <= 0) return { kind: 'ignored', reason: 'nothing refunded' };
  const refunds = (charge.refunds?.data ?? []).filter((r) => r.status !== 'failed' && r.status !== 'canceled');
  const newest = [...refunds].sort((a, b) => b.created - a.created)[0];
  return { kind: 'charge_refunded', accountId, chargeId: charge.id, paymentIntentId, amountRefundedCents: charge.amount_refunded, refundId: newest?.id ?? null };
}

function readDispute(dispute: Stripe.Dispute, accountId: string | null, closed: boolean): PaymentEvent {
  if (!accountId) return { kind: 'ignored', reason: 'disputes of the platform account change no credit' };
  const paymentIntentId = idOf(dispute.payment_intent);
  if (!paymentIntentId) return { kind: 'ignored', reason: 'a dispute without a payment intent is none of ours' };
  if (!Number.isSafeInteger(dispute.amount) || dispute.amount <= 0) return { kind: 'ignored', reason: 'no amount' };
  return { kind: 'dispute', accountId, disputeId: dispute.id, chargeId: idOf(dispute.charge), paymentIntentId, amountCents: dispute.amount, status: dispute.status, closed };
}

function readCheckout(session: Stripe.Checkout.Session, accountId: string | null): PaymentEvent {
  if (session.mode !== 'payment') return { kind: 'ignored', reason: `${session.mode} sessions are applied by their subscription or setup events` };
  if (session.payment_status !== 'paid') return { kind: 'ignored', reason: `payment ${session.payment_status}` };
  const facts = customerFacts(accountId, session.metadata, 'topup');
  if (typeof facts === 'string') return { kind: 'ignored', reason: facts };
  if (!Number.isSafeInteger(session.amount_total) || (session.amount_total ?? 0) <= 0) return { kind: 'ignored', reason: 'no amount' };
  return { kind: 'topup_paid', ...facts, objectId: session.id, amountCents: session.amount_total!, providerCustomerId: idOf(session.customer), paymentIntentId: idOf(session.payment_intent) };
}

/** Reads a verified event into what it means to Gatehouse. */
export function readEvent(event: Stripe.Event): VerifiedEvent {
  const accountId = event.account ?? null;
  const base = { id: event.id, type: event.type, accountId, at: new Date(event.created * 1000) };
  const meaning = ((): PaymentEvent => {
    switch (event.type) {
      case 'account.updated': {
        const account = event.data.object;
        if (!accountId || account.id !== accountId) return { kind: 'ignored', reason: 'not a connected account' };
        const name = account.business_profile?.name ?? account.settings?.dashboard?.display_name ?? null;
        return { kind: 'account', accountId, livemode: event.livemode, chargesEnabled: !!account.charges_enabled, name };
      }
      case 'account.application.deauthorized':
        return accountId ? { kind: 'account_deauthorized', accountId } : { kind: 'ignored', reason: 'not a connected account' };
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
        return readCheckout(event.data.object, accountId);
      case 'setup_intent.succeeded': {
        const intent = event.data.object;
        const facts = customerFacts(accountId, intent.metadata, 'setup');
        if (typeof facts === 'string') return { kind: 'ignored', reason: facts };
        const paymentMethodId = idOf(intent.payment_method);
        const providerCustomerId = idOf(intent.customer);
        if (!paymentMethodId || !providerCustomerId) return { kind: 'ignored', reason: 'no card or customer' };
        return { kind: 'card_saved', ...facts, providerCustomerId, paymentMethodId };
      }
      case 'payment_intent.succeeded':
      case 'payment_intent.payment_failed': {
        const intent = event.data.object;
        const facts = customerFacts(accountId, intent.metadata, 'auto_recharge');
        if (typeof facts === 'string') return { kind: 'ignored', reason: facts };
        if (event.type === 'payment_intent.payment_failed') return { kind: 'recharge_failed', ...facts, objectId: intent.id };
        return { kind: 'recharge_succeeded', ...facts, objectId: intent.id, amountCents: intent.amount_received };
      }
      case 'customer.subscription.created':
      case 'customer.subscription.updated':
      case 'customer.subscription.deleted':
        return readSubscription(event, accountId);
      case 'invoice.paid':
        return readInvoice(event.data.object, accountId, true);
      case 'invoice.payment_failed':
        return readInvoice(event.data.object, accountId, false);
      case 'charge.refunded':
        return readRefund(event.data.object, accountId);
      case 'charge.dispute.created':
      case 'charge.dispute.closed':
        return readDispute(event.data.object, accountId, event.type === 'charge.dispute.closed');
      default:
        return { kind: 'ignored', reason: 'not an event Gatehouse acts on' };
    }
  })();
  return { ...base, meaning };
}

/** Printable ASCII without spaces: what ids, types and account ids of provider events are made of. */
const EVENT_TOKEN = /^[\x21-\x7e]{1,255}$/;
/** Amount fields in cents whose micro value must stay inside the money bound (platform/money.ts). */
const AMOUNT_FIELDS = ['amount_total', 'amount_paid', 'amount_due'] as const;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Why a body whose signature is good is still not an event we can read, or null (issue 26 item 6):
 * `{}`, `[]`, no `data.object`, an id with a NUL, an amount whose micro units pass the money
 * bound. Answered 400 and changing nothing, where they used to fail inside the transaction (500,
 * retried by the provider for days).
 */
export function eventShapeProblem(event: unknown, maxMicro: number, microPerCent: number): string | null {
  if (!isObject(event)) return 'the body is not a JSON object';
  if (typeof event.id !== 'string' || !EVENT_TOKEN.test(event.id)) return 'id is missing or malformed';
  if (typeof event.type !== 'string' || !EVENT_TOKEN.test(event.type)) return 'type is missing or malformed';
  if (!Number.isSafeInteger(event.created) || (event.created as number) < 0) return 'created is not a time';
  if (event.account !== undefined && event.account !== null && (typeof event.account !== 'string' || !EVENT_TOKEN.test(event.account))) return 'account is malformed';
  if (!isObject(event.data) || !isObject(event.data.object)) return 'data.object is missing';
  for (const field of AMOUNT_FIELDS) {
    const amount = event.data.object[field];
    if (amount === undefined || amount === null) continue;
    if (!Number.isSafeInteger(amount) || (amount as number) < 0 || (amount as number) > Math.floor(maxMicro / microPerCent)) return `data.object.${field} is out of range`;
  }
  return null;
}
