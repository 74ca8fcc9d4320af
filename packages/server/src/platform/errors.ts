// One catalog of console errors: a stable code, an HTTP status and a title (problem+json, RFC 9457).
export const errorCatalog = {
  bad_request: { status: 400, title: 'Bad request' },
  malformed_json: { status: 400, title: 'The body is not valid JSON' },
  unexpected_body: { status: 400, title: 'This operation takes no request body' },
  not_signed_in: { status: 401, title: 'Sign-in required' },
  invalid_credentials: { status: 401, title: 'Wrong e-mail or password' },
  invalid_code: { status: 401, title: 'Wrong or expired code' },
  invalid_ticket: { status: 401, title: 'The ticket is unknown, used or expired' },
  invalid_challenge: { status: 401, title: 'The two-factor challenge is unknown, used or expired' },
  invalid_two_factor_code: { status: 401, title: 'Wrong authenticator or recovery code' },
  wrong_password: { status: 403, title: 'The current password is wrong' },
  csrf: { status: 403, title: 'Cross-site request refused' },
  forbidden: { status: 403, title: 'Your role does not allow this' },
  session_required: { status: 403, title: 'This needs a person signed in, not a workspace key' },
  not_found: { status: 404, title: 'Not found' },
  invite_not_found: { status: 404, title: 'The invitation is unknown, used, revoked or expired' },
  email_taken: { status: 409, title: 'An account with this e-mail already exists' },
  already_member: { status: 409, title: 'That person is already a member' },
  last_owner: { status: 409, title: 'A workspace keeps at least one owner' },
  two_factor_already_on: { status: 409, title: 'Two-factor is already on' },
  two_factor_not_on: { status: 409, title: 'Two-factor is not on' },
  two_factor_not_set_up: { status: 409, title: 'Start two-factor setup first' },
  invite_account_mismatch: { status: 409, title: 'Sign in as the invited address to accept' },
  slug_taken: { status: 409, title: 'That slug is taken' },
  customer_state: { status: 409, title: 'The customer is not in a state that allows this' },
  plan_in_use: { status: 409, title: 'The plan has subscribers' },
  no_client_secret: { status: 409, title: 'This app has no client secret' },
  resource_taken: { status: 409, title: 'A server with this resource URL exists' },
  role_name_taken: { status: 409, title: 'A role with this name exists' },
  balance_out_of_range: { status: 409, title: 'The balance would pass the bound of every amount' },
  domain_taken: { status: 409, title: 'Another API serves this domain' },
  domain_not_set: { status: 409, title: 'No custom domain is set' },
  workspace_limit: { status: 409, title: 'You own as many workspaces as an account may' },
  customer_key_limit: { status: 409, title: 'The customer has as many working keys as it may make here' },
  webhook_limit: { status: 409, title: 'The API has as many webhook endpoints as it may' },
  plan_limit: { status: 402, title: 'Your platform plan allows no more of these' },
  payments_not_configured: { status: 409, title: 'Payments are not set up on this service' },
  payments_not_ready: { status: 409, title: 'This API cannot take payments yet' },
  payment_state: { status: 409, title: 'The payment state does not allow this' },
  subscription_managed: { status: 409, title: "The customer's plan follows a subscription at the payments provider" },
  customer_email_taken: { status: 409, title: 'Another customer of this API has this e-mail address' },
  provider_error: { status: 502, title: 'The payments provider did not answer as expected' },
  unsupported_media_type: { status: 415, title: 'Send application/json' },
  payload_too_large: { status: 413, title: 'The body is too large' },
  validation: { status: 422, title: 'Validation failed' },
  rate_limited: { status: 429, title: 'Too many requests' },
  // SDKs act on it by reading the snapshot again (GET /sdk/v1/changes, issue 27).
  cursor_expired: { status: 410, title: 'The cursor is older than the changes kept; read the snapshot again' },
  internal: { status: 500, title: 'Internal error' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ErrorCode = keyof typeof errorCatalog;

export interface ErrorDetail {
  location?: string;
  message?: string;
  value?: unknown;
}

/** Thrown at the HTTP edge; the error handler writes it as application/problem+json. */
export class Problem extends Error {
  readonly status: number;
  readonly title: string;
  readonly detail?: string;
  readonly errors?: ErrorDetail[];
  constructor(
    readonly code: ErrorCode,
    detail?: string,
    errors?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    const capped = capProblem(detail, errors);
    super(capped.detail ?? errorCatalog[code].title);
    this.detail = capped.detail;
    this.errors = capped.errors;
    this.status = errorCatalog[code].status;
    this.title = errorCatalog[code].title;
  }
}

/** A problem names at most this many fields in `errors`; the rest are counted in `detail`. */
export const MAX_PROBLEM_ERRORS = 20;
/**
 * Texts are cut: a detail at 4,000 characters (room for 20 entries' locations and messages), a
 * location or a message at 300, an echoed value at 100. The largest problem is then about 20 KB.
 */
const MAX_DETAIL = 4000;
const MAX_ENTRY_TEXT = 300;
const MAX_ECHOED_VALUE = 100;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max).toWellFormed()}…` : text);
const listed = (errors: ErrorDetail[]) => errors.map((e) => `${e.location} ${e.message}`).join('; ');

/** A value small enough to echo: strings cut, arrays and objects only when their JSON is small. */
function echoable(value: unknown): unknown {
  if (typeof value === 'string') return cut(value, MAX_ECHOED_VALUE);
  if (value === null || typeof value !== 'object') return value;
  const json = JSON.stringify(value);
  return json === undefined || json.length > MAX_ECHOED_VALUE ? undefined : value;
}

/**
 * Every problem body stays small whoever built it (docs/decisions.md, "Hardening round two: console
 * and portal"): at most MAX_PROBLEM_ERRORS entries, each text cut and each value echoed only when
 * small, and a detail that listed every entry (`location message; …`, as services build it) lists
 * the kept ones and counts the rest. A role with 500 unknown permissions answered 105 KB.
 */
function capProblem(detail: string | undefined, errors: ErrorDetail[] | undefined): { detail?: string; errors?: ErrorDetail[] } {
  const kept = errors?.slice(0, MAX_PROBLEM_ERRORS).map((entry) => {
    const value = entry.value === undefined ? undefined : echoable(entry.value);
    return {
      ...(entry.location === undefined ? {} : { location: cut(entry.location, MAX_ENTRY_TEXT) }),
      ...(entry.message === undefined ? {} : { message: cut(entry.message, MAX_ENTRY_TEXT) }),
      ...(value === undefined ? {} : { value }),
    };
  });
  const unlisted = (errors?.length ?? 0) - (kept?.length ?? 0);
  let text = detail;
  if (text !== undefined && unlisted > 0 && kept && text === listed(errors!)) text = `${listed(kept)}; and ${unlisted} more`;
  if (text !== undefined && text.length > MAX_DETAIL) {
    // The count of what is not listed survives the cut.
    const tail = /; and \d+ more$/.exec(text)?.[0] ?? '';
    text = cut(text.slice(0, text.length - tail.length), MAX_DETAIL - tail.length) + tail;
  }
  return { ...(text === undefined ? {} : { detail: text }), ...(kept ? { errors: kept } : {}) };
}

/** Expected outcomes of a service call are values, not exceptions. */
export type Result<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; detail?: string; errors?: ErrorDetail[] };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const fail = <T = never>(code: ErrorCode, detail?: string, errors?: ErrorDetail[]): Result<T> =>
  ({ ok: false, code, ...(detail ? { detail } : {}), ...(errors ? { errors } : {}) });

/** Turns a service result into its value, or the problem the route answers. */
export function unwrap<T>(result: Result<T>): T {
  if (result.ok) return result.value;
  throw new Problem(result.code, result.detail, result.errors);
}

/**
 * Fields whose values are never echoed in a 422 (passwords, secrets, keys, codes, tokens, tickets):
 * a problem body lands in logs, screenshots and support tickets. Matched on the words of any
 * segment of the location, so `body.current_password` and `body.client_secret` are covered.
 */
const SECRET_WORDS = /(^|_)(password|passphrase|secret|key|token|ticket|challenge|code|otp)(_|$)/i;
export const isSecretLocation = (location: string) => location.split('.').some((segment) => SECRET_WORDS.test(segment));

export function validationProblem(location: string, message: string, value?: unknown): Problem {
  const shown = isSecretLocation(location) ? undefined : value;
  return new Problem('validation', message, [{ location, message, ...(shown === undefined ? {} : { value: shown }) }]);
}
