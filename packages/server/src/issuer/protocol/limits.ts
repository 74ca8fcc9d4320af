// Per-network limits of the protocol endpoints that spec 8 does not number (issue 26): the token
// endpoint (spec 7: `temporarily_unavailable` for too many requests from the network) and pushed
// authorization requests of public clients. Token buckets (platform/token-bucket.ts) on the
// service clock, shared through Redis when configured. A network is an IPv4 address or an IPv6
// /64 (platform/http/network.ts), as for every other per-network limit.
import type { BucketRule } from '../../platform/token-bucket.js';

/**
 * Token endpoint, every request (before the client is authenticated, so guessed secrets count):
 * 100 a second with bursts up to 1000 per network and API, the numbers spec 8 gives introspection's
 * trusted callers. A web app's backend refreshes for all its people from one address, so the limit
 * has to sit far above any one sign-in's two or three requests.
 */
export const TOKEN_REQUESTS: BucketRule = { name: 'token-network', ratePerS: 100, burst: 1000 };
/** The token endpoint's refusal says to come back in a second, as introspection's does (spec 7). */
export const TOKEN_RETRY_AFTER_S = 1;

/**
 * Pushed authorization requests of public clients (no secret: anyone can send them, and each one
 * keeps a row): 60 at once and 600 an hour per network, over every API. One sign-in pushes one
 * request; a public client may also skip PAR and send its parameters to /oauth/authorize, so a
 * network past this loses nothing it needs. Confidential clients prove their secret and are not
 * counted here.
 */
export const PUBLIC_PAR: BucketRule = { name: 'par-public-network', ratePerS: 600 / 3600, burst: 60 };
