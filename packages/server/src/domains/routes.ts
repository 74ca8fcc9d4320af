import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiParams } from '../apis/schemas.js';
import { withProblems } from '../console/common-schemas.js';
import { requireCaller } from '../console/http.js';
import { unwrap } from '../platform/errors.js';
import { DomainInBody, DomainOut } from './schemas.js';
import type { DomainService } from './service.js';

/** The console's custom domain routes (DESIGN 6; spec 2.1 DomainInBody, DomainOut). */
export function domainRoutes(domains: DomainService): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['domains'];
    const params = ApiParams;

    app.get('/apis/:api/domain', {
      schema: { tags, summary: "The API's custom domain, its state and the DNS records that prove it", params, response: withProblems({ 200: DomainOut }) },
    }, async (request) => domains.get(requireCaller(request), request.params.api));

    app.put('/apis/:api/domain', {
      schema: {
        tags,
        summary: 'Set the custom domain (admin); it is pending until its DNS records are checked',
        description: 'Add a CNAME record from the domain to `cname_target` and a TXT record at `txt_name` holding `txt_value`, then check. 402 when the platform plan has no custom domains; 409 when another API serves the domain.',
        params,
        body: DomainInBody,
        response: withProblems({ 200: DomainOut }, 402, 409),
      },
    }, async (request) => unwrap(await domains.set(requireCaller(request), request.params.api, request.body.domain)));

    app.post('/apis/:api/domain/check', {
      schema: {
        tags,
        summary: 'Check the DNS records now (admin)',
        description: 'Pending becomes verified when the TXT record proves ownership and the CNAME points at the target, then active when a certificate can be issued. `error` names the record that is missing or wrong.',
        params,
        response: withProblems({ 200: DomainOut }, 402, 409),
      },
    }, async (request) => unwrap(await domains.check(requireCaller(request), request.params.api)));

    app.delete('/apis/:api/domain', {
      schema: { tags, summary: 'Remove the custom domain (admin): back to `none`, served no more', params, response: withProblems({ 200: DomainOut }) },
    }, async (request) => domains.remove(requireCaller(request), request.params.api));
  };
}
