import type { Clock } from '../platform/clock.js';
import { addMs, DAY, HOUR } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { deleteExpiredEmailCodes, deleteFinishedSessions } from '../issuer/people/retention-queries.js';
import { deleteExpiredTokenRows, deleteRevokedGrants } from '../issuer/tokens/retention-queries.js';
import type { Job } from './scheduler.js';

/**
 * Codes, pushed requests, interactions and refresh tokens are kept a day past their expiry, so a
 * late replay is still recognised as a replay (and revokes its grant) rather than as unknown.
 */
export const EXPIRED_TOKEN_RETENTION_MS = DAY;
/**
 * Ended sessions and revoked grants are kept 7 days: longer than the longest access token
 * (86,400 s), so no token that was alive when they ended can look active after they are gone.
 */
export const FINISHED_GRANT_RETENTION_MS = 7 * DAY;

export function signinRetentionJob(clock: Clock): Job {
  return {
    name: 'signin-retention',
    lockKey: 7_310_102,
    everyMs: HOUR,
    run: async (db: Db) => {
      const now = clock.now();
      await deleteExpiredTokenRows(db, addMs(now, -EXPIRED_TOKEN_RETENTION_MS));
      await deleteExpiredEmailCodes(db, addMs(now, -EXPIRED_TOKEN_RETENTION_MS));
      await deleteRevokedGrants(db, addMs(now, -FINISHED_GRANT_RETENTION_MS));
      await deleteFinishedSessions(db, addMs(now, -FINISHED_GRANT_RETENTION_MS));
    },
  };
}
