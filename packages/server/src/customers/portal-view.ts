import { DAY, type Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { fail, ok, type Result } from '../platform/errors.js';
import { dayStart, isoDay, monthStart } from '../platform/period.js';
import type { ApiRow } from '../apis/service.js';
import type { Actor } from '../audit/service.js';
import type { AuditService } from '../audit/service.js';
import { customerRoleMay, type MemberActor } from './members.js';
import { raiseKeyEvents } from './events.js';
import * as q from './queries.js';
import type { CustomerService } from './service.js';

/** The longest key name a person may give in the portal, as in the console. */
export const KEY_NAME_MAX = 80;

/**
 * Working keys a customer may have when making one in the portal (docs/decisions.md, "Hardening
 * round two: console and portal"): every key is in the API's SDK snapshot and on the keys page,
 * and a self-signed-up customer made 10,000 in 20 s.
 */
export const PORTAL_ACTIVE_KEYS_MAX = 50;

/** How many UTC days the usage page shows, today included. */
export const USAGE_DAYS = 30;

/** One UTC day of a customer's usage, as the usage page shows it. */
export interface UsageDay {
  day: string;
  requests: number;
  billable: number;
  errors: number;
  chargedMicro: number;
}

const personActor = (actor: MemberActor): Actor => ({ type: 'person', id: actor.person.id, name: actor.person.email, ip: actor.ip });

/**
 * What a customer's people see and do in the portal: their balance and limits, and their keys.
 * Authorization is the caller's membership (MemberActor, checked by the portal against the
 * database), never a console role; the owner's notes and other customers are out of reach.
 */
export class CustomerPortalView {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly customers: CustomerService,
  ) {}

  /** The overview: balance, this month's counts and charges, effective limits, plan, low-balance line. */
  async overview(api: ApiRow, customerId: string) {
    const customer = await this.customers.findRow(this.db, api.id, customerId);
    if (!customer) return null;
    const month = isoDay(monthStart(this.clock.now()));
    const [usage, { effective, planName }] = await Promise.all([q.monthUsageOf(this.db, customer.id, month), this.customers.effectiveOf(api, customer)]);
    const lowBalanceMicro = customer.low_balance_micro ?? api.low_balance_micro;
    return {
      name: customer.name,
      status: customer.status,
      balanceMicro: customer.balance_micro,
      monthRequests: usage.requests,
      monthBillable: usage.billable,
      monthChargedMicro: usage.chargedMicro,
      effective,
      planName,
      lowBalanceMicro,
      // 0 means no warning line at all.
      lowBalance: lowBalanceMicro > 0 && customer.balance_micro < lowBalanceMicro,
    };
  }

  /**
   * The customer's last USAGE_DAYS UTC days, today last, every day present (zeros where nothing
   * was reported). Usage reported late for a day lands on that day, so past days may still grow.
   */
  async usage(actor: MemberActor): Promise<UsageDay[]> {
    const today = dayStart(this.clock.now());
    const days = Array.from({ length: USAGE_DAYS }, (_, i) => isoDay(new Date(today.getTime() - (USAGE_DAYS - 1 - i) * DAY)));
    const rows = await q.usageDaysOf(this.db, actor.apiId, actor.customerId, days[0]!, days.at(-1)!);
    const byDay = new Map(rows.map((row) => [row.day, row]));
    return days.map((day) => {
      const row = byDay.get(day);
      return { day, requests: row?.requests ?? 0, billable: row?.billable ?? 0, errors: row?.errors ?? 0, chargedMicro: row?.charged_micro ?? 0 };
    });
  }

  /** The plan the customer is on, if any (the plans page marks it). */
  async planIdOf(actor: MemberActor): Promise<string | null> {
    return (await this.customers.findRow(this.db, actor.apiId, actor.customerId))?.plan_id ?? null;
  }

  /**
   * The customer's plan and subscription, for the plans page: `subscribed` while a provider
   * subscription is in good standing (active, trialing, or past due within its grace), which the
   * portal then switches or cancels rather than starting another.
   */
  async subscriptionOf(actor: MemberActor) {
    const row = await this.customers.findRow(this.db, actor.apiId, actor.customerId);
    const status = row?.subscription_status ?? null;
    return {
      planId: row?.plan_id ?? null,
      subscribed: row?.plan_source === 'provider' && ['active', 'trialing', 'past_due'].includes(status ?? ''),
      status,
      periodEnd: row?.subscription_period_end ?? null,
      cancelAtPeriodEnd: row?.subscription_cancel_at_period_end ?? false,
    };
  }

  /** The customer's automatic top-ups (AutoRechargeOut), for the billing page. */
  async autoRechargeOf(actor: MemberActor) {
    const row = await this.customers.findRow(this.db, actor.apiId, actor.customerId);
    return {
      enabled: row?.auto_recharge_enabled ?? false,
      thresholdMicro: row?.auto_recharge_threshold_micro ?? 0,
      amountCents: row?.auto_recharge_amount_cents ?? 0,
      hasCard: row?.has_card ?? false,
      failedAt: row?.auto_recharge_failed_at ?? null,
    };
  }

  /** Keys of the customer, oldest first, with whether this person may revoke each. */
  async keys(actor: MemberActor) {
    const rows = await q.activeKeysOf(this.db, actor.apiId, actor.customerId);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      prefix: row.prefix,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      madeByMe: row.created_by_person === actor.person.id,
      mayRevoke: customerRoleMay.manageAllKeys(actor.role) || row.created_by_person === actor.person.id,
    }));
  }

  /** A new key, shown once; every member may make one. Refused while the customer is not active. */
  async createKey(api: ApiRow, actor: MemberActor, name: string): Promise<Result<{ key: string; id: string; prefix: string; name: string }>> {
    const customer = await this.customers.findRow(this.db, api.id, actor.customerId);
    if (!customer) return fail('not_found');
    if (customer.status !== 'active') return fail('customer_state', 'Keys can be made once the customer is active');
    return this.db.transaction().execute(async (trx) => {
      // Key makers of one customer take turns, so two at once cannot both see room for one.
      await q.lockCustomerForKeys(trx, api.id, customer.id);
      const active = await q.countActiveKeys(trx, api.id, customer.id);
      if (active >= PORTAL_ACTIVE_KEYS_MAX) {
        return fail<{ key: string; id: string; prefix: string; name: string }>('customer_key_limit', `${customer.name} has ${active} working keys, as many as the portal makes (${PORTAL_ACTIVE_KEYS_MAX}). Revoke a key you no longer use to make another.`);
      }
      const issued = await this.customers.issueKey(trx, api, customer, name, personActor(actor), actor.person.id);
      return ok({ key: issued.key, id: issued.id, prefix: issued.prefix, name: issued.name });
    });
  }

  /** Revokes a key: owners and admins any of the customer's, members the ones they made. */
  async revokeKey(api: ApiRow, actor: MemberActor, keyId: string): Promise<Result<{ name: string }>> {
    if (!/^[0-9a-f-]{36}$/i.test(keyId)) return fail('not_found');
    const key = (await q.activeKeysOf(this.db, actor.apiId, actor.customerId)).find((row) => row.id === keyId);
    if (!key) return fail('not_found');
    if (!customerRoleMay.manageAllKeys(actor.role) && key.created_by_person !== actor.person.id) return fail('forbidden');
    const customer = (await this.customers.findRow(this.db, api.id, actor.customerId))!;
    return this.db.transaction().execute(async (trx) => {
      const row = await q.revokeKey(trx, actor.apiId, actor.customerId, keyId, this.clock.now());
      if (!row) return fail<{ name: string }>('not_found');
      await raiseKeyEvents(trx, actor.apiId, this.clock.now(), 'key.revoked', [row]);
      await this.audit.record(trx, personActor(actor), {
        workspaceId: api.workspace_id,
        action: 'customer_key.revoke',
        target: { type: 'customer_key', id: keyId },
        api: { id: api.id, name: api.name },
        customer: { id: customer.id, name: customer.name },
        summary: `${actor.person.email} revoked key ${row.name} (${row.prefix}…) of ${customer.name} in the portal`,
        details: { key_id: keyId, prefix: row.prefix },
      });
      return ok({ name: row.name });
    });
  }
}
