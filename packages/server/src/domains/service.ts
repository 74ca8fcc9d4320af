import type { ApiRow, ApiService } from '../apis/service.js';
import type { Actor, AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import { rateLimitedProblem } from '../console/http.js';
import type { Clock } from '../platform/clock.js';
import { addMs, MINUTE } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import { fail, ok, type Result } from '../platform/errors.js';
import { randomBase62 } from '../platform/ids.js';
import type { RateLimitRule, RateLimits } from '../platform/rate-limit.js';
import type { DnsLookups, DnsVerdict } from './dns-check.js';
import { isAtOrUnder, normalizeHostName } from './host-name.js';
import * as q from './queries.js';
import type { DomainStatus } from './tables.js';
import { afterCheck, FIRST_BACKOFF_MS, type CheckChanges } from './transitions.js';

/** Spec 2.1 DomainOut. */
export interface DomainOutShape {
  status: DomainStatus;
  cname_target: string;
  allowed: boolean;
  domain?: string;
  error?: string;
  txt_name?: string;
  txt_value?: string;
  checked_at?: string;
}

export interface DomainSettings {
  /** Where owners point their domains (CUSTOM_DOMAIN_CNAME_TARGET). */
  cnameTarget: string;
  portalDomain: string;
  /** The console's host name, without its port. */
  consoleHostName: string;
}

/** The service's own changes (the re-check job) in the audit log. */
export const DOMAIN_CHECK_ACTOR: Actor = { type: 'system', id: 'domain-checks', name: 'Domain checks', ip: '' };

/** Checks the owner asks for: DNS lookups on the service's resolvers, so they are few per API. */
export const MANUAL_CHECK_LIMIT: RateLimitRule = { name: 'domain-check', points: 10, durationS: 60 };
/** How long the job holds a domain it took, should the run die before writing its outcome. */
const CLAIM_LEASE_MS = 5 * MINUTE;
/** Domains one run of the job takes, and checks under way at once. */
const JOB_BATCH = 100;
const JOB_CONCURRENCY = 8;

const TAKEN = 'Another API already serves this domain.';
export const txtNameOf = (domain: string) => `_gatehouse.${domain}`;

/** Custom domains (issue 17): setting, proving by DNS, re-checking, and serving them. */
export class DomainService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly dns: DnsLookups,
    private readonly rateLimits: RateLimits,
    private readonly settings: DomainSettings,
  ) {}

  #allowed(api: Pick<ApiRow, 'platform_plan'>): boolean {
    return this.apis.platformPlans.get(api.platform_plan).custom_domain;
  }

  #toOut(row: q.DomainRow | undefined, allowed: boolean): DomainOutShape {
    const out: DomainOutShape = { status: row?.status ?? 'none', cname_target: this.settings.cnameTarget, allowed };
    if (!row) return out;
    return {
      ...out,
      domain: row.domain,
      txt_name: txtNameOf(row.domain),
      txt_value: row.txt_value,
      ...(row.error ? { error: row.error } : {}),
      ...(row.checked_at ? { checked_at: row.checked_at.toISOString() } : {}),
    };
  }

  /** DomainOut of an API, for ApiOut. */
  async domainOut(api: ApiRow): Promise<DomainOutShape> {
    return this.#toOut(await q.findDomain(this.db, api.id), this.#allowed(api));
  }

  async get(caller: Caller, apiId: string): Promise<DomainOutShape> {
    const { api } = await this.apis.access(caller, apiId, 'viewer');
    return this.domainOut(api);
  }

  /** A name an owner may claim, normalized; or why not (spec DomainInBody; issue 17 point 1). */
  #claimable(raw: string): Result<string> {
    const refuse = (message: string) => fail<string>('validation', message, [{ location: 'body.domain', message, value: raw }]);
    const name = normalizeHostName(raw);
    if (!name) return refuse('Not a valid host name: labels of letters, digits and hyphens, at least two of them, as in login.example.com');
    const reserved = [this.settings.portalDomain, this.settings.consoleHostName, this.settings.cnameTarget].find((parent) => isAtOrUnder(name, parent));
    if (reserved) return refuse(`${name} is one of this service's own addresses (${reserved}); use a domain of your own`);
    return ok(name);
  }

  /** Sets the API's domain: pending, with a new TXT value. Setting the same one again changes nothing, unless it failed: then it is pending again. */
  async set(caller: Caller, apiId: string, raw: string): Promise<Result<DomainOutShape>> {
    const { api } = await this.apis.access(caller, apiId, 'admin');
    if (!this.#allowed(api)) return fail('plan_limit', `The ${api.platform_plan} platform plan does not include custom domains`);
    const claimed = this.#claimable(raw);
    if (!claimed.ok) return claimed;
    const domain = claimed.value;
    return this.db.transaction().execute(async (trx) => {
      const current = await q.lockDomain(trx, apiId);
      if (current && current.domain === domain && current.status !== 'failed') return ok(this.#toOut(current, true));
      if (await q.provenElsewhere(trx, domain, apiId)) return fail<DomainOutShape>('domain_taken', TAKEN, [{ location: 'body.domain', message: TAKEN, value: raw }]);
      const now = this.clock.now();
      const fresh = {
        domain,
        status: 'pending' as const,
        // Setting the same name again keeps its TXT value: the record the owner added still counts.
        txt_value: current?.domain === domain ? current.txt_value : `gh-verify-${randomBase62(32)}`,
        error: null,
        checked_at: null,
        pending_since: now,
        attempts: 0,
        next_check_at: addMs(now, FIRST_BACKOFF_MS),
        failing_since: null,
        updated_at: now,
      };
      const row = current ? await q.replaceDomain(trx, apiId, fresh) : await q.insertDomain(trx, { api_id: apiId, ...fresh, created_at: now });
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'domain.set',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: api.name },
        summary: current && current.domain !== domain ? `Changed the custom domain of ${api.name} from ${current.domain} to ${domain}` : `Set the custom domain of ${api.name} to ${domain}`,
        details: { domain, ...(current ? { from: { domain: current.domain, status: current.status } } : {}) },
      });
      return ok(this.#toOut(row, true));
    });
  }

  /** Back to `none`: the domain is served no more, at once. */
  async remove(caller: Caller, apiId: string): Promise<DomainOutShape> {
    const { api } = await this.apis.access(caller, apiId, 'admin');
    await this.db.transaction().execute(async (trx) => {
      const removed = await q.deleteDomain(trx, apiId);
      if (!removed) return;
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'domain.remove',
        target: { type: 'api', id: apiId },
        api: { id: apiId, name: api.name },
        summary: `Removed the custom domain ${removed.domain} of ${api.name}`,
        details: { domain: removed.domain, status: removed.status },
      });
    });
    return this.#toOut(undefined, this.#allowed(api));
  }

  /** Checks the records now (POST …/domain/check), whatever the state, a failed domain included. */
  async check(caller: Caller, apiId: string): Promise<Result<DomainOutShape>> {
    const { api } = await this.apis.access(caller, apiId, 'admin');
    if (!this.#allowed(api)) return fail('plan_limit', `The ${api.platform_plan} platform plan does not include custom domains`);
    const row = await q.findDomain(this.db, apiId);
    if (!row) return fail('domain_not_set', 'Set a custom domain first (PUT /apis/{api}/domain)');
    const limit = await this.rateLimits.consume(MANUAL_CHECK_LIMIT, apiId);
    if (!limit.allowed) throw rateLimitedProblem(limit.retryAfterS);
    const verdict = await this.#inspect(row);
    const written = await this.#record(api, row, afterCheck(row, verdict, this.clock.now(), true), actorOf(caller), true);
    return ok(this.#toOut(written ?? (await q.findDomain(this.db, apiId)), true));
  }

  #inspect(row: q.DomainRow): Promise<DnsVerdict> {
    return this.dns.inspect({ domain: row.domain, txtName: txtNameOf(row.domain), txtValue: row.txt_value, cnameTarget: this.settings.cnameTarget });
  }

  /**
   * Writes a check's outcome over the row it read (nothing if the row changed meanwhile), with its
   * audit event: every check the owner asked for, and the job's changes of state.
   */
  async #record(api: ApiRow, row: q.DomainRow, changes: CheckChanges, actor: Actor, asked: boolean): Promise<q.DomainRow | undefined> {
    const write = (trx: Trx, next: CheckChanges) => q.recordCheck(trx, row.api_id, row.version, { ...next, updated_at: this.clock.now() });
    const proven = changes.status === 'verified' || changes.status === 'active';
    // Two APIs can both pass the TXT check when the name's owner added both values; the first to
    // be proven keeps it (the unique index decides a race), the other stays short of proven.
    const notProven: CheckChanges = { ...changes, status: row.status === 'failed' ? 'failed' : 'pending', error: TAKEN };
    const run = () =>
      this.db.transaction().execute(async (trx) => {
        const next = proven && (await q.provenElsewhere(trx, row.domain, row.api_id)) ? notProven : changes;
        const written = await write(trx, next);
        if (written && (asked || written.status !== row.status)) {
          await this.audit.record(trx, actor, {
            workspaceId: api.workspace_id,
            action: asked ? 'domain.check' : 'domain.status',
            target: { type: 'api', id: api.id },
            api: { id: api.id, name: api.name },
            summary: written.status === row.status ? `Checked ${row.domain}: still ${written.status}` : `Checked ${row.domain}: ${row.status} → ${written.status}`,
            details: { domain: row.domain, from: row.status, to: written.status, ...(written.error ? { error: written.error } : {}) },
          });
        }
        return written;
      });
    try {
      return await run();
    } catch (error) {
      if (!isUniqueViolation(error, 'custom_domains_proven')) throw error;
      return this.db.transaction().execute((trx) => write(trx, notProven));
    }
  }

  /** The re-check job: domains due (pending with backoff, active daily, in grace hourly). */
  async runDueChecks(): Promise<{ checked: number }> {
    const now = this.clock.now();
    const due = await q.claimDue(this.db, now, addMs(now, CLAIM_LEASE_MS), JOB_BATCH);
    let next = 0;
    const worker = async () => {
      while (next < due.length) {
        const row = due[next++]!;
        const api = await this.apis.findById(this.db, row.api_id);
        if (!api) continue;
        const allowed = this.#allowed(api);
        // A plan without domains fails the domain without asking the DNS anything.
        const verdict: DnsVerdict = allowed ? await this.#inspect(row) : { kind: 'wrong', error: '' };
        await this.#record(api, row, afterCheck(row, verdict, this.clock.now(), allowed), DOMAIN_CHECK_ACTOR, false);
      }
    };
    await Promise.all(Array.from({ length: Math.min(JOB_CONCURRENCY, due.length) }, worker));
    return { checked: due.length };
  }

  /**
   * The API an active custom domain serves, for the tenant lookup; null for any other name, and
   * for a domain whose API's platform plan no longer includes custom domains.
   */
  async servedApiId(host: string): Promise<string | null> {
    const found = await q.findByName(this.db, host, ['active']);
    return found && this.#allowed(found) ? found.api_id : null;
  }

  /**
   * Whether the proxy may get a certificate for a name (Caddy's on-demand `ask`): a portal host of
   * an API that exists, or a custom domain proven (verified or active) on a plan that includes it.
   */
  async certificateAllowed(raw: string): Promise<boolean> {
    const name = normalizeHostName(raw);
    if (!name) return false;
    const suffix = `.${this.settings.portalDomain}`;
    if (name.endsWith(suffix)) {
      const slug = name.slice(0, -suffix.length);
      return !slug.includes('.') && (await this.apis.findBySlug(slug)) !== undefined;
    }
    const found = await q.findByName(this.db, name, ['verified', 'active']);
    return found !== undefined && this.#allowed(found);
  }
}

