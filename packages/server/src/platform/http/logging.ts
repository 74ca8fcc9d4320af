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

/**
 * Where log lines go: standard output as JSON, or through pino-pretty for a person at a terminal
 * (loaded only then: a server in production never needs it).
 */
export async function logDestination(format: 'json' | 'pretty'): Promise<NodeJS.WritableStream | undefined> {
  if (format === 'json') return undefined;
  const { default: pretty } = await import('pino-pretty');
  return pretty({ colorize: Boolean(process.stdout.isTTY), translateTime: 'HH:MM:ss', ignore: 'pid,hostname,reqId,req.remoteAddress,req.host', singleLine: true, sync: true });
}
