import { formatApiKey } from '@gatehouse/protocol';
import { withinPlanLimit } from '../apis/platform-plans.js';
import { randomUUID } from 'node:crypto';
import type { Clock } from '../platform/clock.js';
import { sha256Hex } from '../platform/crypto.js';
import { decodeCursor, pageOf } from '../platform/cursor.js';
import type { Db, Trx } from '../platform/db/database.js';
import { fail, ok, Problem, validationProblem, type Result } from '../platform/errors.js';
import { newId, randomBase62 } from '../platform/ids.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { isoDay, monthStart } from '../platform/period.js';
import type { ApiRow, ApiService } from '../apis/service.js';
import { normalizeEmail } from '../accounts/accounts.js';
import type { Actor, AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import type { LedgerService } from '../ledger/service.js';
import { effectiveLimits, hasCustomLimits, planInForce } from './effective.js';
import { refreshPolicies } from './policies.js';
import { memberSummaries } from './members.js';
import { raiseCustomerChanges, raiseCustomerEvent, raiseKeyEvents } from './events.js';
import * as mails from './mails.js';
import * as q from './queries.js';
import { raiseSubscriptionEvents } from './subscription-events.js';
import type { Selectable, Updateable } from 'kysely';
import type { CustomersTable, CustomerStatus } from './tables.js';

/** The test customer starts with this much credit and is topped up to it on every new test key. */
export const TEST_CREDIT_MICRO = 10_000_000;

type CustomerRow = Selectable<CustomersTable>;

/** The columns the payments provider's events keep (spec 2.2 CustomerDetail). */
/** Subscription statuses in which the provider bills the customer for its plan. */
const LIVE_SUBSCRIPTION = new Set(['active', 'trialing', 'past_due']);

export type ProviderBilling = Partial<Pick<CustomerRow, 'plan_id' | 'plan_source' | 'provider_customer_id' | 'subscription_status' | 'subscription_period_end' | 'subscription_cancel_at_period_end' | 'has_card' | 'auto_recharge_failed_at'>>;

export interface LimitsInput {
  monthly_quota?: number | null;
  price_per_request_micro?: number | null;
  rps?: number | null;
}

export interface CustomerChanges {
  status?: CustomerStatus;
  notes?: string;
  plan_id?: string | null;
  /** The customer's own low-balance line; null: the API's. */
  low_balance_micro?: number | null;
}

/**
 * The columns a PATCH of a customer changes: only what differs from the row, so a change that
 * changes nothing is seen as one (no write, no audit event, as PATCH /apis/{api}). Removing the
 * plan of a customer without one, or assigning by hand the plan it already has by hand, is none.
 */
export function changedColumns(customer: CustomerRow, changes: CustomerChanges): Partial<CustomerRow> {
  const set: Partial<CustomerRow> = {};
  if (changes.status !== undefined && changes.status !== customer.status) set.status = changes.status;
  if (changes.notes !== undefined && changes.notes !== customer.notes) set.notes = changes.notes;
  if (changes.low_balance_micro !== undefined && changes.low_balance_micro !== customer.low_balance_micro) set.low_balance_micro = changes.low_balance_micro;
  if (changes.plan_id === null && customer.plan_id !== null) {
    Object.assign(set, { plan_id: null, plan_source: '', subscription_status: null, subscription_period_end: null });
  } else if (typeof changes.plan_id === 'string' && (changes.plan_id !== customer.plan_id || customer.plan_source !== 'manual')) {
    Object.assign(set, { plan_id: changes.plan_id, plan_source: 'manual', subscription_status: null, subscription_period_end: null });
  }
  return set;
}

/** An archived customer is kept for its record only: nothing about it changes any more (409). */
function assertNotArchived(customer: { archived_at: Date | null }) {
  if (customer.archived_at) throw new Problem('customer_state', 'The customer is archived');
}

/** Customers of an API, their limits, keys and the test customer (spec 2.2). */
export class CustomerService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly ledger: LedgerService,
    private readonly outbox: MailOutbox,
  ) {}

  #month(): string {
    return isoDay(monthStart(this.clock.now()));
  }

  async refreshPolicies(trx: Trx, apiId: string, customerIds: string[] | null = null) {
    const api = await this.apis.findById(trx, apiId);
    if (api) await refreshPolicies(trx, api, customerIds, this.clock.now());
  }

  #effective(api: ApiRow, customer: CustomerRow, plan: { price_per_request_micro: number | null; rps: number | null; monthly_quota: number | null } | null) {
    const limits = effectiveLimits({
      api,
      plan: plan && planInForce(customer) ? plan : null,
      custom: { price_per_request_micro: customer.custom_price_per_request_micro, rps: customer.custom_rps, monthly_quota: customer.custom_monthly_quota },
    });
    return {
      rps: limits.rps,
      price_per_request_micro: limits.price_per_request_micro,
      source: limits.source,
      billing_model: limits.billing_model,
      ...(limits.monthly_quota !== null ? { monthly_quota: limits.monthly_quota } : {}),
    };
  }

  #summary(customer: CustomerRow & { plan_name?: string | null }, monthRequests: number) {
    return {
      id: customer.id,
      name: customer.name,
      email: customer.email,
      status: customer.status,
      is_test: customer.is_test,
      balance_micro: customer.balance_micro,
      month_requests: monthRequests,
      custom_limits: hasCustomLimits({ price_per_request_micro: customer.custom_price_per_request_micro, rps: customer.custom_rps, monthly_quota: customer.custom_monthly_quota }),
      created_at: customer.created_at.toISOString(),
      ...(customer.last_used_at ? { last_used_at: customer.last_used_at.toISOString() } : {}),
      ...(customer.plan_id ? { plan_id: customer.plan_id } : {}),
      ...(customer.plan_name ? { plan_name: customer.plan_name } : {}),
      ...(customer.archived_at ? { archived_at: customer.archived_at.toISOString() } : {}),
    };
  }

  async #detail(api: ApiRow, customer: CustomerRow) {
    const plan = customer.plan_id ? await q.planOf(this.db, api.id, customer.plan_id) : undefined;
    const keys = await q.activeKeysOf(this.db, api.id, customer.id);
    const custom = { monthly_quota: customer.custom_monthly_quota, price_per_request_micro: customer.custom_price_per_request_micro, rps: customer.custom_rps };
    return {
      ...this.#summary({ ...customer, plan_name: plan?.name ?? null }, await q.monthRequestsOf(this.db, customer.id, this.#month())),
      notes: customer.notes,
      plan_source: customer.plan_source,
      effective: this.#effective(api, customer, plan ?? null),
      custom,
      auto_recharge: {
        enabled: customer.auto_recharge_enabled,
        threshold_micro: customer.auto_recharge_threshold_micro,
        amount_cents: customer.auto_recharge_amount_cents,
        has_card: customer.has_card,
        ...(customer.auto_recharge_failed_at ? { failed_at: customer.auto_recharge_failed_at.toISOString() } : {}),
      },
      members: await memberSummaries(this.db, api.id, customer.id),
      keys: keys.map((k) => ({ id: k.id, name: k.name, prefix: k.prefix, created_at: k.created_at.toISOString(), ...(k.last_used_at ? { last_used_at: k.last_used_at.toISOString() } : {}) })),
      ...(customer.low_balance_micro !== null ? { low_balance_micro: customer.low_balance_micro } : {}),
      ...(customer.provider_customer_id ? { provider_customer_id: customer.provider_customer_id } : {}),
      ...(customer.subscription_period_end ? { subscription_period_end: customer.subscription_period_end.toISOString() } : {}),
      ...(customer.subscription_status ? { subscription_status: customer.subscription_status } : {}),
      ...(customer.subscription_status ? { subscription_cancel_at_period_end: customer.subscription_cancel_at_period_end } : {}),
    };
  }

  /** A customer row of an API, for other capabilities (membership, the portal); undefined when none. */
  findRow(db: Db | Trx, apiId: string, customerId: string) {
    return q.findCustomer(db, apiId, customerId);
  }

  async #load(caller: Caller, apiId: string, customerId: string, minimum: 'viewer' | 'editor') {
    const { api } = await this.apis.access(caller, apiId, minimum);
    const customer = await q.findCustomer(this.db, apiId, customerId);
    if (!customer) throw new Problem('not_found', 'No such customer');
    return { api, customer };
  }

  /**
   * Makes a customer: its usage policy, and its welcome credit as a ledger entry. Real customers
   * count against the platform plan's max_customers (the API row is locked while counting).
   */
  async createInTransaction(trx: Trx, api: ApiRow, input: { name: string; email: string; status: CustomerStatus; isTest: boolean; uniqueEmail?: boolean }, actor: Actor): Promise<Result<CustomerRow>> {
    await this.apis.lockAmongWriters(trx, api.id);
    // One customer per address among those not archived (issue 23), checked under the API's lock so
    // two creations at once cannot both pass; addresses are stored lowercased.
    if (input.uniqueEmail && normalizeEmail(input.email) && (await q.customerWithEmail(trx, api.id, normalizeEmail(input.email)))) {
      return fail('customer_email_taken', `Another customer of ${api.name} has the address ${normalizeEmail(input.email)}`, [{ location: 'body.email', message: 'another customer of this API has this address', value: input.email }]);
    }
    if (!input.isTest) {
      const limit = this.apis.platformPlans.get(api.platform_plan).max_customers;
      // 0: no cap (the self-hosted plan).
      if (!withinPlanLimit(await q.countRealCustomers(trx, api.id), limit)) return fail('plan_limit', `The ${api.platform_plan} plan allows ${limit} customers`);
    }
    const now = this.clock.now();
    const id = newId('cus');
    const inserted = await q.insertCustomer(trx, {
      id,
      api_id: api.id,
      name: input.name.trim(),
      email: normalizeEmail(input.email),
      status: input.status,
      is_test: input.isTest,
      notes: '',
      plan_id: null,
      plan_source: '',
      provider_customer_id: null,
      subscription_status: null,
      subscription_period_end: null,
      custom_rps: null,
      custom_price_per_request_micro: null,
      custom_monthly_quota: null,
      low_balance_micro: null,
      auto_recharge_enabled: false,
      auto_recharge_threshold_micro: 0,
      auto_recharge_amount_cents: 0,
      auto_recharge_failed_at: null,
      has_card: false,
      auto_recharge_charging_at: null,
      auto_recharge_last_at: null,
      // A customer that starts below the API's low-balance line has not crossed it: the first mail
      // waits until the balance has been above it (payments/low-balance.ts).
      low_balance_mailed: !input.isTest && api.low_balance_micro > 0 && api.welcome_credit_micro < api.low_balance_micro,
      subscription_cancel_at_period_end: false,
      balance_micro: 0,
      balance_seq: 0,
      usage_policy_id: null,
      last_used_at: null,
      archived_at: null,
      created_at: now,
      updated_at: now,
    });
    // Before its welcome credit's credit.added, as it happened: created with nothing, then credited.
    await raiseCustomerEvent(trx, api, now, 'customer.created', inserted);
    const credit = input.isTest ? TEST_CREDIT_MICRO : api.welcome_credit_micro;
    if (credit > 0) {
      await this.ledger.post(trx, { apiId: api.id, customerId: id, kind: input.isTest ? 'credit' : 'welcome', amountMicro: credit, note: input.isTest ? 'Test credit' : 'Welcome credit', actor: actor.name, ref: null });
    }
    await refreshPolicies(trx, api, [id], now);
    return ok((await q.findCustomer(trx, api.id, id))!);
  }

  async create(caller: Caller, apiId: string, input: { name: string; email: string }) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const actor = actorOf(caller);
    const result = await this.db.transaction().execute(async (trx) => {
      const created = await this.createInTransaction(trx, api, { name: input.name, email: input.email, status: 'active', isTest: false, uniqueEmail: true }, actor);
      if (created.ok) {
        await this.audit.record(trx, actor, {
          workspaceId: api.workspace_id,
          action: 'customer.create',
          target: { type: 'customer', id: created.value.id },
          api: { id: api.id, name: api.name },
          customer: { id: created.value.id, name: created.value.name },
          summary: `Added customer ${created.value.name} <${created.value.email}>`,
        });
      }
      return created;
    });
    if (!result.ok) return result;
    return ok(await this.#detail(api, result.value));
  }

  async list(caller: Caller, apiId: string, options: { cursor?: string; limit: number; status?: CustomerStatus; q?: string; archived?: boolean }) {
    await this.apis.access(caller, apiId, 'viewer');
    const before = options.cursor ? decodeCursor(options.cursor) : null;
    if (options.cursor && !before) throw validationProblem('query.cursor', 'not a cursor this API gave', options.cursor);
    const rows = await q.customerPage(this.db, apiId, {
      before,
      status: options.status ?? null,
      archived: options.archived ?? false,
      search: options.q?.trim() || null,
      limit: options.limit + 1,
      month: this.#month(),
    });
    const { page, next } = pageOf(rows, options.limit);
    return { customers: page.map((row) => this.#summary(row, Number(row.month_requests))), ...(next ? { next_cursor: next } : {}) };
  }

  async get(caller: Caller, apiId: string, customerId: string) {
    const { api, customer } = await this.#load(caller, apiId, customerId, 'viewer');
    return this.#detail(api, customer);
  }

  /**
   * Status (approve or refuse a pending sign-up, suspend, reactivate), notes and a plan assigned by
   * hand (plan_source manual). A change that changes nothing writes nothing and no audit event.
   */
  async update(caller: Caller, apiId: string, customerId: string, changes: CustomerChanges) {
    const { api } = await this.#load(caller, apiId, customerId, 'editor');
    const updated = await this.db.transaction().execute(async (trx) => {
      // A plan before its customer (docs/architecture.md, lock order), so a deletion of the plan
      // waits for this assignment, or this one finds the plan gone.
      const plan = typeof changes.plan_id === 'string' ? await q.lockPlanForAssignment(trx, apiId, changes.plan_id) : undefined;
      const customer = await q.lockCustomer(trx, apiId, customerId);
      if (!customer) throw new Problem('not_found', 'No such customer');
      assertNotArchived(customer);
      if (changes.status === 'pending' && customer.status !== 'pending') {
        throw validationProblem('body.status', 'a customer cannot be moved back to pending', changes.status);
      }
      if (customer.is_test && changes.status === 'suspended') throw new Problem('customer_state', 'The test customer cannot be suspended');
      // A paying customer's plan is the provider's subscription: changed here, the provider would
      // go on billing the old plan (issue 23). The subscription operations change both.
      if ('plan_id' in changes && customer.plan_source === 'provider' && LIVE_SUBSCRIPTION.has(customer.subscription_status ?? '')) {
        throw new Problem(
          'subscription_managed',
          `${customer.name} pays for its plan through a subscription; switch it with POST /apis/${apiId}/customers/${customerId}/subscription/switch or end it with POST /apis/${apiId}/customers/${customerId}/subscription/cancel`,
          [{ location: 'body.plan_id', message: 'the plan follows the subscription at the payments provider', value: changes.plan_id }],
        );
      }
      const set = changedColumns(customer, changes);
      if (Object.keys(set).length === 0) return customer;
      if (set.plan_id && (!plan || !plan.active)) throw validationProblem('body.plan_id', 'no active plan of this API has that id', set.plan_id);
      const row = await q.updateCustomer(trx, apiId, customerId, { ...set, updated_at: this.clock.now() });
      if ('plan_id' in set) await refreshPolicies(trx, api, [customerId], this.clock.now());
      await raiseCustomerChanges(trx, api, this.clock.now(), customer, row);
      // A sign-up waiting for approval hears the answer either way.
      if (customer.status === 'pending' && set.status === 'active') await this.outbox.enqueue(trx, mails.approved(row.email, api.name, this.apis.portalUrl(api.slug)));
      if (customer.status === 'pending' && set.status === 'suspended') await this.outbox.enqueue(trx, mails.declined(row.email, api.name));
      const what = [
        set.status !== undefined ? `status ${customer.status} → ${set.status}` : null,
        set.notes !== undefined ? 'notes' : null,
        'plan_id' in set ? `plan ${set.plan_id ?? 'none'}` : null,
        'low_balance_micro' in set ? `low balance ${set.low_balance_micro ?? "the API's"}` : null,
      ].filter(Boolean);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: set.status === 'suspended' ? (customer.status === 'pending' ? 'customer.refuse' : 'customer.suspend') : set.status === 'active' ? (customer.status === 'pending' ? 'customer.approve' : 'customer.reactivate') : 'customer.update',
        target: { type: 'customer', id: customerId },
        api: { id: api.id, name: api.name },
        customer: { id: customerId, name: row.name },
        summary: `Changed ${what.join(', ')} of ${row.name}`,
        details: Object.fromEntries(Object.entries(changes).filter(([field]) => field in set)),
      });
      return row;
    });
    this.outbox.kick();
    return this.#detail(api, updated);
  }

  /**
   * Replaces the custom limits (absent or null: use the plan's or the API's). Setting the limits
   * the customer already has writes nothing and no audit event.
   */
  async setLimits(caller: Caller, apiId: string, customerId: string, limits: LimitsInput) {
    const { api } = await this.#load(caller, apiId, customerId, 'editor');
    const custom = { custom_monthly_quota: limits.monthly_quota ?? null, custom_price_per_request_micro: limits.price_per_request_micro ?? null, custom_rps: limits.rps ?? null };
    const updated = await this.db.transaction().execute(async (trx) => {
      const customer = await q.lockCustomer(trx, apiId, customerId);
      if (!customer) throw new Problem('not_found', 'No such customer');
      assertNotArchived(customer);
      if (customer.custom_monthly_quota === custom.custom_monthly_quota && customer.custom_price_per_request_micro === custom.custom_price_per_request_micro && customer.custom_rps === custom.custom_rps) {
        return customer;
      }
      const row = await q.updateCustomer(trx, apiId, customerId, { ...custom, updated_at: this.clock.now() });
      await refreshPolicies(trx, api, [customerId], this.clock.now());
      await raiseCustomerChanges(trx, api, this.clock.now(), customer, row);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'customer.limits',
        target: { type: 'customer', id: customerId },
        api: { id: api.id, name: api.name },
        customer: { id: customerId, name: row.name },
        summary: `Set custom limits of ${row.name}`,
        details: { ...limits },
      });
      return row;
    });
    return this.#detail(api, updated);
  }

  /**
   * DELETE of a customer (docs/decisions.md): deleted when nothing is on record but its creation
   * (no ledger entry beyond its welcome credit, no usage, no key ever issued, nothing with the
   * payments provider), archived otherwise: hidden from lists, the portal and the SDK snapshot,
   * its keys and open invitations revoked, a plan assigned by hand and auto-recharge dropped, its
   * ledger and usage kept. The test customer is neither. Removing an archived customer changes nothing.
   */
  async remove(caller: Caller, apiId: string, customerId: string): Promise<{ deleted: true } | { deleted: false; customer: Awaited<ReturnType<CustomerService['get']>> }> {
    const { api } = await this.#load(caller, apiId, customerId, 'editor');
    const actor = actorOf(caller);
    const outcome = await this.db.transaction().execute(async (trx) => {
      // Usage ingestion, credits and new keys hold the customer too: they finish first and are
      // seen below, or come after and find it gone or archived.
      const customer = await q.lockCustomer(trx, apiId, customerId);
      if (!customer) throw new Problem('not_found', 'No such customer');
      if (customer.is_test) throw new Problem('customer_state', 'The test customer cannot be removed');
      if (customer.archived_at) return { deleted: false as const, row: customer };
      const records = await q.recordsOf(trx, apiId, customerId);
      const payments = customer.provider_customer_id !== null || customer.plan_source === 'provider' || customer.has_card;
      const kept = [records.ledger ? 'ledger entries' : null, records.usage ? 'usage' : null, records.keys ? 'keys' : null, payments ? 'a payments record' : null].filter((why): why is string => why !== null);
      const audit = (action: string, summary: string, details: Record<string, unknown>) =>
        this.audit.record(trx, actor, {
          workspaceId: api.workspace_id,
          action,
          target: { type: 'customer', id: customerId },
          api: { id: api.id, name: api.name },
          customer: { id: customerId, name: customer.name },
          summary,
          details,
        });
      if (kept.length === 0) {
        await q.deleteCustomer(trx, apiId, customerId);
        await raiseCustomerEvent(trx, api, this.clock.now(), 'customer.deleted', customer);
        await audit('customer.delete', `Deleted customer ${customer.name} <${customer.email}>`, { email: customer.email });
        return { deleted: true as const };
      }
      const now = this.clock.now();
      const revokedKeys = await q.revokeKeysOf(trx, apiId, customerId, now);
      const keysRevoked = revokedKeys.length;
      await q.revokeInvitesTo(trx, apiId, customerId, now);
      const dropPlan = customer.plan_source === 'manual';
      const row = await q.updateCustomer(trx, apiId, customerId, {
        archived_at: now,
        auto_recharge_enabled: false,
        ...(dropPlan ? { plan_id: null, plan_source: '' as const } : {}),
        updated_at: now,
      });
      if (dropPlan) await refreshPolicies(trx, api, [customerId], now);
      await raiseKeyEvents(trx, apiId, now, 'key.revoked', revokedKeys);
      await raiseCustomerChanges(trx, api, now, customer, row);
      await audit('customer.archive', `Archived customer ${customer.name} <${customer.email}>, which has ${kept.join(', ')} on record; ${keysRevoked} keys revoked`, {
        kept,
        keys_revoked: keysRevoked,
      });
      return { deleted: false as const, row };
    });
    if (outcome.deleted) return { deleted: true };
    return { deleted: false, customer: await this.#detail(api, outcome.row) };
  }

  async issueKey(trx: Trx, api: ApiRow, customer: { id: string; name: string }, name: string, actor: Actor, createdByPerson: string | null = null) {
    // Held (as the key's foreign key would) so a removal of the customer waits, or is seen here.
    const current = await q.holdCustomer(trx, api.id, customer.id);
    if (!current) throw new Problem('not_found', 'No such customer');
    assertNotArchived(current);
    const key = formatApiKey(api.secret_prefix, randomBase62(40));
    const row = {
      id: randomUUID(),
      api_id: api.id,
      customer_id: customer.id,
      name: name.trim(),
      prefix: key.slice(0, api.secret_prefix.length + 5),
      key_hash: sha256Hex(key),
      created_at: this.clock.now(),
      last_used_at: null,
      revoked_at: null,
      created_by_person: createdByPerson,
    };
    await q.insertKey(trx, row);
    await raiseKeyEvents(trx, api.id, row.created_at, 'key.created', [row]);
    await this.audit.record(trx, actor, {
      workspaceId: api.workspace_id,
      action: 'customer_key.create',
      target: { type: 'customer_key', id: row.id },
      api: { id: api.id, name: api.name },
      customer: { id: customer.id, name: customer.name },
      summary: `Created key ${row.name} (${row.prefix}…) for ${customer.name}${createdByPerson ? ' in the portal' : ''}`,
      details: { key_id: row.id, prefix: row.prefix },
    });
    return { id: row.id, name: row.name, prefix: row.prefix, created_at: row.created_at.toISOString(), key };
  }

  /** The effective limits of a customer, as CustomerDetail gives them, for the portal. */
  async effectiveOf(api: ApiRow, customer: CustomerRow) {
    const plan = customer.plan_id ? await q.planOf(this.db, api.id, customer.plan_id) : undefined;
    return { effective: this.#effective(api, customer, plan ?? null), planName: plan?.name ?? null };
  }

  /** A customer key, shown once; only its SHA-256 is stored (spec 5.3). */
  async createKey(caller: Caller, apiId: string, customerId: string, name: string) {
    const { api, customer } = await this.#load(caller, apiId, customerId, 'editor');
    return this.db.transaction().execute((trx) => this.issueKey(trx, api, customer, name, actorOf(caller)));
  }

  async revokeKey(caller: Caller, apiId: string, customerId: string, keyId: string) {
    const { api, customer } = await this.#load(caller, apiId, customerId, 'editor');
    if (!/^[0-9a-f-]{36}$/i.test(keyId)) throw new Problem('not_found', 'No such key');
    await this.db.transaction().execute(async (trx) => {
      const row = await q.revokeKey(trx, apiId, customerId, keyId, this.clock.now());
      if (!row) throw new Problem('not_found', 'No such key');
      await raiseKeyEvents(trx, apiId, this.clock.now(), 'key.revoked', [row]);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'customer_key.revoke',
        target: { type: 'customer_key', id: keyId },
        api: { id: api.id, name: api.name },
        customer: { id: customer.id, name: customer.name },
        summary: `Revoked key ${row.name} (${row.prefix}…) of ${customer.name}`,
        details: { key_id: keyId, prefix: row.prefix },
      });
    });
  }

  /**
   * The test customer's key: the test customer is made on first use, topped up to the test
   * credit, and gets a new key on every call. Its requests count, its charges never do.
   */
  async testKey(caller: Caller, apiId: string) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const actor = actorOf(caller);
    return this.db.transaction().execute(async (trx) => {
      // Locked before looking: two first calls at once both found no test customer, and the
      // second insert hit the one-test-customer index (500); a top-up could also be posted twice.
      await this.apis.lockAmongWriters(trx, apiId);
      let customer = await q.findTestCustomer(trx, apiId);
      if (!customer) {
        const created = await this.createInTransaction(trx, api, { name: 'Test customer', email: `test@${api.slug}.invalid`, status: 'active', isTest: true }, actor);
        if (!created.ok) throw new Problem(created.code, created.detail);
        customer = created.value;
      } else if (customer.balance_micro < TEST_CREDIT_MICRO) {
        await this.ledger.post(trx, { apiId, customerId: customer.id, kind: 'credit', amountMicro: TEST_CREDIT_MICRO - customer.balance_micro, note: 'Test credit', actor: actor.name, ref: null });
      }
      const issued = await this.issueKey(trx, api, customer, 'Test key', actor);
      const balance = await trx.selectFrom('customers').select('balance_micro').where('id', '=', customer.id).executeTakeFirstOrThrow();
      return { key: issued.key, customer_id: customer.id, balance_micro: balance.balance_micro, key_header: api.key_header };
    });
  }

  /**
   * What the payments provider says about a customer (its subscription, saved card, a failed
   * charge), written by the webhook path in the transaction that records the event; a change of
   * plan or subscription state makes a new usage policy.
   */
  async applyProviderBilling(trx: Trx, apiId: string, customerId: string, changes: ProviderBilling): Promise<void> {
    const before = await q.findCustomer(trx, apiId, customerId);
    const after = await q.updateCustomer(trx, apiId, customerId, { ...changes, updated_at: this.clock.now() });
    if ('plan_id' in changes || 'subscription_status' in changes) await this.refreshPolicies(trx, apiId, [customerId]);
    // Subscription events are read from what the provider's event changed on the customer's row.
    if (before) await raiseSubscriptionEvents(trx, apiId, this.clock.now(), before, after);
  }

  /**
   * Who hears about a customer's money (low balance, a failed automatic top-up): its owners and
   * admins (docs/decisions.md: billing is theirs), or the customer's own address when no person
   * holds either role yet (a customer the owner added by hand).
   */
  async billingContacts(db: Db | Trx, apiId: string, customer: { id: string; email: string }): Promise<string[]> {
    const people = (await memberSummaries(db, apiId, customer.id)).filter((m) => m.role === 'owner' || m.role === 'admin').map((m) => m.email);
    return people.length ? [...new Set(people)] : [customer.email];
  }

  /** Holds a plan a customer is being put on (payments' subscription events), before the customer's lock. */
  lockPlanForAssignment(trx: Trx, apiId: string, planId: string) {
    return q.lockPlanForAssignment(trx, apiId, planId);
  }

  async countsByApi(apiIds: string[]) {
    return new Map((await q.countCustomersByApi(this.db, apiIds)).map((r) => [r.api_id, Number(r.n)]));
  }
}
