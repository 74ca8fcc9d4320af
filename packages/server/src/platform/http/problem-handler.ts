import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errorCatalog, isSecretLocation, Problem, type ErrorCode, type ErrorDetail } from '../errors.js';
import { InputRefused } from './validation.js';

type ErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;

/** The last guard on echoes: whoever built the detail, a secret's value never leaves in a 422. */
const withoutSecretValues = (errors: ErrorDetail[]) => errors.map((detail) => (detail.value !== undefined && isSecretLocation(detail.location ?? '') ? { location: detail.location, ...(detail.message ? { message: detail.message } : {}) } : detail));

function sendProblem(reply: FastifyReply, request: FastifyRequest, problem: Problem) {
  const body = {
    // A URN per error kind, so clients can branch on `type` rather than on prose (RFC 9457 3.1.1).
    type: `urn:gatehouse:problem:${problem.code}`,
    title: problem.title,
    status: problem.status,
    ...(problem.detail && problem.detail !== problem.title ? { detail: problem.detail } : {}),
    instance: request.url.split('?')[0],
    ...(problem.errors ? { errors: withoutSecretValues(problem.errors) } : {}),
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
  GH_JSON_TOO_DEEP: 'malformed_json',
  GH_BODY_NOT_UTF8: 'malformed_json',
  GH_BODY_CHARSET: 'unsupported_media_type',
  GH_BODY_ENCODING: 'unsupported_media_type',
  FST_ERR_BAD_URL: 'bad_request',
  FST_ERR_MAX_PARAM_LENGTH: 'not_found',
};

/** Every console error leaves as application/problem+json with the spec's ErrorModel (not-found: app.ts, per face). */
export function installProblemHandler(app: FastifyInstance, otherFace?: { applies(request: FastifyRequest): boolean; handler: ErrorHandler }) {
  app.setErrorHandler((error: FastifyError | Problem, request, reply) => {
    // An error before any face's own handler is set (the body parser of an unknown path) is
    // answered in that face's shape.
    if (otherFace?.applies(request)) return otherFace.handler(error as FastifyError, request, reply);
    if (error instanceof Problem) return sendProblem(reply, request, error);
    // Every schema goes through our validator compiler, which answers InputRefused, capped.
    if (error instanceof InputRefused) return sendProblem(reply, request, new Problem('validation', error.message, error.details));
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
}

export { sendProblem };
