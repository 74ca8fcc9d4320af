import type { Trx } from '../platform/db/database.js';
import type { NewEvent } from '../webhooks/event-types.js';
import { raiseEvents } from '../webhooks/outbox.js';
import type { QuotaCrossing } from './queries.js';

/** The shares of a customer's monthly quota that raise usage.threshold_reached (issue 24 item 4). */
export const QUOTA_THRESHOLDS = [80, 100] as const;

/**
 * usage.threshold_reached for each threshold a report's usage took a customer's month across, in
 * the report's transaction. A month's count only grows, so each threshold is crossed by exactly
 * one report (the customers are locked), and raised once; the object's `updated_seq` is the
 * month's count, which orders anything later about the same month.
 */
export async function raiseQuotaThresholds(trx: Trx, apiId: string, at: Date, crossings: readonly QuotaCrossing[]): Promise<void> {
  if (!crossings.length) return;
  const events: NewEvent[] = [];
  for (const crossing of crossings) {
    const before = crossing.requests - crossing.added;
    for (const threshold of QUOTA_THRESHOLDS) {
      // In whole numbers, as queries.ts finds them: 100 % is the quota, 80 % is 4/5 of it.
      const reached = (value: number) => (threshold === 100 ? value >= crossing.quota : value * 5 >= crossing.quota * 4);
      if (!reached(crossing.requests) || reached(before)) continue;
      events.push({
        type: 'usage.threshold_reached',
        data: {
          object: {
            object: 'customer_usage',
            customer_id: crossing.customer_id,
            month: crossing.month,
            requests: crossing.requests,
            monthly_quota: crossing.quota,
            threshold,
            updated_seq: crossing.requests,
          },
        },
      });
    }
  }
  await raiseEvents(trx, apiId, at, events);
}
