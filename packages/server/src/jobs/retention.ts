import type { Clock } from '../platform/clock.js';
import { addMs, DAY, HOUR } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { deleteReceiptsBefore } from '../sdk-sync/queries.js';
import type { Job } from './scheduler.js';

/**
 * Usage receipts are kept 60 days: SDKs may resend an item for 45 days (46 with Redis state), and a
 * receipt forgotten too early would bill that item twice (wire protocol section 4).
 */
export const RECEIPT_RETENTION_MS = 60 * DAY;

export function receiptRetentionJob(clock: Clock): Job {
  return {
    name: 'usage-receipt-retention',
    lockKey: 7_310_101,
    everyMs: HOUR,
    run: (db: Db) => deleteReceiptsBefore(db, addMs(clock.now(), -RECEIPT_RETENTION_MS)),
  };
}
