import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { HOUR } from '../platform/clock.js';

/** How long the secret a rotation replaced keeps signing beside the new one (issue 24 item 1). */
export const ROTATION_OVERLAP_MS = 24 * HOUR;

/** An endpoint secret in the Standard Webhooks form: `whsec_` and 32 random bytes in base64. */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * The Standard Webhooks headers of one attempt: the event id (the same on every retry), the time
 * of this attempt, and a `v1,<base64>` signature per secret, space-separated, so a receiver that
 * holds either secret during a rotation accepts it.
 */
export function signedHeaders(secrets: readonly string[], eventId: string, at: Date, payload: string): SignedHeaders {
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(eventId, at, payload)).join(' '),
  };
}
