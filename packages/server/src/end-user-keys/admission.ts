// The per-person rules every way into a person's keys applies before the service is asked: the
// account API (account-routes.ts) and the portal's keys page (portal/pages/api-keys.ts) both call
// this, so the rate limits and the recent sign-in rule live in one place (docs/decisions.md).
import type { TokenBuckets } from '../platform/token-bucket.js';
import { requireRecentSignIn, type AccountCaller } from './account-auth.js';
import { tooManyRequests } from './errors.js';
import { ACCOUNT_API_CHANGES, ACCOUNT_API_REQUESTS } from './limits.js';

export interface Admission {
  /** The request changes something (spec 8: 1000 changes an hour per person). */
  change: boolean;
  /** The request creates or rolls a key (spec 5.7: a sign-in within the last 10 minutes). */
  stepUp: boolean;
}

/**
 * Takes the person's allowance (spec 8: 20 requests a second, burst 60; 1000 changes an hour)
 * and checks the step-up rule, or throws the KeyApiError to answer: 429 with Retry-After, or
 * 401 insufficient_user_authentication.
 */
export async function admitKeyRequest(buckets: TokenBuckets, apiId: string, caller: AccountCaller, admission: Admission, now: Date): Promise<void> {
  const who = `${apiId}:${caller.personId}`;
  const requests = await buckets.take(ACCOUNT_API_REQUESTS, who);
  if (!requests.allowed) throw tooManyRequests('Too many requests', requests.retryAfterS);
  if (admission.change) {
    const changes = await buckets.take(ACCOUNT_API_CHANGES, who);
    if (!changes.allowed) throw tooManyRequests('Too many changes this hour', changes.retryAfterS);
  }
  if (admission.stepUp) requireRecentSignIn(caller, now);
}
