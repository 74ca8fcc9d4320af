import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCatalog, Problem, type ErrorCode } from '../errors.js';
import { toErrorDetails } from './validation.js';

function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: Problem) {
  const body = {
    // A URN per error kind, so clients can branch on `type` rather than on prose (RFC 9457 3.1.1).
    type: `urn:gatehouse:problem:${problem.code}`,
    title: problem.title,
    status: problem.status,
    ...(problem.detail && problem.detail !== problem.title ? { detail: problem.detail } : {}),
    instance: request.url.split('?')[0],
    ...(problem.errors ? { errors: problem.errors } : {}),
  };
  return reply.status(problem.status).headers(problem.headers).type('application/problem+json').send(body);
}

// Fastify's own errors that are the client's fault, mapped onto the catalog.
const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'bad_request',
};

/** Every console error leaves as application/problem+json with the spec's ErrorModel. */
export function installProblemHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | Problem, request, reply) => {
    if (error instanceof Problem) return sendProblem(reply, request, error);
    if (error.validation) {
      const errors = toErrorDetails(error.validation as never, error.validationContext ?? 'body');
      return sendProblem(reply, request, new Problem('validation', errors.map((e) => `${e.location} ${e.message}`).join('; '), errors));
    }
    const mapped = error.code ? fastifyCodes[error.code] : undefined;
    if (mapped) return sendProblem(reply, request, new Problem(mapped, error.message));
    if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON/i.test(error.message))) {
      return sendProblem(reply, request, new Problem('malformed_json'));
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendProblem(reply, request, Object.assign(new Problem('bad_request', error.message), { status: error.statusCode }));
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, request, new Problem('internal', errorCatalog.internal.title));
  });
  app.setNotFoundHandler((request, reply) => sendProblem(reply, request, new Problem('not_found')));
}

export { sendProblem };
