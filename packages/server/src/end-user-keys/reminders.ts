import type { Clock } from '../platform/clock.js';
import { addMs } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { REMINDER_BEFORE_EXPIRY_MS, REMINDER_RECENT_USE_MS } from './limits.js';
import * as mails from './mails.js';
import * as q from './queries.js';
import { KEYS_PAGE_PATH } from './service.js';

/** Keys reminded per transaction: a large backlog is worked off in several short ones. */
const BATCH = 100;

/**
 * Spec 6: a reminder 7 days before expiry for keys used in the last 30 days, once per key. Each
 * key is marked in the transaction that queues its mail, so a reminder is sent exactly once even
 * when two nodes run this at the same time (the rows are locked, and locked ones skipped).
 */
export async function remindExpiringKeys(db: Db, clock: Clock, outbox: MailOutbox, portalUrl: (slug: string) => string): Promise<number> {
  let reminded = 0;
  for (;;) {
    const now = clock.now();
    const batch = await db.transaction().execute(async (trx) => {
      const keys = await q.keysToRemind(trx, now, addMs(now, REMINDER_BEFORE_EXPIRY_MS), addMs(now, -REMINDER_RECENT_USE_MS), BATCH);
      for (const key of keys) {
        await q.markReminded(trx, key.id, now);
        await outbox.enqueue(trx, mails.expiryReminder(key.email, key.api_name, { name: key.name, start: key.start, expiresAt: key.expires_at! }, portalUrl(key.api_slug) + KEYS_PAGE_PATH));
      }
      return keys.length;
    });
    reminded += batch;
    if (batch < BATCH) break;
  }
  if (reminded > 0) outbox.kick();
  return reminded;
}
