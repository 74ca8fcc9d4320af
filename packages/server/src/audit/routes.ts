import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { validationProblem } from '../platform/errors.js';
import { DEFAULT_PAGE_SIZE, withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import { WorkspaceParams } from '../workspaces/schemas.js';
import type { WorkspaceService } from '../workspaces/service.js';
import { AuditBody, AuditQuery } from './schemas.js';
import type { AuditService } from './service.js';

export function auditRoutes(audit: AuditService, workspaces: WorkspaceService): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get('/workspaces/:ws/audit', {
      schema: { tags: ['audit'], summary: 'The audit log, newest first; narrowed by API, action, actor or customer', params: WorkspaceParams, querystring: AuditQuery, response: withProblems({ 200: AuditBody }) },
    }, async (request) => {
      await workspaces.authorize(requireCaller(request), request.params.ws, 'viewer');
      const { before, api_id, action, actor_id, customer_id, limit } = request.query;
      const page = await audit.list(request.params.ws, {
        ...(before ? { before } : {}),
        ...(api_id ? { apiId: api_id } : {}),
        ...(action ? { action } : {}),
        ...(actor_id ? { actorId: actor_id } : {}),
        ...(customer_id ? { customerId: customer_id } : {}),
        limit: limit ?? DEFAULT_PAGE_SIZE,
      });
      if (!page) throw validationProblem('query.before', 'not a cursor this API gave', before);
      return page;
    });
  };
}
