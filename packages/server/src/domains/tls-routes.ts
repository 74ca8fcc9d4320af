import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { TlsAllowedQuery } from './schemas.js';
import type { DomainService } from './service.js';

/**
 * `GET /internal/tls/allowed?domain=`: the `ask` of a reverse proxy's on-demand TLS (Caddy). 200
 * when a certificate may be issued for the name, 404 otherwise; Caddy takes any 2xx as yes. On
 * every host, since the proxy asks over its own connection to the service (docs/operations.md).
 */
export function tlsRoutes(domains: DomainService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/internal/tls/allowed', { schema: { hide: true, querystring: TlsAllowedQuery } }, async (request, reply) => {
      const allowed = await domains.certificateAllowed(request.query.domain);
      return reply.status(allowed ? 200 : 404).header('cache-control', 'no-store').send({ allowed });
    });
  };
}
