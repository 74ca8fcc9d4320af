import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ApiParams } from '../apis/schemas.js';
import { DEFAULT_PAGE_SIZE, withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import * as s from './schemas.js';
import type { WebhookService } from './service.js';

export function webhookEndpointRoutes(webhooks: WebhookService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['webhooks'];

    app.get('/apis/:api/webhooks', {
      schema: { tags, summary: "The API's webhook endpoints", params: ApiParams, response: withProblems({ 200: s.WebhooksBody }) },
    }, async (request) => webhooks.list(requireCaller(request), request.params.api));

    app.post('/apis/:api/webhooks', {
      schema: {
        tags,
        summary: 'Add a webhook endpoint (editor); its secret is shown this once',
        description: 'Events are signed by the Standard Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature) with the endpoint secret, and retried at 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h until a 2xx answer.',
        params: ApiParams,
        body: s.NewWebhookInBody,
        response: withProblems({ 200: s.WebhookWithSecret }, 409),
      },
    }, async (request) => webhooks.create(requireCaller(request), request.params.api, request.body));

    app.get('/apis/:api/webhooks/:endpoint', {
      schema: { tags, summary: 'A webhook endpoint', params: s.WebhookParams, response: withProblems({ 200: s.WebhookOut }) },
    }, async (request) => webhooks.get(requireCaller(request), request.params.api, request.params.endpoint));

    app.patch('/apis/:api/webhooks/:endpoint', {
      schema: { tags, summary: 'Change, disable or enable a webhook endpoint (editor)', params: s.WebhookParams, body: s.UpdateWebhookInBody, response: withProblems({ 200: s.WebhookOut }) },
    }, async (request) => webhooks.update(requireCaller(request), request.params.api, request.params.endpoint, request.body));

    app.delete('/apis/:api/webhooks/:endpoint', {
      schema: { tags, summary: 'Remove a webhook endpoint and its deliveries (editor)', params: s.WebhookParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await webhooks.remove(requireCaller(request), request.params.api, request.params.endpoint);
      return reply.status(204).send(null);
    });

    app.post('/apis/:api/webhooks/:endpoint/test', {
      schema: { tags, summary: 'Send a webhook.test event to this endpoint (editor)', params: s.WebhookParams, response: withProblems({ 200: s.DeliveryOut }) },
    }, async (request) => webhooks.sendTest(requireCaller(request), request.params.api, request.params.endpoint));

    app.post('/apis/:api/webhooks/:endpoint/rotate-secret', {
      schema: { tags, summary: 'A new secret, shown this once; the old one keeps signing for 24 hours (editor)', params: s.WebhookParams, response: withProblems({ 200: s.WebhookWithSecret }) },
    }, async (request) => webhooks.rotateSecret(requireCaller(request), request.params.api, request.params.endpoint));

    app.get('/apis/:api/webhooks/:endpoint/deliveries', {
      schema: { tags, summary: "The endpoint's deliveries, newest first, with a cursor", params: s.WebhookParams, querystring: s.DeliveriesQuery, response: withProblems({ 200: s.DeliveriesBody }) },
    }, async (request) => webhooks.deliveries(requireCaller(request), request.params.api, request.params.endpoint, { ...request.query, limit: request.query.limit ?? DEFAULT_PAGE_SIZE }));

    app.post('/apis/:api/webhooks/:endpoint/deliveries/:delivery/retry', {
      schema: { tags, summary: "Send a delivery's event again now, as a new delivery (editor)", params: s.DeliveryParams, response: withProblems({ 200: s.DeliveryOut }) },
    }, async (request) => webhooks.retry(requireCaller(request), request.params.api, request.params.endpoint, request.params.delivery));

    app.post('/apis/:api/webhooks/:endpoint/replay', {
      schema: { tags, summary: 'Send every event since a time again to this endpoint (editor)', params: s.WebhookParams, body: s.ReplayInBody, response: withProblems({ 200: s.ReplayBody }) },
    }, async (request) => webhooks.replay(requireCaller(request), request.params.api, request.params.endpoint, new Date(request.body.since)));

    app.get('/apis/:api/events', {
      schema: {
        tags,
        summary: "The API's events of the last 30 days, oldest first",
        description: 'A receiver that was down catches up by asking with after = the last event id it holds, until has_more is false.',
        params: ApiParams,
        querystring: s.EventsQuery,
        response: withProblems({ 200: s.EventsBody }),
      },
    }, async (request) => webhooks.events(requireCaller(request), request.params.api, { ...request.query, limit: request.query.limit ?? DEFAULT_PAGE_SIZE }));
  };
}
