import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import { ApiParams } from '../apis/schemas.js';
import * as s from './schemas.js';
import type { PaymentsService } from './service.js';

/** Console routes of payments (DESIGN 6): the connection (admin) and platform plan checkout (owner). */
export function paymentRoutes(payments: PaymentsService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['payments'];
    const params = ApiParams;

    app.get('/apis/:api/payments', {
      schema: { tags, summary: 'The payments connection of the API', params, response: withProblems({ 200: s.PaymentsOut }) },
    }, async (request) => payments.get(requireCaller(request), request.params.api));

    app.post('/apis/:api/payments/connect', {
      schema: { tags, summary: "Connect the owner's payments account (admin); answers the provider's onboarding page", params, response: withProblems({ 200: s.UrlBody }, 409, 502) },
    }, async (request) => payments.connect(requireCaller(request), request.params.api));

    app.delete('/apis/:api/payments', {
      schema: { tags, summary: 'Disconnect the payments account (admin)', params, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await payments.disconnect(requireCaller(request), request.params.api);
      return reply.status(204).send(null);
    });

    app.post('/apis/:api/plan/checkout', {
      schema: {
        tags, params, body: s.PlanCheckoutInBody, response: withProblems({ 200: s.UrlBody }, 409, 502),
        summary: 'Buy or change the platform plan of the API (owner)',
        description: 'Without a live subscription: answers the provider\'s checkout page. With one: moves it to this plan at once, prorated by the provider (never a second subscription), and answers the console\'s plan page; `free` cancels at the end of the period.',
      },
    }, async (request) => payments.platformPlans.choose(requireCaller(request), request.params.api, request.body.plan_code));

    app.post('/apis/:api/plan/cancel', {
      schema: { tags, summary: 'Cancel the platform plan at the end of its paid period (owner); the API is on free after', params, response: withProblems({ 204: Type.Null() }, 409, 502) },
    }, async (request, reply) => {
      await payments.platformPlans.cancel(requireCaller(request), request.params.api);
      return reply.status(204).send(null);
    });

    app.post('/apis/:api/plan/resume', {
      schema: { tags, summary: 'Keep the platform plan: undo a cancellation before the period ends (owner)', params, response: withProblems({ 204: Type.Null() }, 409, 502) },
    }, async (request, reply) => {
      await payments.platformPlans.resume(requireCaller(request), request.params.api);
      return reply.status(204).send(null);
    });
  };
}
