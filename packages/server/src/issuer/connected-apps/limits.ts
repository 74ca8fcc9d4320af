// The limits on apps people connect (spec 8, and the ones we set where the spec leaves it to us).
// Token buckets (platform/token-bucket.ts): shared through Redis when configured, on the service
// clock so tests move past a window instead of waiting.
import type { BucketRule } from '../../platform/token-bucket.js';

/** Spec 8: 20 apps registered per hour per network (over every API; a network is an IPv4 address or an IPv6 /64). */
export const REGISTRATIONS_PER_NETWORK: BucketRule = { name: 'register-network', ratePerS: 20 / 3600, burst: 20 };
/** Spec 8: 200 apps registered per hour per service (API). */
export const REGISTRATIONS_PER_SERVICE: BucketRule = { name: 'register-service', ratePerS: 200 / 3600, burst: 200 };
/** Spec 7: a refused registration says when to come back. */
export const REGISTRATION_RETRY_AFTER_S = 600;
/**
 * Spec 8: a service holds at most this many registered apps. Apps named by a metadata document
 * count among them (issue 26): both are apps anyone can make appear, and the cap is there to bound
 * what strangers can add to a service.
 */
export const MAX_CONNECTED_APPS = 1000;

/**
 * Metadata documents fetched for one network (ours to set): a client's sign-in fetches its
 * document at most twice (authorization, token) and then keeps it for its cache lifetime, so 30 a
 * minute is far above use, while it keeps anyone from making the service fetch URLs at will.
 */
export const METADATA_FETCHES: BucketRule = { name: 'metadata-fetch', ratePerS: 30 / 60, burst: 30 };

/**
 * Spec 7 (`access_denied`, "app asked for consent too many times"; the number is ours): an app
 * people connect may put its consent screen in front of one person 10 times a day. A person who
 * allows is not asked again for the same scopes, so only an app that keeps asking someone who
 * declines or walks away reaches it: the pestering a person should not have to keep refusing.
 */
export const CONSENT_ASKS: BucketRule = { name: 'consent-asks', ratePerS: 10 / 86400, burst: 10 };
