import type { FastifyReply } from 'fastify';

/** The error codes of spec section 7 (OAuth's own `error` values), and nothing else. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'unauthorized_client'
  | 'access_denied'
  | 'login_required'
  | 'consent_required'
  | 'temporarily_unavailable'
  | 'invalid_token'
  | 'insufficient_scope';

/** An expected refusal of a protocol request, answered in OAuth's shape (never problem+json). */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }
}

/** Sends an OAuth error body (RFC 6749 5.2) that no cache keeps. */
export function sendOAuthError(reply: FastifyReply, error: OAuthError) {
  return reply
    .status(error.status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...error.headers })
    .type('application/json')
    .send({ error: error.error, error_description: error.description });
}

/** JSON answers of the token-like endpoints: never cached (RFC 6749 5.1). */
export function sendNoStore(reply: FastifyReply, body: unknown, status = 200) {
  return reply.status(status).headers({ 'cache-control': 'no-store', pragma: 'no-cache' }).type('application/json').send(body);
}
