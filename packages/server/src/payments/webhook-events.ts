import type { Trx } from '../platform/db/database.js';
import { raiseEvents } from '../webhooks/outbox.js';
import type { ReceiptKind } from './tables.js';

// Payment events to owners (issue 24 item 4), raised where a payment's outcome is written: a
// receipt for money taken, a pause of auto-recharge or a failed invoice for money not taken.
// A payment moves only forward (failed, succeeded, refunded), so its `updated_seq` is that step.

export type PaymentStatus = 'failed' | 'succeeded' | 'refunded';
const STEP: Record<PaymentStatus, number> = { failed: 1, succeeded: 2, refunded: 3 };

export interface PaymentFacts {
  /** The provider's object: checkout session (top-up), payment intent (auto-recharge), invoice (plan); null when the provider named none. */
  id: string | null;
  customerId: string;
  kind: ReceiptKind;
  amountCents: number | null;
  /** Credit the payment added, in micro units (0 for a failed one). */
  creditMicro: number;
  reason?: string;
}

export function paymentObject(payment: PaymentFacts, status: PaymentStatus) {
  return {
    object: 'payment',
    id: payment.id,
    customer_id: payment.customerId,
    kind: payment.kind,
    status,
    amount_cents: payment.amountCents,
    credit_micro: payment.creditMicro,
    ...(payment.reason ? { failure_reason: payment.reason } : {}),
    updated_seq: STEP[status],
  };
}

export function raisePaymentSucceeded(trx: Trx, apiId: string, at: Date, payment: PaymentFacts) {
  return raiseEvents(trx, apiId, at, [{ type: 'payment.succeeded', data: { object: paymentObject(payment, 'succeeded') } }]);
}

/** payment.failed; an automatic top-up's failure is auto_recharge.failed too. */
export function raisePaymentFailed(trx: Trx, apiId: string, at: Date, payment: PaymentFacts) {
  const object = paymentObject(payment, 'failed');
  return raiseEvents(trx, apiId, at, [
    { type: 'payment.failed', data: { object } },
    ...(payment.kind === 'auto_recharge' ? [{ type: 'auto_recharge.failed' as const, data: { object } }] : []),
  ]);
}

/** payment.refunded: for the refunds of issue 23 to raise where a refund is written (see the report of issue 24). */
export function raisePaymentRefunded(trx: Trx, apiId: string, at: Date, payment: PaymentFacts) {
  return raiseEvents(trx, apiId, at, [{ type: 'payment.refunded', data: { object: paymentObject(payment, 'refunded') } }]);
}
