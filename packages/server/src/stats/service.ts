import { sql } from 'kysely';
import type { Clock } from '../platform/clock.js';
import { addMs, DAY, MINUTE } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { saturatedSum } from '../platform/db/saturating.js';
import { saturate } from '../platform/money.js';
import { dayStart, isoDay, monthStart, nextMonthStart } from '../platform/period.js';
import type { ApiService } from '../apis/service.js';
import type { Caller } from '../console/caller.js';
import type { CustomerService } from '../customers/service.js';
import type { LedgerService } from '../ledger/service.js';

/** An SDK that fetched a snapshot this recently counts as connected (spec ConnectionBody). */
export const SDK_CONNECTED_WINDOW_MS = 10 * MINUTE;

/** Statistics and connection status of an API, from ingested usage (spec StatsBody). Days are UTC. */
export class StatsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
    private readonly ledger: LedgerService,
    /** The API can take payments: provider set up, owner's account connected and taking charges. */
    private readonly paymentsReady: (apiId: string) => Promise<boolean> = async () => false,
  ) {}

  async stats(caller: Caller, apiId: string, days: number) {
    const { api } = await this.apis.access(caller, apiId, 'viewer');
    const now = this.clock.now();
    const today = isoDay(now);
    const month = isoDay(monthStart(now));
    const nextMonth = isoDay(nextMonthStart(now));
    const firstDay = isoDay(addMs(dayStart(now), -(days - 1) * DAY));
    const dayRows = await this.db
      .selectFrom('api_usage_days')
      .selectAll()
      .where('api_id', '=', apiId)
      .where('day', '>=', firstDay < month ? firstDay : month)
      .where('day', '<=', today)
      .execute();
    const byDay = new Map(dayRows.map((r) => [r.day, r]));
    const monthRows = dayRows.filter((r) => r.day >= month && r.day < nextMonth);
    // Each day row is within the bound; a month of them may not be, and saturates (platform/money.ts).
    const sum = (rows: typeof dayRows, f: (r: (typeof dayRows)[number]) => number) => saturate(rows.reduce((t, r) => t + BigInt(f(r)), 0n));
    const daily = [];
    for (let i = days - 1; i >= 0; i--) {
      const day = isoDay(addMs(dayStart(now), -i * DAY));
      const row = byDay.get(day);
      daily.push({ day, requests: Number(row?.requests ?? 0), billable: Number(row?.billable ?? 0), errors: Number(row?.errors ?? 0), charged_micro: Number(row?.charged_micro ?? 0) });
    }
    const counts = await this.db
      .selectFrom('customers as c')
      .leftJoin('customer_usage_months as m', (join) => join.onRef('m.customer_id', '=', 'c.id').on('m.month', '=', month))
      .select([
        sql<number>`count(*) filter (where not c.is_test)`.as('customers'),
        sql<number>`count(*) filter (where not c.is_test and coalesce(m.requests, 0) > 0)`.as('active'),
        sql<number>`count(*) filter (where c.status = 'pending')`.as('pending'),
      ])
      .where('c.api_id', '=', apiId)
      .where('c.archived_at', 'is', null)
      .executeTakeFirstOrThrow();
    const top = await this.db
      .selectFrom('customer_usage_months as m')
      .innerJoin('customers as c', 'c.id', 'm.customer_id')
      .select(['c.id', 'c.name', 'm.requests', 'm.charged_micro', 'c.balance_micro'])
      .where('m.api_id', '=', apiId)
      .where('m.month', '=', month)
      .where('c.is_test', '=', false)
      .orderBy('m.requests', 'desc')
      .orderBy('c.id')
      .limit(10)
      .execute();
    return {
      requests_today: Number(byDay.get(today)?.requests ?? 0),
      requests_month: sum(monthRows, (r) => r.requests),
      charged_month_micro: sum(monthRows, (r) => r.charged_micro),
      topups_month_micro: await this.ledger.sumSince(apiId, ['topup', 'auto_recharge'], monthStart(now)),
      customers: Number(counts.customers),
      active_customers: Number(counts.active),
      pending_customers: Number(counts.pending),
      platform_limit: this.apis.platformPlans.get(api.platform_plan).monthly_requests,
      daily,
      top_customers: top.map((t) => ({ id: t.id, name: t.name, requests: Number(t.requests), charged_micro: Number(t.charged_micro), balance_micro: t.balance_micro })),
    };
  }

  async connection(caller: Caller, apiId: string) {
    const { api } = await this.apis.access(caller, apiId, 'viewer');
    const now = this.clock.now();
    const test = await this.db.selectFrom('api_usage_days').select(saturatedSum('test_requests').as('n')).where('api_id', '=', apiId).executeTakeFirstOrThrow();
    const iso = (d: Date | null) => (d ? { value: d.toISOString() } : null);
    return {
      sdk_connected: !!api.sdk_last_seen_at && now.getTime() - api.sdk_last_seen_at.getTime() <= SDK_CONNECTED_WINDOW_MS,
      test_requests: Number(test.n),
      customers: (await this.customers.countsByApi([apiId])).get(apiId) ?? 0,
      payments_ready: await this.paymentsReady(apiId),
      ...(iso(api.first_usage_at) ? { first_usage_at: iso(api.first_usage_at)!.value } : {}),
      ...(iso(api.sdk_first_seen_at) ? { sdk_first_seen_at: iso(api.sdk_first_seen_at)!.value } : {}),
      ...(iso(api.sdk_last_seen_at) ? { sdk_last_seen_at: iso(api.sdk_last_seen_at)!.value } : {}),
      ...(api.sdk_agent ? { sdk_agent: api.sdk_agent } : {}),
    };
  }

  /** Requests of the current month per API, for API summaries. */
  async monthRequestsByApi(apiIds: string[]): Promise<Map<string, number>> {
    if (!apiIds.length) return new Map();
    const now = this.clock.now();
    const rows = await this.db
      .selectFrom('api_usage_days')
      .select(['api_id', saturatedSum('requests').as('n')])
      .where('api_id', 'in', apiIds)
      .where('day', '>=', isoDay(monthStart(now)))
      .where('day', '<', isoDay(nextMonthStart(now)))
      .groupBy('api_id')
      .execute();
    return new Map(rows.map((r) => [r.api_id, Number(r.n)]));
  }
}
