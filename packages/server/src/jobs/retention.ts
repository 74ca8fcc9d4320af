import type { Clock } from '../platform/clock.js';
import { addMs, DAY, HOUR } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { pruneTombstones } from '../sdk-sync/change-queries.js';
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

/**
 * Tombstones of removed keys and customers are kept 7 days (issue 27): an SDK that follows changes
 * and was away for less learns of every removal; one away longer gets 410 and reads the snapshot.
 * Changes of live objects are never removed: they are those objects' latest changes.
 */
export const TOMBSTONE_RETENTION_MS = 7 * DAY;

export function sdkChangeRetentionJob(clock: Clock): Job {
  return {
    name: 'sdk-change-tombstones',
    lockKey: 7_310_103,
    everyMs: HOUR,
    run: (db: Db) => pruneTombstones(db, addMs(clock.now(), -TOMBSTONE_RETENTION_MS)),
  };
}
