import type { FastifyRequest } from 'fastify';

/**
 * Request log lines carry the route pattern, never the raw URL: paths such as /invites/{token} and
 * query strings can hold secrets. Headers are not logged at all.
 */
export const logSerializers = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      route: request.routeOptions?.url ?? 'unmatched',
      host: request.host,
      remoteAddress: request.ip,
    };
  },
};

export const logRedact = ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'];
