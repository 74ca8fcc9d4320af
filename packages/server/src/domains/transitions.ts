// The custom domain state machine (spec 3 leaves the transitions open; docs/decisions.md
// "Custom domains" states them): pure, so each rule is a line here and a test elsewhere.
import { DAY, HOUR, MINUTE, addMs } from '../platform/clock.js';
import type { DnsVerdict } from './dns-check.js';
import type { CustomDomainsTable, StoredDomainStatus } from './tables.js';

/** A pending (or verified, not yet certifiable) domain is checked for this long, then failed. */
export const PENDING_WINDOW_MS = 72 * HOUR;
/** The backoff of pending checks: the first a minute after setting, doubling up to an hour apart. */
export const FIRST_BACKOFF_MS = MINUTE;
export const MAX_BACKOFF_MS = HOUR;
/** An active domain is checked again once a day. */
export const ACTIVE_RECHECK_MS = DAY;
/**
 * An active domain whose records went missing or wrong keeps serving this long from the first
 * check that found it, checked hourly meanwhile; past it, it fails and is served no more.
 */
export const ACTIVE_GRACE_MS = 24 * HOUR;
export const GRACE_RECHECK_MS = HOUR;

/** What a check may change of a domain row. */
export interface CheckChanges {
  status: StoredDomainStatus;
  error: string | null;
  checked_at: Date;
  attempts: number;
  next_check_at: Date | null;
  failing_since: Date | null;
}

type Row = Pick<CustomDomainsTable, 'status' | 'pending_since' | 'failing_since'> & { attempts: number };

/** The wait before the next check of a pending domain that has been checked `attempts` times. */
export function backoffMs(attempts: number): number {
  return Math.min(FIRST_BACKOFF_MS * 2 ** Math.min(attempts, 20), MAX_BACKOFF_MS);
}

/**
 * The state after a check. `planAllows` false fails the domain whatever the DNS says (the API's
 * platform plan no longer includes custom domains). A failed domain changes only by a check the
 * owner asked for; the job never takes it.
 */
export function afterCheck(row: Row, verdict: DnsVerdict, now: Date, planAllows: boolean): CheckChanges {
  const base = { checked_at: now, attempts: row.attempts };
  if (!planAllows) {
    return { ...base, status: 'failed', error: 'The platform plan of this API does not include custom domains.', next_check_at: null, failing_since: null };
  }
  if (verdict.kind === 'active') {
    return { ...base, status: 'active', error: null, attempts: 0, next_check_at: addMs(now, ACTIVE_RECHECK_MS), failing_since: null };
  }
  if (row.status === 'active') return activeFailing(row, verdict, now);
  if (row.status === 'failed') {
    // Asked for by the owner: proof moves it on; anything short of that leaves it failed.
    if (verdict.kind === 'verified') return { ...base, status: 'verified', error: verdict.error, attempts: 0, next_check_at: addMs(now, FIRST_BACKOFF_MS), failing_since: null };
    return { ...base, status: 'failed', error: verdict.error, next_check_at: null, failing_since: null };
  }
  // Pending or verified: checked with backoff until the window closes.
  const status: StoredDomainStatus = verdict.kind === 'verified' ? 'verified' : verdict.kind === 'wrong' ? 'pending' : row.status;
  if (now.getTime() - row.pending_since.getTime() >= PENDING_WINDOW_MS) {
    return { ...base, status: 'failed', error: `Not proven within 72 hours: ${verdict.error}`, next_check_at: null, failing_since: null };
  }
  return { ...base, status, error: verdict.error, attempts: row.attempts + 1, next_check_at: addMs(now, backoffMs(row.attempts)), failing_since: null };
}

/** An active domain whose check found something wrong: its grace, then failed. */
function activeFailing(row: Row, verdict: Exclude<DnsVerdict, { kind: 'active' }>, now: Date): CheckChanges {
  const base = { checked_at: now, attempts: row.attempts };
  // A failed lookup proves nothing: the domain keeps serving and is asked again within the hour,
  // so an outage of our DNS servers never takes every domain down.
  if (verdict.kind === 'unknown') return { ...base, status: 'active', error: verdict.error, next_check_at: addMs(now, GRACE_RECHECK_MS), failing_since: row.failing_since };
  const since = row.failing_since ?? now;
  if (now.getTime() - since.getTime() >= ACTIVE_GRACE_MS) {
    return { ...base, status: 'failed', error: verdict.error, next_check_at: null, failing_since: null };
  }
  return { ...base, status: 'active', error: verdict.error, next_check_at: addMs(now, GRACE_RECHECK_MS), failing_since: since };
}
