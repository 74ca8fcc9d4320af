// The bounds of end-user keys and of the account API (spec 8), in one place.
import { DAY, MINUTE } from '../platform/clock.js';
import type { BucketRule } from '../platform/token-bucket.js';

/** Active (neither revoked nor expired) keys per person. */
export const MAX_ACTIVE_KEYS = 25;
/** New keys per person in any 24 hours, revoked ones included. */
export const MAX_NEW_KEYS_PER_DAY = 20;
export const NEW_KEYS_WINDOW_MS = DAY;
export const MAX_SERVERS_PER_KEY = 10;
export const MAX_PERMISSIONS_PER_KEY = 100;
export const MAX_KEY_NAME_LENGTH = 64;
/** Spec 8: a key lives at most 3650 days, whatever the owner's setting. */
export const MAX_LIFETIME_DAYS = 3650;
/** A new key without expires_in_days lives this long when the service sets no limit. */
export const DEFAULT_LIFETIME_DAYS = 365;
/** How long the old secret keeps working after a roll (spec 3: 0 ends it at once). */
export const ROLL_GRACE_HOURS = [0, 1, 24] as const;
/** Spec 5.7: creating or rolling needs a sign-in within the last 10 minutes. */
export const STEP_UP_MAX_AGE_S = 600;

/** Spec 8: 20 requests a second per person, with bursts up to 60. */
export const ACCOUNT_API_REQUESTS: BucketRule = { name: 'account-api', ratePerS: 20, burst: 60 };
/** Spec 8: 1000 changes an hour per person, as a bucket of 1000 refilled over the hour. */
export const ACCOUNT_API_CHANGES: BucketRule = { name: 'account-api-changes', ratePerS: 1000 / 3600, burst: 1000 };

/** Spec 8: revoked and expired keys are deleted 90 days later. */
export const KEY_RETENTION_MS = 90 * DAY;
/** Spec 6: the expiry reminder goes 7 days before expiry, to keys used in the last 30 days. */
export const REMINDER_BEFORE_EXPIRY_MS = 7 * DAY;
export const REMINDER_RECENT_USE_MS = 30 * DAY;
/**
 * last_used_at is written at most this often per key: introspection is the hot path, and the
 * reminder asks only whether a key was used in the last 30 days.
 */
export const LAST_USED_PRECISION_MS = MINUTE;
