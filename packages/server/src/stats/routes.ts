import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiParams } from '../apis/schemas.js';
import { withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import { ConnectionBody, StatsBody, StatsQuery } from './schemas.js';
import type { StatsService } from './service.js';

export function statsRoutes(stats: StatsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['stats'];
    app.get('/apis/:api/stats', {
      schema: { tags, summary: 'Requests, charges and customers; days in UTC', params: ApiParams, querystring: StatsQuery, response: withProblems({ 200: StatsBody }) },
    }, async (request) => stats.stats(requireCaller(request), request.params.api, request.query.days ?? 30));

    app.get('/apis/:api/connection', {
      schema: { tags, summary: 'Whether the SDK is connected, and what it has sent', params: ApiParams, response: withProblems({ 200: ConnectionBody }) },
    }, async (request) => stats.connection(requireCaller(request), request.params.api));
  };
}
