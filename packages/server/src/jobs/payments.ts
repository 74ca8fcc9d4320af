import { MINUTE, SECOND } from '../platform/clock.js';
import type { DevProvider } from '../payments/dev-provider.js';
import type { PaymentsService } from '../payments/service.js';
import type { Job } from './scheduler.js';

/** Plans whose price is not on sale at the provider yet (new, changed, or a failed try) are synced again. */
export function planSyncJob(payments: PaymentsService): Job {
  // Safe on several nodes at once: a price is made under an idempotency key and recorded once.
  return { name: 'payments-plan-sync', lockKey: 7_310_131, everyMs: 5 * MINUTE, exclusive: false, run: () => payments.syncAllPlans() };
}

/**
 * Graces that ran out: customers' subscriptions past due for 7 days read `unpaid` (their plan no
 * longer applies), and platform plans past their grace or canceled period go back to `free`.
 */
export function paymentGraceJob(payments: PaymentsService): Job {
  return {
    name: 'payments-grace',
    lockKey: 7_310_132,
    everyMs: 15 * MINUTE,
    // Safe on several nodes at once: each change re-checks the state under its row lock.
    exclusive: false,
    run: async () => ({ customers: await payments.events.endGraces(), platform: await payments.endPlatformPlans() }),
  };
}

/** Receipts whose mail did not go out with their webhook (the provider's link failed, a crash). */
export function receiptsJob(payments: PaymentsService): Job {
  // Safe on several nodes at once: each receipt is claimed before it is mailed.
  return { name: 'payments-receipts', lockKey: 7_310_133, everyMs: MINUTE, exclusive: false, run: () => payments.receipts.deliverPending() };
}

/** The development provider's subscriptions renew (or end) at the end of their period, as Stripe's do. */
export function devRenewalsJob(provider: DevProvider): Job {
  // Safe on several nodes at once: a period is moved on by one conditional update.
  return { name: 'payments-dev-renewals', lockKey: 7_310_134, everyMs: MINUTE, exclusive: false, run: () => provider.renewDue() };
}

/**
 * Auto-recharge: every 20 seconds, a charge for each customer below its threshold (one in flight
 * per customer, none within the cool-down; payments/auto-recharge.ts).
 */
export function autoRechargeJob(payments: PaymentsService): Job {
  // Safe on several nodes at once: each customer's charge is claimed by a conditional update.
  return { name: 'payments-auto-recharge', lockKey: 7_310_135, everyMs: 20 * SECOND, exclusive: false, run: () => payments.autoRecharge.chargeDue() };
}

/** Low-balance mails: every 30 seconds, customers that fell below their line since the last look. */
export function lowBalanceJob(payments: PaymentsService): Job {
  // Safe on several nodes at once: the flag that a mail went out is set with the mail.
  return { name: 'payments-low-balance', lockKey: 7_310_136, everyMs: 30 * SECOND, exclusive: false, run: () => payments.lowBalance.check() };
}
