import type { Db } from '../platform/db/database.js';
import { Problem, unwrap } from '../platform/errors.js';
import type { ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import type { CustomerService } from '../customers/service.js';
import type { PaymentReceipts } from './receipts.js';
import type { PaymentsService } from './service.js';

/** A payment's state as the console lists it (issue 23 item 2). */
export type PaymentStatus = 'paid' | 'partially_refunded' | 'refunded' | 'disputed' | 'dispute_won' | 'dispute_lost';

/**
 * A customer's subscription and payments from the console (issue 23 item 2). Switching and
 * cancelling go to the provider first; the customer's plan changes only when the provider's event
 * says so (with the development provider that is before the call answers; with Stripe, moments
 * later), so the console and the provider never disagree about what is billed.
 */
export class CustomerSubscriptions {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
    private readonly payments: PaymentsService,
    private readonly receipts: PaymentReceipts,
  ) {}

  async #record(caller: Caller, apiId: string, customerId: string, action: string, summary: (name: string) => string, details: Record<string, unknown>) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const customer = await this.customers.findRow(this.db, apiId, customerId);
    if (!customer) throw new Problem('not_found', 'No such customer');
    await this.db.transaction().execute((trx) =>
      this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id, action, target: { type: 'customer', id: customerId }, api: { id: api.id, name: api.name }, customer: { id: customerId, name: customer.name }, summary: summary(customer.name), details,
      }),
    );
  }

  /** Both checks before the provider is asked: the caller may change customers, and this is one of theirs. */
  async #editable(caller: Caller, apiId: string, customerId: string) {
    await this.apis.access(caller, apiId, 'editor');
    const customer = await this.customers.findRow(this.db, apiId, customerId);
    if (!customer || customer.archived_at) throw new Problem('not_found', 'No such customer');
  }

  /** Moves the customer's subscription to another plan; the provider prorates. */
  async switchPlan(caller: Caller, apiId: string, customerId: string, planId: string) {
    await this.#editable(caller, apiId, customerId);
    const result = await this.payments.switchSubscription({ apiId, customerId, planId });
    if (!result.ok && result.code === 'not_found') throw new Problem('validation', 'No active plan of this API has that id', [{ location: 'body.plan_id', message: 'no active plan of this API has that id', value: planId }]);
    unwrap(result);
    await this.#record(caller, apiId, customerId, 'customer.subscription_switch', (name) => `Moved the subscription of ${name} to plan ${planId}`, { plan_id: planId });
    return this.customers.get(caller, apiId, customerId);
  }

  /** Ends the subscription at the end of the paid period (default), or at once. */
  async cancel(caller: Caller, apiId: string, customerId: string, atPeriodEnd: boolean) {
    await this.#editable(caller, apiId, customerId);
    unwrap(await this.payments.cancelSubscription({ apiId, customerId, atPeriodEnd }));
    await this.#record(caller, apiId, customerId, 'customer.subscription_cancel', (name) => `Canceled the subscription of ${name} ${atPeriodEnd ? 'at the end of its period' : 'at once'}`, { at_period_end: atPeriodEnd });
    return this.customers.get(caller, apiId, customerId);
  }

  /** Undoes a cancellation at the end of the period. */
  async resume(caller: Caller, apiId: string, customerId: string) {
    await this.#editable(caller, apiId, customerId);
    unwrap(await this.payments.resumeSubscription({ apiId, customerId }));
    await this.#record(caller, apiId, customerId, 'customer.subscription_resume', (name) => `Kept the subscription of ${name}`, {});
    return this.customers.get(caller, apiId, customerId);
  }

  /** Receipts and paid invoices, newest first, with their refunds and disputes. */
  async list(caller: Caller, apiId: string, customerId: string, limit: number) {
    await this.apis.access(caller, apiId, 'viewer');
    const customer = await this.customers.findRow(this.db, apiId, customerId);
    if (!customer) throw new Problem('not_found', 'No such customer');
    const rows = await this.receipts.list(apiId, customerId, limit);
    return {
      payments: rows.map((r) => ({
        id: r.ref,
        kind: r.kind,
        description: r.kind === 'topup' ? 'Top-up' : r.kind === 'auto_recharge' ? 'Automatic top-up' : r.description || 'Plan',
        amount_cents: r.amountCents,
        credit_micro: r.creditMicro,
        status: statusOf(r),
        refunded_cents: r.refundedCents,
        credit_taken_back_micro: r.refundedCreditMicro + (r.disputeStatus === 'open' || r.disputeStatus === 'lost' ? r.disputedCreditMicro : 0),
        ...(r.receiptUrl ? { url: r.receiptUrl } : {}),
        created_at: r.at.toISOString(),
      })),
    };
  }
}

function statusOf(r: { amountCents: number; refundedCents: number; disputeStatus: string | null }): PaymentStatus {
  if (r.disputeStatus === 'open') return 'disputed';
  if (r.disputeStatus === 'lost') return 'dispute_lost';
  if (r.refundedCents >= r.amountCents && r.amountCents > 0) return 'refunded';
  if (r.refundedCents > 0) return 'partially_refunded';
  return r.disputeStatus === 'won' ? 'dispute_won' : 'paid';
}
