import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Metrics } from '../metrics.js';
import { migrationsCurrent } from '../db/migrate.js';
import { Problem } from '../errors.js';
import type { Lifecycle } from '../lifecycle.js';

/** /healthz and /readyz on every host; /metrics on the console host (its `/` is the console web app). */
export function operationalRoutes(services: { db: Db; metrics: Metrics; lifecycle: Lifecycle }): FastifyPluginAsync {
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
      return reply.type(services.metrics.registry.contentType).send(await services.metrics.registry.metrics());
    });
  };
}
