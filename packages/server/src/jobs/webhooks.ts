import type { Clock } from '../platform/clock.js';
import { addMs, HOUR, MINUTE } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import type { ApiService } from '../apis/service.js';
import { deleteEventsBefore } from '../webhooks/queries.js';
import { EVENT_RETENTION_MS } from '../webhooks/service.js';
import type { Job } from './scheduler.js';

/** Events older than 30 days (and their deliveries) go: GET /apis/{api}/events lists 30 days. */
export function webhookEventRetentionJob(clock: Clock): Job {
  return { name: 'webhook-event-retention', lockKey: 7_310_141, everyMs: HOUR, run: (db: Db) => deleteEventsBefore(db, addMs(clock.now(), -EVENT_RETENTION_MS)) };
}

/** SDKs that fetched no snapshot for 10 minutes are disconnected (`sdk.disconnected`). */
export function sdkDisconnectJob(apis: ApiService): Job {
  // Safe on several nodes at once: each API changes state by one conditional update.
  return { name: 'sdk-disconnect', lockKey: 7_310_142, everyMs: MINUTE, exclusive: false, run: () => apis.events.disconnectQuiet() };
}

/** APIs whose month's requests reached 80 % or 100 % of their platform allowance (`platform.allowance_threshold`). */
export function allowanceThresholdJob(apis: ApiService): Job {
  // Safe on several nodes at once: each level is recorded by one conditional update.
  return { name: 'platform-allowance-threshold', lockKey: 7_310_143, everyMs: MINUTE, exclusive: false, run: () => apis.events.allowanceThresholds() };
}
