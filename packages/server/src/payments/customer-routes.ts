import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import { CustomerDetail, CustomerParams } from '../customers/schemas.js';
import type { CustomerSubscriptions } from './customer-subscriptions.js';
import * as s from './schemas.js';

/** Console routes of a customer's subscription and payments (issue 23 item 2). */
export function customerPaymentRoutes(subscriptions: CustomerSubscriptions): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['customers'];
    const params = CustomerParams;
    const answers = withProblems({ 200: CustomerDetail }, 409, 502);

    app.post('/apis/:api/customers/:id/subscription/switch', {
      schema: { tags, params, body: s.SubscriptionSwitchInBody, response: answers, summary: "Move a customer's subscription to another plan (editor)", description: "The provider's subscription is updated first (it prorates); the customer's plan follows its event." },
    }, async (request) => subscriptions.switchPlan(requireCaller(request), request.params.api, request.params.id, request.body.plan_id));

    app.post('/apis/:api/customers/:id/subscription/cancel', {
      schema: { tags, params, body: s.SubscriptionCancelInBody, response: answers, summary: "Cancel a customer's subscription at the end of its period or at once (editor)" },
    }, async (request) => subscriptions.cancel(requireCaller(request), request.params.api, request.params.id, request.body?.at_period_end ?? true));

    app.post('/apis/:api/customers/:id/subscription/resume', {
      schema: { tags, params, response: answers, summary: "Undo the cancellation of a customer's subscription before its period ends (editor)" },
    }, async (request) => subscriptions.resume(requireCaller(request), request.params.api, request.params.id));

    app.get('/apis/:api/customers/:id/payments', {
      schema: { tags, params, querystring: s.PaymentsQuery, response: withProblems({ 200: s.PaymentsBody }), summary: "A customer's receipts and paid invoices, newest first, with refunds and disputes" },
    }, async (request) => subscriptions.list(requireCaller(request), request.params.api, request.params.id, request.query.limit ?? 50));
  };
}
