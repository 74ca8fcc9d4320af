import type { Clock } from '../platform/clock.js';
import { addMs, DAY, HOUR } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { deleteUnusedConnectedApps } from '../issuer/connected-apps/queries.js';
import type { Job } from './scheduler.js';

/** Spec 4.3 and 8: apps people connect are removed after 30 days without use. */
export const UNUSED_CONNECTED_APP_MS = 30 * DAY;

/**
 * Removes registered and metadata-document apps unused for 30 days (never used: made 30 days
 * ago), unless a person still holds a working refresh token of theirs; blocked apps are kept, so
 * the owner's block outlives them. A metadata document app that comes back is fetched anew.
 */
export function connectedAppsCleanupJob(clock: Clock): Job {
  return {
    name: 'connected-apps-cleanup',
    lockKey: 7_310_114,
    everyMs: HOUR,
    run: async (db: Db) => {
      const now = clock.now();
      return deleteUnusedConnectedApps(db, addMs(now, -UNUSED_CONNECTED_APP_MS), now);
    },
  };
}
