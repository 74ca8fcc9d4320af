// The logo on the sign-in and portal pages of a tenant host, at LOGO_PATH on that host.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendLogo, type LogoCache } from '../../platform/outbound/logo-cache.js';
import { LOGO_PATH } from '../../platform/pages/send-page.js';

export function logoRoutes(logos: LogoCache) {
  return async (app: FastifyInstance) => {
    app.get(LOGO_PATH, async (request: FastifyRequest, reply: FastifyReply) => {
      const url = request.tenant.api.logo_url;
      const logo = url ? await logos.get(request.tenant.api.id, url) : ({ ok: false } as const);
      if (!logo.ok) return reply.status(404).header('cache-control', 'public, max-age=300').send();
      return sendLogo(reply, logo, 'public, max-age=3600');
    });
  };
}
