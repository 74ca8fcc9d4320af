import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { unwrap } from '../platform/errors.js';
import { ApiParams } from '../apis/schemas.js';
import { DEFAULT_PAGE_SIZE, SentBody, withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import * as s from './schemas.js';
import type { CustomerInvitations } from './invitations.js';
import type { CustomerService } from './service.js';

export function customerRoutes(customers: CustomerService, invitations: CustomerInvitations): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['customers'];

    app.get('/apis/:api/customers', {
      schema: { tags, summary: 'Customers, newest first, with a cursor', params: ApiParams, querystring: s.CustomersQuery, response: withProblems({ 200: s.CustomersBody }) },
    }, async (request) => customers.list(requireCaller(request), request.params.api, { ...request.query, limit: request.query.limit ?? DEFAULT_PAGE_SIZE }));

    app.post('/apis/:api/customers', {
      schema: { tags, summary: 'Add a customer by hand (editor)', description: 'An address another customer of the API has (not archived; compared case-insensitively) answers 409.', params: ApiParams, body: s.NewCustomerInBody, response: withProblems({ 200: s.CustomerDetail }, 402, 409) },
    }, async (request) => unwrap(await customers.create(requireCaller(request), request.params.api, request.body)));

    app.post('/apis/:api/customers/invite', {
      schema: { tags, summary: 'Invite someone to become a customer (editor)', description: 'The mail links to the portal; signing up with the address makes them a customer, whatever the signup mode.', params: ApiParams, body: s.InviteCustomerInBody, response: withProblems({ 200: SentBody }, 429) },
    }, async (request) => invitations.invite(requireCaller(request), request.params.api, request.body.email));

    app.get('/apis/:api/customers/invites', {
      schema: { tags, summary: 'Open invitations to become a customer, newest first', params: ApiParams, response: withProblems({ 200: s.CustomerInvitesBody }) },
    }, async (request) => invitations.list(requireCaller(request), request.params.api));

    app.post('/apis/:api/customers/invites/:invite/resend', {
      schema: { tags, summary: 'Send an invitation again with a new link, good for 7 more days (editor)', params: s.InviteParams, response: withProblems({ 200: SentBody }, 429) },
    }, async (request) => invitations.resend(requireCaller(request), request.params.api, request.params.invite));

    app.delete('/apis/:api/customers/invites/:invite', {
      schema: { tags, summary: 'Revoke an invitation; its link stops working (editor)', params: s.InviteParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await invitations.revoke(requireCaller(request), request.params.api, request.params.invite);
      return reply.status(204).send(null);
    });

    app.get('/apis/:api/customers/:id', {
      schema: { tags, summary: 'A customer with effective limits, keys and members', params: s.CustomerParams, response: withProblems({ 200: s.CustomerDetail }) },
    }, async (request) => customers.get(requireCaller(request), request.params.api, request.params.id));

    app.delete('/apis/:api/customers/:id', {
      schema: {
        tags,
        summary: 'Remove a customer (editor)',
        description: 'A customer with nothing on record but its creation (no ledger entry beyond its welcome credit, no usage, no key ever issued, nothing with the payments provider) is deleted (204). Any other is archived (200 with the customer, archived_at set): hidden from lists, the portal and the SDK snapshot, its keys revoked, its ledger and usage kept.',
        params: s.CustomerParams,
        response: withProblems({ 200: s.CustomerDetail, 204: Type.Null() }, 409),
      },
    }, async (request, reply) => {
      const outcome = await customers.remove(requireCaller(request), request.params.api, request.params.id);
      return outcome.deleted ? reply.status(204).send(null) : outcome.customer;
    });

    app.patch('/apis/:api/customers/:id', {
      schema: { tags, summary: 'Approve, suspend, reactivate; notes; assign a plan by hand (editor)', params: s.CustomerParams, body: s.UpdateCustomerInBody, response: withProblems({ 200: s.CustomerDetail }, 409) },
    }, async (request) => customers.update(requireCaller(request), request.params.api, request.params.id, request.body));

    app.put('/apis/:api/customers/:id/limits', {
      schema: { tags, summary: 'Set custom limits (editor)', params: s.CustomerParams, body: s.LimitsBody, response: withProblems({ 200: s.CustomerDetail }, 409) },
    }, async (request) => customers.setLimits(requireCaller(request), request.params.api, request.params.id, request.body));

    app.post('/apis/:api/customers/:id/keys', {
      schema: { tags, summary: 'Make a key for a customer (editor); shown once', params: s.CustomerParams, body: s.NewKeyInBody, response: withProblems({ 200: s.NewCustomerKey }, 409) },
    }, async (request) => customers.createKey(requireCaller(request), request.params.api, request.params.id, request.body.name));

    app.delete('/apis/:api/customers/:id/keys/:key_id', {
      schema: { tags, summary: "Revoke a customer's key (editor)", params: s.KeyParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await customers.revokeKey(requireCaller(request), request.params.api, request.params.id, request.params.key_id);
      return reply.status(204).send(null);
    });

    app.post('/apis/:api/test-key', {
      schema: { tags, summary: 'A new key of the funded test customer (editor)', params: ApiParams, response: withProblems({ 200: s.TestKeyBody }) },
    }, async (request) => customers.testKey(requireCaller(request), request.params.api));
  };
}
