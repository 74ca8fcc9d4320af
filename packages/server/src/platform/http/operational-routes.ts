import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Metrics } from '../metrics.js';
import { migrationsCurrent } from '../db/migrate.js';
import { Problem } from '../errors.js';
import type { Lifecycle } from '../lifecycle.js';
import { constantTimeEqual } from '../crypto.js';

/** Who may read /metrics: the configured token, or (without one) loopback when no proxy sits in front. */
export interface MetricsAccess {
  token: string | null;
  trustProxy: boolean;
}

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

/**
 * Whether a request may read the metrics (issue 26 item 6: they were public, and the dearest
 * anonymous request). With METRICS_TOKEN, `Authorization: Bearer <token>` from anywhere; without,
 * a connection from this machine (the peer's socket address, never a forwarded one), unless a
 * trusted proxy fronts the service: every connection may then come from loopback.
 */
export function metricsAllowed(access: MetricsAccess, authorization: string | undefined, peerAddress: string | undefined): 'allowed' | 'unauthorized' | 'hidden' {
  if (access.token !== null) {
    const presented = /^Bearer (\S+)$/i.exec(authorization ?? '')?.[1];
    return presented !== undefined && constantTimeEqual(presented, access.token) ? 'allowed' : 'unauthorized';
  }
  if (access.trustProxy) return 'hidden';
  return LOOPBACK.test(peerAddress ?? '') ? 'allowed' : 'hidden';
}

/** /healthz and /readyz on every host; /metrics on the console host (its `/` is the console web app). */
export function operationalRoutes(services: { db: Db; metrics: Metrics; lifecycle: Lifecycle; metricsAccess: MetricsAccess }): FastifyPluginAsync {
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));

    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
      // From the first stop signal: a balancer stops sending new work here (docs/operations.md).
      if (services.lifecycle.draining) return reply.status(503).header('connection', 'close').send({ ready: false, reason: 'shutting down' });
      try {
        await sql`select 1`.execute(services.db);
        if (!(await migrationsCurrent(services.db))) return reply.status(503).send({ ready: false, reason: 'migrations pending' });
        return { ready: true };
      } catch {
        return reply.status(503).send({ ready: false, reason: 'database unreachable' });
      }
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (request.face.kind !== 'console') throw new Problem('not_found');
      const allowed = metricsAllowed(services.metricsAccess, request.headers.authorization, request.socket.remoteAddress);
      // Without a token nobody outside may learn the route is there; with one, a scraper is told to authenticate.
      if (allowed === 'hidden') throw new Problem('not_found');
      if (allowed === 'unauthorized') throw new Problem('not_signed_in', 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>', undefined, { 'www-authenticate': 'Bearer realm="metrics"' });
      return reply.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
    });
  };
}
