import type { Db } from '../platform/db/database.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { ApiService } from '../apis/service.js';
import type { CustomerService } from '../customers/service.js';
import * as mails from './mails.js';
import * as q from './queries.js';

/** Customers mailed per run; the rest wait for the next. */
const BATCH = 200;

/**
 * The low-balance mail (issue 13 item 6): when a customer's balance falls below its
 * `low_balance_micro` (else its API's; 0 is none), one mail to its owners and admins, and none
 * again until the balance is back at or above the line. A job looks every 30 seconds rather than
 * every balance change watching itself: usage reports stay one statement per report, and a dip
 * that recovers within the half minute needed no mail. `low_balance_mailed` is set in the
 * transaction that queues the mail, so two runs at once mail once.
 */
export class LowBalanceAlerts {
  constructor(
    private readonly db: Db,
    private readonly outbox: MailOutbox,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
  ) {}

  async check(): Promise<{ mailed: number; rearmed: number }> {
    const rearmed = await q.rearmLowBalance(this.db);
    let mailed = 0;
    for (const due of await q.lowBalanceDue(this.db, BATCH)) {
      const sent = await this.db.transaction().execute(async (trx) => {
        const claimed = await q.claimLowBalance(trx, due.api_id, due.id);
        if (!claimed) return false;
        const api = await this.apis.findById(trx, due.api_id);
        const customer = await this.customers.findRow(trx, due.api_id, due.id);
        if (!api || !customer) return false;
        const billing = `${this.apis.portalUrl(api.slug)}/billing`;
        for (const to of await this.customers.billingContacts(trx, api.id, customer)) {
          await this.outbox.enqueue(trx, mails.lowBalance(to, api.name, customer.name, claimed.balance_micro, claimed.line, billing));
        }
        return true;
      });
      if (sent) mailed++;
    }
    if (mailed) this.outbox.kick();
    return { mailed, rearmed };
  }
}
