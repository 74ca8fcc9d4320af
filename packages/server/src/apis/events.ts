import type { Clock } from '../platform/clock.js';
import { MINUTE } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import { isoDay, monthStart } from '../platform/period.js';
import type { NewEvent } from '../webhooks/event-types.js';
import { raiseEvent, raiseEvents } from '../webhooks/outbox.js';
import type { PlatformPlans } from './platform-plans.js';
import * as q from './queries.js';

/** An SDK is connected while it fetches a snapshot at least this often (spec 2.1 ConnectionBody). */
export const SDK_QUIET_MS = 10 * MINUTE;
/** APIs looked at per run of the allowance job. */
const BATCH = 500;

/** The SDK's connection as events show it; sdk_seq counts its changes. */
export function sdkConnectionObject(row: { id: string; sdk_connected: boolean; sdk_agent: string | null; sdk_last_seen_at: Date | null; sdk_seq: number }) {
  return {
    object: 'sdk_connection',
    api_id: row.id,
    connected: row.sdk_connected,
    agent: row.sdk_agent,
    last_seen_at: row.sdk_last_seen_at?.toISOString() ?? null,
    updated_seq: row.sdk_seq,
  };
}

/** The share of the platform allowance a month's requests reached: 0, 80 or 100 (percent). */
export function allowanceLevel(requests: number, limit: number): number {
  if (limit <= 0) return 0;
  if (requests >= limit) return 100;
  return requests * 5 >= limit * 4 ? 80 : 0;
}

/**
 * Events about an API itself (issue 24 item 4): its SDK connecting and going quiet, and its
 * month's requests reaching 80 % and 100 % of its platform plan's allowance. Each is a change of
 * a column of the API row made by one conditional update, so several nodes raise it once.
 */
export class ApiEvents {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly platformPlans: PlatformPlans,
    /** This month's requests per API (the stats capability). */
    private readonly monthRequests: (apiIds: string[]) => Promise<Map<string, number>>,
  ) {}

  /** A snapshot was fetched while the API's SDK counted as disconnected: sdk.connected. */
  async connected(trx: Trx, apiId: string, at: Date): Promise<void> {
    const row = await q.markSdkConnected(trx, apiId);
    if (row) await raiseEvent(trx, apiId, at, { type: 'sdk.connected', data: { object: sdkConnectionObject(row) } });
  }

  /** The job: SDKs with no snapshot for 10 minutes are disconnected (sdk.disconnected). */
  async disconnectQuiet(): Promise<number> {
    const at = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const rows = await q.markSdksDisconnected(trx, new Date(at.getTime() - SDK_QUIET_MS));
      for (const row of rows) await raiseEvent(trx, row.id, at, { type: 'sdk.disconnected', data: { object: sdkConnectionObject(row) } });
      return rows.length;
    });
  }

  /** The job: platform.allowance_threshold for each API whose month reached 80 % or 100 % since it last looked. */
  async allowanceThresholds(): Promise<number> {
    const at = this.clock.now();
    const month = isoDay(monthStart(at));
    let raised = 0;
    for (let after = ''; ; ) {
      const candidates = await q.allowanceCandidates(this.db, month, after, BATCH);
      if (!candidates.length) return raised;
      after = candidates.at(-1)!.id;
      const requests = await this.monthRequests(candidates.map((api) => api.id));
      for (const api of candidates) {
        const limit = this.platformPlans.get(api.platform_plan).monthly_requests;
        const used = requests.get(api.id) ?? 0;
        const reached = allowanceLevel(used, limit);
        const told = api.allowance_month === month ? api.allowance_level : 0;
        if (reached <= told) continue;
        raised += await this.db.transaction().execute(async (trx) => {
          // Read again under the row's lock: another node may have told of a level meanwhile.
          const current = await q.lockAllowance(trx, api.id);
          const toldNow = current?.allowance_month === month ? current.allowance_level : 0;
          if (!current || reached <= toldNow) return 0;
          await q.setAllowanceLevel(trx, api.id, month, reached);
          const events: NewEvent[] = [80, 100].filter((level) => level > toldNow && level <= reached).map((threshold) => ({
            type: 'platform.allowance_threshold',
            data: { object: { object: 'platform_allowance', api_id: api.id, month, plan: api.platform_plan, monthly_limit: limit, requests: used, threshold, updated_seq: used } },
          }));
          await raiseEvents(trx, api.id, at, events);
          return events.length;
        });
      }
    }
  }
}
