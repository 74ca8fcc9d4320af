import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from '@sinclair/typebox';
import { Problem, unwrap } from '../platform/errors.js';
import { sendLogo, type LogoCache } from '../platform/outbound/logo-cache.js';
import { withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import { WorkspaceParams } from '../workspaces/schemas.js';
import * as s from './schemas.js';
import type { ApiService } from './service.js';

export function apiRoutes(apis: ApiService, logos: LogoCache): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['apis'];
    const params = s.ApiParams;

    app.get('/workspaces/:ws/apis', {
      schema: { tags, summary: "The workspace's APIs", params: WorkspaceParams, response: withProblems({ 200: Type.Object({ apis: Type.Array(s.ApiSummary) }) }) },
    }, async (request) => ({ apis: await apis.listSummaries(requireCaller(request), request.params.ws) }));

    app.post('/workspaces/:ws/apis', {
      schema: { tags, summary: 'Register an API (editor); answers the SDK secret', params: WorkspaceParams, body: s.CreateAPIInBody, response: withProblems({ 200: s.CreatedAPIBody }, 409) },
    }, async (request) => unwrap(await apis.create(requireCaller(request), request.params.ws, request.body)));

    app.get('/slugs/:slug', {
      schema: { tags, summary: 'Whether a slug is free, and why not', params: Type.Object({ slug: Type.String({ maxLength: 100 }) }), response: withProblems({ 200: s.SlugBody }) },
    }, async (request) => {
      requireCaller(request);
      return apis.checkSlug(request.params.slug);
    });

    app.get('/platform/plans', {
      schema: { tags, summary: 'Plans of the platform an API can be on', response: withProblems({ 200: Type.Object({ plans: Type.Array(s.PlatformPlanOut) }) }) },
    }, async (request) => {
      requireCaller(request);
      return { plans: apis.platformPlans.list.map((plan) => apis.platformPlanOut(plan)) };
    });

    app.get('/apis/:api', {
      schema: { tags, summary: 'An API and its settings', params, response: withProblems({ 200: s.ApiOut }) },
    }, async (request) => apis.get(requireCaller(request), request.params.api));

    app.patch('/apis/:api', {
      schema: { tags, summary: 'Change settings (editor)', params, body: s.UpdateAPIInBody, response: withProblems({ 200: s.ApiOut }) },
    }, async (request) => apis.update(requireCaller(request), request.params.api, request.body));

    app.delete('/apis/:api', {
      schema: { tags, summary: 'Delete an API with its customers and ledger (owner)', description: 'Cancels the platform subscription and every customer subscription at the payments provider at once (no further invoice), then deletes. A failure at the provider answers 502 naming the subscription, and nothing is deleted.', params, response: withProblems({ 204: Type.Null() }, 502) },
    }, async (request, reply) => {
      await apis.remove(requireCaller(request), request.params.api);
      return reply.status(204).send(null);
    });

    app.get('/apis/:api/secret', {
      schema: { tags, summary: 'Reveal the SDK secret (admin)', params, response: withProblems({ 200: s.SecretBody }) },
    }, async (request) => ({ secret: await apis.revealSecret(requireCaller(request), request.params.api) }));

    app.post('/apis/:api/secret/rotate', {
      schema: { tags, summary: 'Rotate the SDK secret (admin); the old one works grace_hours more', params, body: s.RotateInBody, response: withProblems({ 200: s.SecretBody }) },
    }, async (request) => ({ secret: await apis.rotateSecret(requireCaller(request), request.params.api, request.body.grace_hours) }));

    app.put('/apis/:api/logo', {
      schema: { tags, summary: 'Set the logo (https address), or remove it (null)', params, body: s.LogoBody, response: withProblems({ 200: s.ApiOut }) },
    }, async (request) => apis.setLogo(requireCaller(request), request.params.api, request.body.logo_url));

    // The console's CSP keeps other hosts' images out (img-src 'self'): the logo comes through here,
    // fetched by the same guarded cache as the portal's. `v` only tells the browser's cache apart.
    app.get('/apis/:api/logo', {
      schema: {
        tags, summary: 'The logo as an image, fetched from its address and served from the console host', params, querystring: s.LogoQuery,
        response: withProblems({ 200: { description: 'a raster image: PNG, JPEG, GIF, WebP or icon', content: { 'image/*': { schema: Type.String({ format: 'binary' }) } } } as unknown as TSchema }),
      },
    }, async (request, reply) => {
      const address = await apis.logoAddress(requireCaller(request), request.params.api);
      const logo = address ? await logos.get(request.params.api, address) : ({ ok: false } as const);
      if (!logo.ok) throw new Problem('not_found', address ? 'The logo could not be fetched from its address' : 'This API has no logo');
      return sendLogo(reply, logo, 'private, max-age=3600');
    });

    app.post('/apis/:api/suspend', {
      schema: { tags, summary: 'Suspend the API: every customer is refused until it resumes (admin)', params, body: s.SuspendInBody, response: withProblems({ 200: s.ApiOut }) },
    }, async (request) => apis.setStatus(requireCaller(request), request.params.api, 'suspended', request.body.reason ?? null));

    app.post('/apis/:api/resume', {
      schema: { tags, summary: 'Resume a suspended API (admin)', params, response: withProblems({ 200: s.ApiOut }) },
    }, async (request) => apis.setStatus(requireCaller(request), request.params.api, 'active', null));
  };
}
