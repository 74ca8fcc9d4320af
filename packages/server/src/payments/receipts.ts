import type { Clock } from '../platform/clock.js';
import { MINUTE } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { ApiService } from '../apis/service.js';
import type { CustomerService } from '../customers/service.js';
import * as mails from './mails.js';
import type { PaymentsProvider } from './provider.js';
import * as q from './queries.js';
import type { ReceiptKind } from './tables.js';
import { raisePaymentSucceeded } from './webhook-events.js';

/** A receipt whose delivery started this long ago and never finished (a crash) is taken again. */
const CLAIM_STALE_MS = 5 * MINUTE;
/** Receipts mailed per run; the rest wait for the next. */
const BATCH = 50;
/** Credit of one cent (a top-up adds cents × 10,000 micro units). */
const MICRO_PER_CENT = 10_000;

/**
 * Receipts of payments that added credit (issue 13 item 3). The webhook transaction that credits
 * writes the receipt; mailing it happens after, because the provider's receipt link is one more
 * call to the provider, which must not run inside a transaction. A receipt is claimed before it
 * is mailed and marked mailed in the transaction that queues the mail, so two runs at once (the
 * webhook's own and the job's) mail it once.
 */
export class PaymentReceipts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: MailOutbox,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
    private readonly provider: PaymentsProvider | null,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** In the transaction that credited: the payer is whoever started the checkout on the portal. */
  async record(trx: Trx, payment: { apiId: string; customerId: string; ref: string; kind: Exclude<ReceiptKind, 'plan'>; accountId: string; amountCents: number; paymentIntentId: string | null }): Promise<void> {
    const checkout = payment.kind === 'topup' ? await q.checkoutOf(trx, payment.apiId, payment.ref) : undefined;
    await q.insertReceipt(trx, {
      api_id: payment.apiId, ref: payment.ref, customer_id: payment.customerId, kind: payment.kind, account_id: payment.accountId, amount_cents: payment.amountCents,
      payer_email: checkout?.email ?? null, receipt_url: null, mail_claimed_at: null, mailed_at: null, created_at: this.clock.now(), payment_intent_id: payment.paymentIntentId,
    });
    await raisePaymentSucceeded(trx, payment.apiId, this.clock.now(), { id: payment.ref, customerId: payment.customerId, kind: payment.kind, amountCents: payment.amountCents, creditMicro: payment.amountCents * MICRO_PER_CENT });
  }

  /**
   * A paid invoice of a customer's plan, in the transaction of its event. The provider's invoice
   * page is its receipt; the provider mails invoices itself, so none is mailed here.
   */
  async recordInvoice(trx: Trx, invoice: { apiId: string; customerId: string; invoiceId: string; accountId: string; amountCents: number; creditMicro: number; planName: string; url: string | null; paymentIntentId: string | null }): Promise<void> {
    const now = this.clock.now();
    await q.insertReceipt(trx, {
      api_id: invoice.apiId, ref: invoice.invoiceId, customer_id: invoice.customerId, kind: 'plan', account_id: invoice.accountId, amount_cents: invoice.amountCents,
      credit_micro: invoice.creditMicro, description: `Plan ${invoice.planName}`, payer_email: null, receipt_url: invoice.url, mail_claimed_at: null, mailed_at: now, created_at: now,
      payment_intent_id: invoice.paymentIntentId,
    });
    await raisePaymentSucceeded(trx, invoice.apiId, now, { id: invoice.invoiceId, customerId: invoice.customerId, kind: 'plan', amountCents: invoice.amountCents, creditMicro: invoice.creditMicro });
  }

  /** Mails every receipt not mailed yet; the number mailed. Called after each webhook and by a job. */
  async deliverPending(): Promise<number> {
    const now = this.clock.now();
    const stale = new Date(now.getTime() - CLAIM_STALE_MS);
    let mailed = 0;
    for (const pending of await q.unmailedReceipts(this.db, stale, BATCH)) {
      const receipt = await q.claimReceipt(this.db, pending.api_id, pending.ref, now, stale);
      // Plan invoices are written as mailed (the provider mails them); none reaches here.
      if (!receipt || receipt.kind === 'plan') continue;
      const kind = receipt.kind;
      const api = await this.apis.findById(this.db, receipt.api_id);
      const customer = await this.customers.findRow(this.db, receipt.api_id, receipt.customer_id);
      if (!api || !customer) continue;
      let url: string | null = receipt.receipt_url;
      try {
        url ??= this.provider ? await this.provider.receiptUrl({ accountId: receipt.account_id, kind: receipt.kind, objectId: receipt.ref }) : null;
      } catch (error) {
        // Without the provider's link the mail still goes, pointing at the portal's billing page.
        this.onError(error);
      }
      const link = url ? { url, isReceipt: true } : { url: `${this.apis.portalUrl(api.slug)}/billing`, isReceipt: false };
      const to = receipt.payer_email ? [receipt.payer_email] : await this.customers.billingContacts(this.db, api.id, customer);
      await this.db.transaction().execute(async (trx) => {
        for (const address of to) {
          await this.outbox.enqueue(trx, mails.receipt(address, api.name, customer.name, kind, receipt.amount_cents, receipt.amount_cents * MICRO_PER_CENT, link));
        }
        await q.markReceiptMailed(trx, receipt.api_id, receipt.ref, url, this.clock.now());
      });
      mailed++;
    }
    if (mailed) this.outbox.kick();
    return mailed;
  }

  /** A customer's receipts for the portal, newest first. */
  async list(apiId: string, customerId: string, limit = 20) {
    return (await q.receiptsOf(this.db, apiId, customerId, limit)).map((r) => ({
      ref: r.ref, kind: r.kind, description: r.description, amountCents: r.amount_cents, creditMicro: r.credit_micro ?? r.amount_cents * MICRO_PER_CENT, receiptUrl: r.receipt_url, at: r.created_at,
      refundedCents: r.refunded_cents, refundedCreditMicro: r.refunded_credit_micro, disputeStatus: r.dispute_status, disputedCreditMicro: r.disputed_credit_micro,
    }));
  }
}
