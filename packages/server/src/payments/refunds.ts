import type { Trx } from '../platform/db/database.js';
import type { LedgerService } from '../ledger/service.js';
import type { LedgerKind } from '../ledger/tables.js';
import * as q from './queries.js';
import type { PaymentEvent } from './stripe-events.js';
import { raisePaymentRefunded } from './webhook-events.js';

// Refunds and disputes take a payment's credit back (issue 23 item 5). The owner refunds in their
// own provider dashboard (direct charges, docs/decisions.md), so the provider's events are how we
// hear of it. Each is one ledger entry whose ref is the provider's object (the refund, the
// dispute, `<dispute>:won` for a dispute won back): a replayed event, or the same refund under
// another event id, adds nothing. The balance may go below zero; the SDK then refuses billable
// requests as for any negative balance (DESIGN 7).

type Refund = Extract<PaymentEvent, { kind: 'charge_refunded' }>;
type Dispute = Extract<PaymentEvent, { kind: 'dispute' }>;
type Receipt = NonNullable<Awaited<ReturnType<typeof q.lockReceiptByIntent>>>;

/** Credit of one cent (a top-up adds cents × 10,000 micro units). */
const MICRO_PER_CENT = 10_000;

/** The credit a payment added: a plan invoice's own credit, else its amount in micro units. */
const creditOf = (receipt: Receipt) => receipt.credit_micro ?? receipt.amount_cents * MICRO_PER_CENT;

/**
 * The share of a payment's credit that `cents` of it stands for, rounded down (in bigint: a
 * credit of 10^11 times 10^5 cents passes 2^53). A whole refund takes the whole credit back.
 */
export function creditShare(creditMicro: number, cents: number, paidCents: number): number {
  if (paidCents <= 0 || cents >= paidCents) return creditMicro;
  return Number((BigInt(creditMicro) * BigInt(Math.max(0, cents))) / BigInt(paidCents));
}

export interface ReversalDeps {
  ledger: LedgerService;
  now: () => Date;
  /** Whether the account is the one connected to the API (events of other accounts count for nothing). */
  ownedBy: (trx: Trx, apiId: string, accountId: string) => Promise<boolean>;
}

async function receiptOf(trx: Trx, deps: ReversalDeps, accountId: string, paymentIntentId: string): Promise<Receipt | string> {
  const receipt = await q.lockReceiptByIntent(trx, accountId, paymentIntentId);
  if (!receipt) return 'ignored: no payment of ours has this payment intent';
  if (!(await deps.ownedBy(trx, receipt.api_id, accountId))) return 'ignored: account not connected to the API';
  return receipt;
}

async function post(trx: Trx, deps: ReversalDeps, receipt: Receipt, kind: LedgerKind, amountMicro: number, ref: string, note: string): Promise<{ applied: boolean; outcome: string }> {
  const posted = await deps.ledger.post(trx, { apiId: receipt.api_id, customerId: receipt.customer_id, kind, amountMicro, note, actor: 'payments', ref });
  if (!posted.ok) return { applied: false, outcome: `refused: ${posted.code}` };
  return posted.value.applied ? { applied: true, outcome: `${kind} ${amountMicro}` } : { applied: false, outcome: `duplicate ref ${ref}` };
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** `charge.refunded`: takes back the credit of what was refunded since the last refund we saw. */
export async function applyRefund(trx: Trx, deps: ReversalDeps, event: Refund): Promise<string> {
  const receipt = await receiptOf(trx, deps, event.accountId, event.paymentIntentId);
  if (typeof receipt === 'string') return receipt;
  const refunded = Math.min(event.amountRefundedCents, receipt.amount_cents);
  if (refunded <= receipt.refunded_cents) return 'ignored: refunded before';
  const taken = creditShare(creditOf(receipt), refunded, receipt.amount_cents);
  const delta = taken - receipt.refunded_credit_micro;
  const ref = event.refundId ?? `${event.chargeId}:refunded:${refunded}`;
  let outcome = 'refund of a payment that added no credit';
  if (delta > 0) {
    const note = `Refund of ${dollars(refunded - receipt.refunded_cents)} (${receipt.kind === 'plan' ? receipt.description : receipt.kind === 'topup' ? 'top-up' : 'automatic top-up'})`;
    const posted = await post(trx, deps, receipt, 'refund', -delta, ref, note);
    if (!posted.applied) return posted.outcome;
    outcome = posted.outcome;
  }
  await q.updateReceiptReversal(trx, receipt.api_id, receipt.ref, { refunded_cents: refunded, refunded_credit_micro: receipt.refunded_credit_micro + Math.max(0, delta) });
  await raisePaymentRefunded(trx, receipt.api_id, deps.now(), { id: receipt.ref, customerId: receipt.customer_id, kind: receipt.kind, amountCents: refunded, creditMicro: -(receipt.refunded_credit_micro + Math.max(0, delta)) });
  return outcome;
}

/**
 * `charge.dispute.created` takes the disputed amount's credit (the provider holds the money while
 * the dispute runs); `charge.dispute.closed` as `won` gives it back. A lost dispute keeps it taken.
 * A closing event that comes first records the dispute, so the late opening one finds it known.
 */
export async function applyDispute(trx: Trx, deps: ReversalDeps, event: Dispute): Promise<string> {
  const receipt = await receiptOf(trx, deps, event.accountId, event.paymentIntentId);
  if (typeof receipt === 'string') return receipt;
  if (receipt.dispute_id && receipt.dispute_id !== event.disputeId) return 'ignored: the payment has another dispute';
  if (!event.closed) {
    if (receipt.dispute_id) return 'ignored: dispute known';
    const taken = creditShare(creditOf(receipt), event.amountCents, receipt.amount_cents);
    const posted = taken > 0 ? await post(trx, deps, receipt, 'dispute', -taken, event.disputeId, `Dispute of ${dollars(event.amountCents)}`) : { applied: true, outcome: 'dispute of a payment that added no credit' };
    if (!posted.applied) return posted.outcome;
    await q.updateReceiptReversal(trx, receipt.api_id, receipt.ref, { dispute_id: event.disputeId, dispute_status: 'open', disputed_credit_micro: taken });
    return posted.outcome;
  }
  if (receipt.dispute_status && receipt.dispute_status !== 'open') return 'ignored: dispute closed before';
  if (event.status !== 'won' || !receipt.dispute_id || receipt.disputed_credit_micro <= 0) {
    await q.updateReceiptReversal(trx, receipt.api_id, receipt.ref, { dispute_id: event.disputeId, dispute_status: event.status });
    return `dispute closed ${event.status}`;
  }
  const posted = await post(trx, deps, receipt, 'dispute_won', receipt.disputed_credit_micro, `${event.disputeId}:won`, `Dispute won: ${dollars(event.amountCents)} back`);
  if (!posted.applied) return posted.outcome;
  await q.updateReceiptReversal(trx, receipt.api_id, receipt.ref, { dispute_status: 'won' });
  return posted.outcome;
}
