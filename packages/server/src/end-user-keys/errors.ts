import type { FastifyReply } from 'fastify';

/**
 * The account API's refusals (spec 7 "Account API for keys"), in OAuth's body shape
 * (`error`, `error_description`) like every other answer of the issuer, never problem+json.
 * A 422 also names the `field` that is not allowed.
 */
export type KeyErrorCode =
  | 'invalid_request'
  | 'invalid_token'
  | 'insufficient_scope'
  | 'insufficient_user_authentication'
  | 'access_denied'
  | 'not_found'
  | 'key_limit'
  | 'key_expired'
  | 'temporarily_unavailable';

export class KeyApiError extends Error {
  constructor(
    readonly error: KeyErrorCode,
    readonly description: string,
    readonly status: number,
    readonly headers: Record<string, string> = {},
    readonly field?: string,
  ) {
    super(`${error}: ${description}`);
  }
}

/** An expected refusal as a value (style.md), which the route answers. */
export type KeyOutcome<T> = { ok: true; value: T } | { ok: false; refusal: KeyApiError };

export const accepted = <T>(value: T): KeyOutcome<T> => ({ ok: true, value });
export const refused = <T = never>(refusal: KeyApiError): KeyOutcome<T> => ({ ok: false, refusal });

/** 422 naming the field whose value is not allowed (spec 7). */
export const fieldRefused = (field: string, description: string) => new KeyApiError('invalid_request', `${field} ${description}`, 422, {}, field);

export const tooManyRequests = (description: string, retryAfterS: number) => new KeyApiError('temporarily_unavailable', description, 429, { 'retry-after': String(retryAfterS) });

export const keyNotFound = () => new KeyApiError('not_found', 'No such key', 404);

/** Answers a refusal; account API answers are never cached (they carry keys' secrets). */
export function sendKeyError(reply: FastifyReply, error: KeyApiError) {
  return reply
    .status(error.status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache', ...error.headers })
    .type('application/json')
    .send({ error: error.error, error_description: error.description, ...(error.field !== undefined ? { field: error.field } : {}) });
}
