import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiParams } from '../apis/schemas.js';
import { withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import { PlanFields, PlanOut, PlanParams, PlanUpdateFields } from './schemas.js';
import type { PlanService } from './service.js';

export function planRoutes(plans: PlanService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['plans'];
    app.get('/apis/:api/plans', {
      schema: { tags, summary: 'Subscription plans with subscriber counts', params: ApiParams, response: withProblems({ 200: Type.Object({ plans: Type.Array(PlanOut) }) }) },
    }, async (request) => ({ plans: await plans.list(requireCaller(request), request.params.api) }));

    app.post('/apis/:api/plans', {
      schema: { tags, summary: 'Create a plan (editor)', params: ApiParams, body: PlanFields, response: withProblems({ 200: PlanOut }) },
    }, async (request) => plans.create(requireCaller(request), request.params.api, request.body));

    app.patch('/apis/:api/plans/:id', {
      schema: { tags, summary: 'Change a plan (editor); subscribers move to its new terms', params: PlanParams, body: PlanUpdateFields, response: withProblems({ 200: PlanOut }) },
    }, async (request) => plans.update(requireCaller(request), request.params.api, request.params.id, request.body));

    app.delete('/apis/:api/plans/:id', {
      schema: {
        tags,
        summary: 'Delete a plan (editor)',
        description: 'A plan with subscribers is deactivated instead (200 with the plan); one without is deleted (204).',
        params: PlanParams,
        response: withProblems({ 200: PlanOut, 204: Type.Null() }),
      },
    }, async (request, reply) => {
      const outcome = await plans.remove(requireCaller(request), request.params.api, request.params.id);
      return outcome.deleted ? reply.status(204).send(null) : outcome.plan;
    });
  };
}
