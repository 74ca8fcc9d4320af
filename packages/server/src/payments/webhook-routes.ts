import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import { Problem } from '../platform/errors.js';
import type { PaymentsService } from './service.js';
import type { ProviderName } from './tables.js';

/** Provider events are a few kilobytes; Stripe's largest stay well under this. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/**
 * One endpoint per provider on the console host (DESIGN 5): `/webhooks/payments` for Stripe and
 * `/webhooks/payments/dev` for the development provider. The body is kept as the raw bytes the
 * signature was made over; a bad signature is a 400 and changes nothing.
 */
export function webhookRoutes(payments: PaymentsService): FastifyPluginAsync {
  return async (app) => {
    // Only inside this plugin: the raw bytes, not the parsed JSON every other route gets.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => done(null, body));

    const endpoint = (provider: ProviderName) => async (request: { body: unknown; headers: Record<string, string | string[] | undefined>; log: FastifyBaseLogger }) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const header = request.headers['stripe-signature'];
      const outcome = await payments.receiveWebhook(provider, raw, typeof header === 'string' ? header : undefined);
      if (!outcome.ok && outcome.malformed) {
        // Signed by the provider, so worth a look; a 400 stops its retries, and nothing changed.
        request.log.warn({ provider, problem: outcome.malformed }, 'signed payments webhook that is not an event');
        throw new Problem('bad_request', `Not an event: ${outcome.malformed}`);
      }
      if (!outcome.ok) throw new Problem('bad_request', 'The signature does not match this body');
      return { received: true, duplicate: outcome.duplicate };
    };

    const schema = { hide: true } as const;
    app.post('/webhooks/payments', { schema, bodyLimit: WEBHOOK_BODY_LIMIT }, endpoint('stripe'));
    app.post('/webhooks/payments/dev', { schema, bodyLimit: WEBHOOK_BODY_LIMIT }, endpoint('dev'));
  };
}
