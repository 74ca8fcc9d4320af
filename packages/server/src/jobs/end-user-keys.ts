import type { Clock } from '../platform/clock.js';
import { addMs, HOUR } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { KEY_RETENTION_MS } from '../end-user-keys/limits.js';
import { deleteFinishedKeys } from '../end-user-keys/queries.js';
import { remindExpiringKeys } from '../end-user-keys/reminders.js';
import type { Job } from './scheduler.js';

/** Spec 8: revoked keys are deleted 90 days after revocation, expired ones 90 days after expiry. */
export function endUserKeyRetentionJob(clock: Clock): Job {
  return {
    name: 'end-user-key-retention',
    lockKey: 7_310_151,
    everyMs: HOUR,
    run: (db: Db) => deleteFinishedKeys(db, addMs(clock.now(), -KEY_RETENTION_MS)),
  };
}

/**
 * Spec 6: expiry reminders, 7 days ahead. Hourly, so a key is reminded within the hour it comes
 * within 7 days of its expiry.
 */
export function endUserKeyReminderJob(clock: Clock, outbox: MailOutbox, portalUrl: (slug: string) => string): Job {
  return {
    name: 'end-user-key-reminders',
    lockKey: 7_310_152,
    everyMs: HOUR,
    run: (db: Db) => remindExpiringKeys(db, clock, outbox, portalUrl),
  };
}
