import type { Clock } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import { Problem } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import * as q from './queries.js';
import type { PlansTable } from './tables.js';

export interface PlanFields {
  name: string;
  price_monthly_cents: number;
  active?: boolean;
  credit_micro?: number;
  description?: string;
  monthly_quota?: number | null;
  price_per_request_micro?: number | null;
  rps?: number | null;
  sort?: number;
  visibility?: 'public' | 'private';
}

/** Fields that change what subscribers are charged or allowed: a change makes new usage policies. */
const limitFields = ['monthly_quota', 'price_per_request_micro', 'rps'] as const;

export type RefreshPolicies = (trx: Trx, apiId: string, customerIds: string[]) => Promise<void>;

/**
 * PlanOut. `portal_url` is the plan's page on the API's portal: the link an owner copies to offer a
 * private plan (not listed on the portal) to a customer.
 */
function toPlanOut(plan: PlansTable, subscribers: number, portalUrl: string) {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    price_monthly_cents: plan.price_monthly_cents,
    credit_micro: plan.credit_micro,
    price_per_request_micro: plan.price_per_request_micro,
    rps: plan.rps,
    monthly_quota: plan.monthly_quota,
    visibility: plan.visibility,
    active: plan.active,
    sort: plan.sort,
    subscribers,
    created_at: plan.created_at.toISOString(),
    portal_url: `${portalUrl}/plans/${plan.id}`,
    ...(plan.provider_price_id ? { provider_price_id: plan.provider_price_id } : {}),
    ...(plan.provider_sync_error ? { provider_sync_error: plan.provider_sync_error } : {}),
    ...(plan.provider_synced_at ? { provider_synced_at: plan.provider_synced_at.toISOString() } : {}),
  };
}

/** Subscription plans of an API (spec 2.3). */
export class PlanService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly refreshPolicies: RefreshPolicies,
    /** Told after a plan is made or changed, so its price reaches the payments provider (payments/plan-sync.ts). */
    private readonly planChanged: (apiId: string) => void = () => {},
    /**
     * Awaited after a plan was deleted or deactivated, so its open checkouts are closed at the
     * provider before the owner's answer (never fails: what the provider refuses is logged).
     */
    private readonly planWithdrawn: (apiId: string, planId: string) => Promise<void> = async () => {},
  ) {}

  /** A plan of an API, for other capabilities (payments reads credit_micro and prices). */
  find(db: Db | Trx, apiId: string, planId: string) {
    return q.findPlan(db, apiId, planId);
  }

  /** Active plans of an API with a monthly price, as the payments provider must sell them. */
  async sellable(apiId: string) {
    return (await q.plansOf(this.db, apiId)).filter((p) => p.active && p.price_monthly_cents > 0);
  }

  /** What an API offers its customers on the portal: active public plans, in display order. */
  async offered(apiId: string) {
    return (await q.plansOf(this.db, apiId)).filter((p) => p.active && p.visibility === 'public');
  }

  /** The outcome of a sync with the provider: its price, or the error that keeps the job retrying. */
  async recordProviderSync(apiId: string, planId: string, outcome: { priceId: string; at: Date } | { error: string }) {
    const changes = 'priceId' in outcome
      ? { provider_price_id: outcome.priceId, provider_synced_at: outcome.at, provider_sync_error: null }
      : { provider_sync_error: outcome.error.slice(0, 300) };
    await q.setProviderSync(this.db, apiId, planId, changes);
  }

  async list(caller: Caller, apiId: string) {
    const { api } = await this.apis.access(caller, apiId, 'viewer');
    const portalUrl = this.apis.portalUrl(api.slug);
    return (await q.plansOf(this.db, apiId)).map((p) => toPlanOut(p, Number(p.subscribers), portalUrl));
  }

  async create(caller: Caller, apiId: string, fields: PlanFields) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const plan = await q.insertPlan(trx, {
        id: newId('pln'),
        api_id: apiId,
        name: fields.name.trim(),
        description: fields.description ?? '',
        price_monthly_cents: fields.price_monthly_cents,
        credit_micro: fields.credit_micro ?? 0,
        price_per_request_micro: fields.price_per_request_micro ?? null,
        rps: fields.rps ?? null,
        monthly_quota: fields.monthly_quota ?? null,
        visibility: fields.visibility ?? 'public',
        active: fields.active ?? true,
        sort: fields.sort ?? 0,
        provider_price_id: null,
        provider_sync_error: null,
        provider_synced_at: null,
        created_at: now,
        updated_at: now,
      });
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'plan.create',
        target: { type: 'plan', id: plan.id },
        api: { id: apiId, name: api.name },
        summary: `Created plan ${plan.name} at ${plan.price_monthly_cents} cents a month`,
        details: { ...fields },
      });
      return toPlanOut(plan, 0, this.apis.portalUrl(api.slug));
    }).finally(() => this.planChanged(apiId));
  }

  /** Changes a plan; fields given with the value they already have are no change, and a change of nothing writes nothing and no audit event. */
  async update(caller: Caller, apiId: string, planId: string, fields: Partial<PlanFields>) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    let changedAny = false;
    let retrySync = false;
    let withdrawn = false;
    return this.db.transaction().execute(async (trx) => {
      const before = await q.lockPlan(trx, apiId, planId, 'change');
      if (!before) throw new Problem('not_found', 'No such plan');
      const wanted: Partial<PlanFields> = { ...fields, ...(fields.name !== undefined ? { name: fields.name.trim() } : {}) };
      const changed = Object.fromEntries(Object.entries(wanted).filter(([field, value]) => value !== before[field as keyof PlanFields])) as Partial<PlanFields>;
      const subscribers = await q.subscriberIds(trx, planId);
      if (Object.keys(changed).length === 0) {
        // Nothing to change on a plan the provider refused: the console's "Try again" of its sync.
        retrySync = Boolean(before.provider_sync_error);
        return toPlanOut(before, subscribers.length, this.apis.portalUrl(api.slug));
      }
      changedAny = true;
      withdrawn = changed.active === false;
      const plan = await q.updatePlan(trx, apiId, planId, { ...changed, updated_at: this.clock.now() });
      if (limitFields.some((f) => f in changed)) await this.refreshPolicies(trx, apiId, subscribers);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'plan.update',
        target: { type: 'plan', id: planId },
        api: { id: apiId, name: api.name },
        summary: `Changed ${Object.keys(changed).join(', ')} of plan ${plan.name}`,
        details: { ...changed },
      });
      return toPlanOut(plan, subscribers.length, this.apis.portalUrl(api.slug));
    }).then(async (out) => {
      if (withdrawn) await this.planWithdrawn(apiId, planId);
      return out;
    }).finally(() => {
      if (changedAny || retrySync) this.planChanged(apiId);
    });
  }

  /**
   * Deletes a plan nobody is on; a plan with subscribers is deactivated instead, keeping them on it.
   * The plan is locked FOR UPDATE before its subscribers are counted: an assignment in flight holds
   * it FOR KEY SHARE, so the count waits for it and sees it, and one that comes later finds the plan
   * gone or inactive. Counted without the lock, a customer assigned meanwhile broke the foreign key
   * (a 500 on PostgreSQL).
   */
  async remove(caller: Caller, apiId: string, planId: string): Promise<{ deleted: true } | { deleted: false; plan: ReturnType<typeof toPlanOut> }> {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    return this.db.transaction().execute(async (trx) => {
      const plan = await q.lockPlan(trx, apiId, planId, 'delete');
      if (!plan) throw new Problem('not_found', 'No such plan');
      const subscribers = await q.subscriberIds(trx, planId);
      const audit = (action: string, summary: string) =>
        this.audit.record(trx, actorOf(caller), { workspaceId: api.workspace_id, action, target: { type: 'plan', id: planId }, api: { id: apiId, name: api.name }, summary, details: { subscribers: subscribers.length } });
      if (subscribers.length === 0) {
        await q.deletePlan(trx, apiId, planId);
        await audit('plan.delete', `Deleted plan ${plan.name}`);
        return { deleted: true as const };
      }
      const updated = await q.updatePlan(trx, apiId, planId, { active: false, updated_at: this.clock.now() });
      await audit('plan.deactivate', `Deactivated plan ${plan.name}; its ${subscribers.length} subscribers keep it`);
      return { deleted: false as const, plan: toPlanOut(updated, subscribers.length, this.apis.portalUrl(api.slug)) };
    }).then(async (out) => {
      // Deleted or deactivated, it is no longer on sale: checkouts still open for it are closed.
      await this.planWithdrawn(apiId, planId);
      return out;
    });
  }
}
