import { sql } from 'kysely';
import type { Clock } from '../platform/clock.js';
import { addMs, HOUR } from '../platform/clock.js';
import type { SecretBox } from '../platform/crypto.js';
import { sha256Hex } from '../platform/crypto.js';
import type { Db, Trx } from '../platform/db/database.js';
import { fail, ok, Problem, validationProblem, type Result } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import type { WorkspaceService } from '../workspaces/service.js';
import type { Role } from '../workspaces/tables.js';
import type { PlatformPlan, PlatformPlans } from './platform-plans.js';
import { presets, type PresetName } from './presets.js';
import * as q from './queries.js';
import { newSdkSecret } from './sdk-secret.js';
import { prefixFromSlug, slugCandidate, slugFromName, slugProblem, slugReasons } from './slug.js';
import type { ApisTable, PlanStatus } from './tables.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import type { DomainOutShape } from '../domains/service.js';
import { ApiEvents } from './events.js';

export type ApiRow = Awaited<ReturnType<typeof q.findApi>> & {};

/** Counts shown in API summaries, read from the customers and usage capabilities. */
export type SummaryCounts = (apiIds: string[]) => Promise<Map<string, { customers: number; monthRequests: number }>>;
/** Called inside the transaction of a change to an API's price or limits (customers make new usage policies). */
export type LimitsChanged = (trx: Trx, apiId: string) => Promise<void>;

/** spec 2.1 PaymentsOut. */
export interface PaymentsOutShape {
  configured: boolean;
  connected: boolean;
  livemode: boolean;
  charges_enabled: boolean;
  account_id?: string;
  account_name?: string;
  connected_at?: string;
}

/** What the payments capability tells ApiOut: the connection, and which platform plans can be bought. */
export interface PaymentsView {
  paymentsOut(apiId: string): Promise<PaymentsOutShape>;
  purchasable(plan: PlatformPlan): boolean;
  /** Ends every subscription of the API at the provider at once; throws a problem naming the one that failed. */
  endBilling(apiId: string): Promise<void>;
}

/** What the domains capability tells ApiOut: spec 2.1 DomainOut (domains/service.ts). */
export type DomainView = (api: ApiRow) => Promise<DomainOutShape>;

/** The platform plan state an API's platform subscription sets (payments/platform-billing.ts). */
export interface PlatformPlanState {
  platform_plan: string;
  plan_status: PlanStatus;
  plan_grace_until: Date | null;
  plan_period_end: Date | null;
}

// Settings that change what a customer is charged or allowed: a change makes new usage policies.
const limitFields = ['price_per_request_micro', 'rps', 'monthly_quota', 'billable_status_codes', 'payg_enabled'] as const;

export interface ApiUpdate {
  accent_color?: string;
  api_base_url?: string;
  auto_recharge_allowed?: boolean;
  billable_status_codes?: number[];
  docs_url?: string;
  key_header?: string;
  low_balance_micro?: number;
  min_topup_cents?: number;
  monthly_quota?: number;
  name?: string;
  payg_enabled?: boolean;
  plans_enabled?: boolean;
  price_per_request_micro?: number;
  privacy_url?: string;
  rps?: number;
  secret_prefix?: string;
  signup_mode?: 'open' | 'approval' | 'invite';
  support_email?: string;
  tagline?: string;
  terms_url?: string;
  topup_amounts_cents?: number[];
  website_url?: string;
  welcome_credit_micro?: number;
}

/**
 * Every offered top-up amount is at least the minimum (issue 13 item 3): the portal offers these
 * amounts as buttons, and checkout refuses anything below the minimum. The field named is the one
 * the request changed (the amounts when it changed both), so the owner sees what to fix.
 */
function checkTopUpAmounts(amounts: readonly number[], minimum: number, amountsChanged: boolean): void {
  const below = amounts.filter((amount) => amount < minimum);
  if (below.length === 0) return;
  const message = `offered top-up amounts ${below.join(', ')} are below min_topup_cents ${minimum}`;
  throw amountsChanged ? validationProblem('body.topup_amounts_cents', message, amounts) : validationProblem('body.min_topup_cents', message, minimum);
}

/** Registered APIs: settings, slug, SDK secret and status (spec 2.1). */
export class ApiService {
  /** Events about the API itself: its SDK's connection, its platform allowance (issue 24). */
  readonly events: ApiEvents;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly audit: AuditService,
    private readonly workspaces: WorkspaceService,
    readonly platformPlans: PlatformPlans,
    private readonly urls: { baseUrl: string; portalDomain: string },
    private readonly summaryCounts: SummaryCounts,
    private readonly limitsChanged: LimitsChanged,
    private readonly payments: PaymentsView,
    private readonly domainOut: DomainView,
  ) {
    this.events = new ApiEvents(db, clock, platformPlans, async (apiIds) => new Map([...(await summaryCounts(apiIds))].map(([id, counts]) => [id, counts.monthRequests])));
  }

  /** ApiOut with the payments connection and the custom domain read. */
  async #out(api: ApiRow, role: Role) {
    const [payments, domain] = await Promise.all([this.payments.paymentsOut(api.id), this.domainOut(api)]);
    return this.toApiOut(api, role, payments, domain);
  }

  /** PlatformPlanOut: purchasable where the payments provider can sell the plan. */
  platformPlanOut(plan: PlatformPlan) {
    return this.platformPlans.toOut(plan, this.payments.purchasable(plan));
  }

  /**
   * Whether a workspace may have more than one member: one of its APIs is on a plan with teams (a
   * workspace without APIs is on `free`).
   */
  async workspaceHasTeams(workspaceId: string): Promise<boolean> {
    const codes = (await q.apisOfWorkspace(this.db, workspaceId)).map((api) => api.platform_plan);
    return (codes.length ? codes : ['free']).some((code) => this.platformPlans.get(code).teams);
  }

  /** Sets an API's platform plan and its status, in the transaction of the event that moved it. */
  async setPlatformPlan(trx: Trx, apiId: string, state: PlatformPlanState): Promise<void> {
    await q.updateApi(trx, apiId, { ...state, updated_at: this.clock.now() });
  }

  /** Who is mailed about an API's platform plan: the owners of its workspace. */
  ownerContacts(db: Db | Trx, workspaceId: string): Promise<string[]> {
    return this.workspaces.ownerContacts(db, workspaceId);
  }

  /** The console's page of an API's platform plan (where owner mails point). */
  planPageUrl(apiId: string): string {
    return `${this.urls.baseUrl}/apis/${apiId}/plan`;
  }

  /** APIs whose past-due platform plan's grace ends before `cutoff` (the owner is warned). */
  platformGracesEndingBefore(cutoff: Date) {
    return q.apisWithGraceEndingBefore(this.db, cutoff);
  }

  /** APIs whose platform plan ran out: past due beyond its grace, or canceled past its period. */
  platformPlansEnded(now: Date) {
    return q.apisWithEndedPlatformPlans(this.db, now);
  }

  /** Loads an API for a caller with at least `minimum`; an API of another workspace answers 404. */
  async access(caller: Caller, apiId: string, minimum: Role): Promise<{ api: ApiRow; role: Role }> {
    const api = await q.findApi(this.db, apiId);
    if (!api) throw new Problem('not_found', 'No such API');
    const role = await this.workspaces.authorize(caller, api.workspace_id, minimum).catch((error: unknown) => {
      if (error instanceof Problem && error.code === 'not_found') throw new Problem('not_found', 'No such API');
      throw error;
    });
    return { api, role };
  }

  findById(db: Db | Trx, id: string) {
    return q.findApi(db, id);
  }

  findBySlug(slug: string) {
    return q.findApiBySlug(this.db, slug);
  }

  /** The API an SDK secret opens: the current secret, or the previous one within its grace. */
  findBySdkSecret(secret: string) {
    return q.findApiBySecretHash(this.db, sha256Hex(secret), this.clock.now());
  }

  portalUrl(slug: string): string {
    const base = new URL(this.urls.baseUrl);
    return `${base.protocol}//${slug}.${this.urls.portalDomain}${base.port ? `:${base.port}` : ''}`;
  }

  toApiOut(api: ApiRow, role: Role, payments: PaymentsOutShape, domain: DomainOutShape) {
    const plan = this.platformPlans.get(api.platform_plan);
    const iso = (d: Date | null) => (d ? d.toISOString() : undefined);
    const optional = {
      suspended_reason: api.suspended_reason ?? undefined,
      logo_url: api.logo_url ?? undefined,
      plan_grace_until: iso(api.plan_grace_until),
      plan_period_end: iso(api.plan_period_end),
      previous_secret_valid_until: api.previous_secret_valid_until && api.previous_secret_valid_until > this.clock.now() ? iso(api.previous_secret_valid_until) : undefined,
      first_usage_at: iso(api.first_usage_at),
      sdk_first_seen_at: iso(api.sdk_first_seen_at),
      sdk_last_seen_at: iso(api.sdk_last_seen_at),
      sdk_agent: api.sdk_agent ?? undefined,
    };
    return {
      id: api.id,
      workspace_id: api.workspace_id,
      slug: api.slug,
      name: api.name,
      status: api.status,
      portal_url: this.portalUrl(api.slug),
      tagline: api.tagline,
      accent_color: api.accent_color,
      support_email: api.support_email,
      website_url: api.website_url,
      docs_url: api.docs_url,
      terms_url: api.terms_url,
      privacy_url: api.privacy_url,
      signup_mode: api.signup_mode,
      api_base_url: api.api_base_url,
      key_header: api.key_header,
      payg_enabled: api.payg_enabled,
      plans_enabled: api.plans_enabled,
      price_per_request_micro: api.price_per_request_micro,
      rps: api.rps,
      monthly_quota: api.monthly_quota,
      welcome_credit_micro: api.welcome_credit_micro,
      billable_status_codes: api.billable_status_codes,
      topup_amounts_cents: api.topup_amounts_cents,
      min_topup_cents: api.min_topup_cents,
      low_balance_micro: api.low_balance_micro,
      auto_recharge_allowed: api.auto_recharge_allowed,
      secret_prefix: api.secret_prefix,
      domain,
      plan: this.platformPlanOut(plan),
      plan_status: api.plan_status,
      payments,
      role,
      created_at: api.created_at.toISOString(),
      ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    };
  }

  /** The slug as creation would take it (trimmed, lower case), and whether it is free. */
  async checkSlug(raw: string): Promise<{ slug: string; available: boolean; reason?: string }> {
    const slug = raw.trim().toLowerCase();
    const problem = slugProblem(slug);
    if (problem) return { slug, available: false, reason: slugReasons[problem] };
    if (await q.slugTaken(this.db, slug)) return { slug, available: false, reason: slugReasons.taken };
    return { slug, available: true };
  }

  async #freeSlug(trx: Trx, name: string): Promise<string> {
    const base = slugFromName(name);
    const start = slugProblem(base) === 'reserved' ? `${base}-api` : base;
    for (let n = 1; n < 1000; n++) {
      const candidate = slugCandidate(start, n);
      if (!slugProblem(candidate) && !(await q.slugTaken(trx, candidate))) return candidate;
    }
    throw new Error(`no free slug for ${name}`);
  }

  async create(caller: Caller, workspaceId: string, input: { name: string; preset: PresetName; api_base_url?: string; slug?: string }): Promise<Result<{ api: ReturnType<ApiService['toApiOut']>; secret: string }>> {
    const role = await this.workspaces.authorize(caller, workspaceId, 'editor');
    const requested = input.slug?.trim().toLowerCase();
    if (requested) {
      const problem = slugProblem(requested);
      if (problem) return fail('validation', slugReasons[problem], [{ location: 'body.slug', message: slugReasons[problem], value: input.slug }]);
    }
    const secret = newSdkSecret();
    // Two creates at once can both find a slug free; the unique index then refuses the second
    // insert, which answered 500. A chosen slug answers 409 as if found taken; a generated one is
    // made again and takes the next free candidate.
    let result: Result<ApiRow> | undefined;
    for (let attempt = 1; !result; attempt++) {
      try {
        result = await this.#insert(caller, workspaceId, input, requested, secret);
      } catch (error) {
        if (!isUniqueViolation(error, 'apis_slug_key') || attempt >= 5) throw error;
        if (requested) result = fail('slug_taken', slugReasons.taken, [{ location: 'body.slug', message: slugReasons.taken, value: input.slug }]);
      }
    }
    if (!result.ok) return result;
    return ok({ api: await this.#out(result.value, role), secret });
  }

  #insert(caller: Caller, workspaceId: string, input: { name: string; preset: PresetName; api_base_url?: string; slug?: string }, requested: string | undefined, secret: string): Promise<Result<ApiRow>> {
    return this.db.transaction().execute(async (trx) => {
      const slug = requested || (await this.#freeSlug(trx, input.name));
      if (requested && (await q.slugTaken(trx, requested))) {
        return fail<ApiRow>('slug_taken', slugReasons.taken, [{ location: 'body.slug', message: slugReasons.taken, value: input.slug }]);
      }
      const now = this.clock.now();
      const row = await q.insertApi(trx, {
        id: newId('api'),
        workspace_id: workspaceId,
        slug,
        name: input.name.trim(),
        api_base_url: input.api_base_url ?? '',
        ...presets[input.preset],
        billable_status_codes: [...presets[input.preset].billable_status_codes],
        topup_amounts_cents: [...presets[input.preset].topup_amounts_cents],
        secret_prefix: prefixFromSlug(slug),
        sdk_secret_sealed: this.box.seal(secret),
        sdk_secret_hash: sha256Hex(secret),
        suspended_reason: null,
        logo_url: null,
        previous_secret_hash: null,
        previous_secret_valid_until: null,
        plan_grace_until: null,
        plan_period_end: null,
        first_usage_at: null,
        sdk_first_seen_at: null,
        sdk_last_seen_at: null,
        sdk_agent: null,
        snapshot_stamped_at: null,
        created_at: now,
        updated_at: now,
      });
      await this.audit.record(trx, actorOf(caller), {
        workspaceId,
        action: 'api.create',
        target: { type: 'api', id: row.id },
        api: { id: row.id, name: row.name },
        summary: `Created API ${row.name} (${slug}) with the ${input.preset} preset`,
        details: { slug, preset: input.preset },
      });
      return ok(row);
    });
  }

  async listSummaries(caller: Caller, workspaceId: string) {
    await this.workspaces.authorize(caller, workspaceId, 'viewer');
    const rows = await q.apisOfWorkspace(this.db, workspaceId);
    const counts = await this.summaryCounts(rows.map((r) => r.id));
    return rows.map((api) => ({
      id: api.id,
      name: api.name,
      slug: api.slug,
      status: api.status,
      portal_url: this.portalUrl(api.slug),
      plan_code: this.platformPlans.get(api.platform_plan).code,
      customers: counts.get(api.id)?.customers ?? 0,
      month_requests: counts.get(api.id)?.monthRequests ?? 0,
      created_at: api.created_at.toISOString(),
      ...(api.logo_url ? { logo_url: api.logo_url } : {}),
      ...(api.sdk_last_seen_at ? { sdk_last_seen_at: api.sdk_last_seen_at.toISOString() } : {}),
    }));
  }

  async get(caller: Caller, apiId: string) {
    const { api, role } = await this.access(caller, apiId, 'viewer');
    return this.#out(api, role);
  }

  async update(caller: Caller, apiId: string, changes: ApiUpdate) {
    const { api, role } = await this.access(caller, apiId, 'editor');
    const changed = Object.fromEntries(
      Object.entries(changes).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(api[key as keyof ApisTable])),
    ) as ApiUpdate;
    if (Object.keys(changed).length === 0) return this.#out(api, role);
    const row = await this.db.transaction().execute(async (trx) => {
      // Checked on the row as it is under its lock: two updates at once (one lowering an amount,
      // one raising the minimum) cannot each pass against the other's old value.
      if ('topup_amounts_cents' in changed || 'min_topup_cents' in changed) {
        await this.lockAmongWriters(trx, apiId);
        const current = (await q.findApi(trx, apiId))!;
        checkTopUpAmounts(changed.topup_amounts_cents ?? current.topup_amounts_cents, changed.min_topup_cents ?? current.min_topup_cents, 'topup_amounts_cents' in changed);
      }
      const updated = await q.updateApi(trx, apiId, { ...changed, ...(changed.name ? { name: changed.name.trim() } : {}), updated_at: this.clock.now() });
      if (limitFields.some((field) => field in changed)) await this.limitsChanged(trx, apiId);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'api.update',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: updated.name },
        summary: `Changed ${Object.keys(changed).join(', ')} of ${updated.name}`,
        details: { changes: Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, { from: api[k as keyof ApisTable], to: v }])) },
      });
      return updated;
    });
    return this.#out(row, role);
  }

  /** The address of the API's logo (viewers), for the console to serve the image from its own host. */
  async logoAddress(caller: Caller, apiId: string): Promise<string | null> {
    const { api } = await this.access(caller, apiId, 'viewer');
    return api.logo_url;
  }

  /** Sets the logo, or removes it (null); the logo it already has is no change and no audit event. */
  async setLogo(caller: Caller, apiId: string, logoUrl: string | null) {
    const { api, role } = await this.access(caller, apiId, 'editor');
    // The logo it already has: no change, no audit event (as update).
    if (api.logo_url === logoUrl) return this.#out(api, role);
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await q.updateApi(trx, apiId, { logo_url: logoUrl, updated_at: this.clock.now() });
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'api.logo',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: api.name },
        summary: logoUrl === null ? `Removed the logo of ${api.name}` : `Changed the logo of ${api.name}`,
        details: { logo_url: logoUrl, ...(api.logo_url ? { previous: api.logo_url } : {}) },
      });
      return updated;
    });
    return this.#out(row, role);
  }

  async setStatus(caller: Caller, apiId: string, status: 'active' | 'suspended', reason: string | null) {
    const { api, role } = await this.access(caller, apiId, 'admin');
    const row = await this.db.transaction().execute(async (trx) => {
      const updated = await q.updateApi(trx, apiId, { status, suspended_reason: status === 'suspended' ? reason : null, updated_at: this.clock.now() });
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: status === 'suspended' ? 'api.suspend' : 'api.resume',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: api.name },
        summary: status === 'suspended' ? `Suspended ${api.name}${reason ? `: ${reason}` : ''}` : `Resumed ${api.name}`,
        details: reason ? { reason } : {},
      });
      return updated;
    });
    return this.#out(row, role);
  }

  /**
   * Deletes an API (workspace owners: it ends what the owner and every customer pay for). Every
   * subscription is canceled at the provider first, at once and without a further invoice; a
   * failure there stops here, with nothing deleted (issue 23 item 3).
   */
  async remove(caller: Caller, apiId: string): Promise<void> {
    const { api } = await this.access(caller, apiId, 'owner');
    await this.payments.endBilling(apiId);
    await this.db.transaction().execute(async (trx) => {
      await q.deleteApi(trx, apiId);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'api.delete',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: api.name },
        summary: `Deleted API ${api.name} (${api.slug})`,
        details: { slug: api.slug },
      });
    });
  }

  /** Reveals the SDK secret again (admins); the reveal itself is audited. */
  async revealSecret(caller: Caller, apiId: string): Promise<string> {
    const { api } = await this.access(caller, apiId, 'admin');
    await this.db.transaction().execute((trx) =>
      this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'api.secret_reveal',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: api.name },
        summary: `Revealed the SDK secret of ${api.name}`,
      }),
    );
    return this.box.open(api.sdk_secret_sealed);
  }

  /** A new SDK secret; the old one keeps working for `graceHours` (0 ends it at once). */
  async rotateSecret(caller: Caller, apiId: string, graceHours: number): Promise<string> {
    const { api } = await this.access(caller, apiId, 'admin');
    const secret = newSdkSecret();
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await q.updateApi(trx, apiId, {
        sdk_secret_sealed: this.box.seal(secret),
        sdk_secret_hash: sha256Hex(secret),
        previous_secret_hash: graceHours > 0 ? api.sdk_secret_hash : null,
        previous_secret_valid_until: graceHours > 0 ? addMs(now, graceHours * HOUR) : null,
        updated_at: now,
      });
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'api.secret_rotate',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: api.name },
        summary: `Rotated the SDK secret of ${api.name}; the old one works ${graceHours} more hours`,
        details: { grace_hours: graceHours },
      });
    });
    return secret;
  }

  /** Records an SDK's visit (snapshot fetch): agent and first/last seen. */
  async recordSdkVisit(api: ApiRow, userAgent: string): Promise<void> {
    const now = this.clock.now();
    // Written at most every 30 s per API, so a fleet of SDKs does not turn reads into writes.
    if (api.sdk_connected && api.sdk_last_seen_at && now.getTime() - api.sdk_last_seen_at.getTime() < 30_000 && api.sdk_agent === userAgent) return;
    const visit = { sdk_last_seen_at: now, sdk_agent: userAgent.slice(0, 200), ...(api.sdk_first_seen_at ? {} : { sdk_first_seen_at: now }) };
    if (api.sdk_connected) {
      await q.updateApi(this.db, api.id, visit);
      return;
    }
    // The first snapshot since the SDK went quiet (or ever): sdk.connected, once across nodes.
    await this.db.transaction().execute(async (trx) => {
      await q.updateApi(trx, api.id, visit);
      await this.events.connected(trx, api.id, now);
    });
  }

  /**
   * Stamps a snapshot: strictly later than any earlier one of this API, on every node, because
   * SDKs drop a snapshot that is not newer (wire protocol section 2, "Monotonic").
   */
  async stampSnapshot(apiId: string): Promise<Date> {
    const now = this.clock.now();
    const row = await this.db
      .updateTable('apis')
      .set({ snapshot_stamped_at: sql<Date>`greatest(${now}::timestamptz, snapshot_stamped_at + interval '1 millisecond')` })
      .where('id', '=', apiId)
      .returning('snapshot_stamped_at')
      .executeTakeFirstOrThrow();
    return row.snapshot_stamped_at!;
  }

  /**
   * Locks an API's row for the rest of the transaction, so writers that count against its limits
   * (customers, registered apps, webhook endpoints, the test customer, plan changes) take turns.
   * FOR NO KEY UPDATE conflicts with itself but not with the FOR KEY SHARE that every insert
   * referencing the API takes through its foreign key: under FOR UPDATE a stream of usage reports
   * kept such writers waiting as long as it lasted (docs/decisions.md, "The API row's lock").
   */
  async lockAmongWriters(trx: Trx, apiId: string): Promise<void> {
    await q.lockApiAmongWriters(trx, apiId);
  }

  async markFirstUsage(trx: Trx, apiId: string, at: Date) {
    await trx.updateTable('apis').set({ first_usage_at: at }).where('id', '=', apiId).where('first_usage_at', 'is', null).execute();
  }
}
