import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import type { Metrics } from '../metrics.js';
import { migrationsCurrent } from '../db/migrate.js';
import { Problem } from '../errors.js';

/** /healthz and /readyz on every host; /metrics and the landing page on the console host. */
export function operationalRoutes(services: { db: Db; metrics: Metrics; consoleHost: RegExp }): FastifyPluginAsync {
  // The landing page is the console host's: every other host's `/` is its API's portal.
  const consoleHostOnly = { host: services.consoleHost };
  return async (app) => {
    app.get('/healthz', { schema: { hide: true } }, async () => ({ ok: true }));

    app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
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

    app.get('/', { schema: { hide: true }, constraints: consoleHostOnly }, async (_request, reply) => {
      return reply
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Gatehouse</title></head><body style="font-family:sans-serif">' +
            '<h1>Gatehouse</h1><p>Sign-in, API keys and metered billing for your API.</p>' +
            '<p><a href="/api/docs">Console API documentation</a> · <a href="/api/openapi.json">OpenAPI document</a></p></body></html>',
        );
    });
  };
}
