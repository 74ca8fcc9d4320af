import type { Clock } from '../platform/clock.js';
import { MINUTE } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import { fail, ok, type Result } from '../platform/errors.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import type { MemberActor } from '../customers/members.js';
import type { CustomerService } from '../customers/service.js';
import * as mails from './mails.js';
import type { OffSessionChargeResult } from './provider.js';
import * as q from './queries.js';
import { raisePaymentFailed } from './webhook-events.js';

/**
 * No second automatic charge of a customer within this time of the last one starting
 * (docs/decisions.md): a payment the provider is still processing, or usage faster than the
 * recharge amount, must not turn into a charge every run.
 */
export const AUTO_RECHARGE_COOLDOWN_MS = 10 * MINUTE;
/** A charge in flight this long (its node died) no longer holds the customer's one slot. */
export const AUTO_RECHARGE_STALE_MS = 15 * MINUTE;
/** The highest threshold a customer may set: 10,000.00 of credit. */
export const MAX_THRESHOLD_MICRO = 10_000_000_000;
/** Customers charged per run; the rest wait for the next run. */
const BATCH = 100;

export type Charge = (input: { apiId: string; customerId: string; amountCents: number; idempotencyKey: string }) => Promise<Result<OffSessionChargeResult>>;

export interface AutoRechargeSettings {
  enabled: boolean;
  thresholdMicro: number;
  amountCents: number;
}

/**
 * Auto-recharge (issue 13 item 5): a customer's owners and admins save a card and set a threshold
 * and an amount; a job charges the card off-session when the balance is below the threshold, at
 * most one charge in flight per customer and none within the cool-down of the last. The credit
 * comes with the provider's event, like any payment; a failure pauses auto-recharge and mails the
 * customer's owners and admins until they act (save a card, or save the settings again).
 */
export class AutoRecharge {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
    /** The payments service's off-session charge (bound late: it is built after this). */
    private readonly charge: Charge,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The amounts a customer may set: from the API's minimum top-up (at least 1.00) to 100,000 cents. */
  amountBounds(api: { min_topup_cents: number }, maxCents: number) {
    return { min: Math.max(100, api.min_topup_cents), max: maxCents };
  }

  /** Saves the settings a member of the customer chose on the portal (owners and admins; checked by the page). */
  async save(actor: MemberActor, settings: AutoRechargeSettings, maxCents: number): Promise<Result<AutoRechargeSettings>> {
    const api = await this.apis.findById(this.db, actor.apiId);
    const customer = api ? await this.customers.findRow(this.db, api.id, actor.customerId) : undefined;
    if (!api || !customer) return fail('not_found');
    if (!api.auto_recharge_allowed) return fail('payment_state', `${api.name} does not offer automatic top-ups`);
    const amount = this.amountBounds(api, maxCents);
    if (!Number.isSafeInteger(settings.amountCents) || settings.amountCents < amount.min || settings.amountCents > amount.max) {
      return fail('validation', `The amount is ${amount.min} to ${amount.max} cents`, [{ location: 'amount', message: `from ${amount.min} to ${amount.max} cents`, value: settings.amountCents }]);
    }
    if (!Number.isSafeInteger(settings.thresholdMicro) || settings.thresholdMicro < 0 || settings.thresholdMicro > MAX_THRESHOLD_MICRO) {
      return fail('validation', `The threshold is 0 to ${MAX_THRESHOLD_MICRO} micro units`, [{ location: 'threshold', message: `from 0 to ${MAX_THRESHOLD_MICRO}`, value: settings.thresholdMicro }]);
    }
    if (settings.enabled && !customer.has_card) return fail('payment_state', 'Save a card first');
    await this.db.transaction().execute(async (trx) => {
      await q.saveAutoRecharge(trx, api.id, customer.id, settings, this.clock.now());
      await this.audit.record(trx, { type: 'person', id: actor.person.id, name: actor.person.email, ip: actor.ip }, {
        workspaceId: api.workspace_id, action: 'customer.auto_recharge', target: { type: 'customer', id: customer.id }, api: { id: api.id, name: api.name }, customer: { id: customer.id, name: customer.name },
        summary: `${actor.person.email} turned automatic top-ups of ${customer.name} ${settings.enabled ? `on: ${settings.amountCents} cents below ${settings.thresholdMicro} micro units` : 'off'} in the portal`,
        details: { enabled: settings.enabled, threshold_micro: settings.thresholdMicro, amount_cents: settings.amountCents },
      });
    });
    return ok(settings);
  }

  /**
   * Pauses auto-recharge after a failed charge (the job's answer or the provider's failure event,
   * whichever comes first) and mails the customer's owners and admins, once per failure.
   */
  async pause(trx: Trx, apiId: string, customerId: string, at: Date, reason: string, paymentId: string | null = null): Promise<boolean> {
    if (!(await q.pauseAutoRecharge(trx, apiId, customerId, at))) return false;
    const api = await this.apis.findById(trx, apiId);
    const customer = await this.customers.findRow(trx, apiId, customerId);
    if (!api || !customer) return true;
    await raisePaymentFailed(trx, apiId, at, { id: paymentId, customerId, kind: 'auto_recharge', amountCents: customer.auto_recharge_amount_cents, creditMicro: 0, reason });
    const billing = `${this.apis.portalUrl(api.slug)}/billing`;
    for (const to of await this.customers.billingContacts(trx, apiId, customer)) {
      await this.outbox.enqueue(trx, mails.autoRechargeFailed(to, api.name, customer.name, customer.auto_recharge_amount_cents, reason, billing));
    }
    return true;
  }

  /** The job: one charge for every customer whose auto-recharge is due. */
  async chargeDue(): Promise<{ charged: number; failed: number }> {
    const now = this.clock.now();
    const cutoffs = { cooldownBefore: new Date(now.getTime() - AUTO_RECHARGE_COOLDOWN_MS), staleBefore: new Date(now.getTime() - AUTO_RECHARGE_STALE_MS) };
    let charged = 0;
    let failed = 0;
    for (const due of await q.autoRechargeDue(this.db, cutoffs, BATCH)) {
      const claimed = await q.claimAutoRecharge(this.db, due.api_id, due.id, now, cutoffs);
      if (!claimed) continue;
      try {
        // Named by the claim: a retry of this very charge (the library's) is the same charge.
        const result = await this.charge({ apiId: due.api_id, customerId: due.id, amountCents: claimed.auto_recharge_amount_cents, idempotencyKey: `gh-recharge-${due.id}-${now.getTime()}` });
        // The owner's account cannot take charges (disconnected, or onboarding not done): nothing
        // the customer can act on, so no pause and no mail; the cool-down spaces the next try.
        if (!result.ok && (result.code === 'payments_not_ready' || result.code === 'payments_not_configured')) continue;
        const reason = !result.ok ? (result.detail ?? result.code) : result.value.status === 'failed' ? result.value.reason : null;
        if (reason === null) {
          charged++;
        } else {
          failed++;
          const paymentId = result.ok && result.value.status === 'failed' ? result.value.paymentIntentId : null;
          await this.db.transaction().execute((trx) => this.pause(trx, due.api_id, due.id, this.clock.now(), reason, paymentId));
          this.outbox.kick();
        }
      } catch (error) {
        // The provider did not answer: the cool-down spaces the next try.
        this.onError(error);
      } finally {
        await q.releaseAutoRecharge(this.db, due.api_id, due.id, now);
      }
    }
    return { charged, failed };
  }
}
