import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendNoStore } from '../protocol/oauth-error.js';
import { RegistrationError, type Registration } from './registration.js';

/** Spec 4.3 and 8: a registration request is at most 16 KB (a larger one is refused by its length, unread). */
export const REGISTRATION_BODY_LIMIT = 16 * 1024;

/** POST /oauth/register (RFC 7591, spec 4.3): JSON in, JSON out, errors in OAuth's shape (RFC 7591 3.2.2). */
export function registrationRoutes(registration: Registration) {
  return async (app: FastifyInstance) => {
    app.post('/oauth/register', { bodyLimit: REGISTRATION_BODY_LIMIT }, async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        const contentType = String(request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        return sendNoStore(reply, await registration.register(request.tenant, { contentType, body: request.body, clientIp: request.ip }), 201);
      } catch (error) {
        if (!(error instanceof RegistrationError)) throw error;
        return reply
          .status(error.status)
          .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...error.headers })
          .type('application/json')
          .send({ error: error.error, error_description: error.description });
      }
    });
  };
}
