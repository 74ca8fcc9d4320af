import { createHash, randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { loopbackLookup } from '../signin/get-json.js';

/** An answer of the account API other than the one asked for (spec 7): its status, `error` and description. */
export class AccountKeysError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly description: string,
    /** 422: the field refused. */
    readonly field?: string,
  ) {
    super(`account API: ${status} ${error}${description ? `: ${description}` : ''}`);
  }
}

/**
 * 401 `insufficient_user_authentication` (spec 5.7): creating or rolling a key needs a sign-in
 * within the last `maxAge` seconds. Send the person to {@link reauthenticationUrl} with this
 * `maxAge`; they sign in again and come back to your callback with a code for a fresh token.
 */
export class ReauthenticationRequired extends AccountKeysError {
  constructor(
    description: string,
    readonly maxAge: number,
  ) {
    super(401, 'insufficient_user_authentication', description);
  }
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

function call(url: string, method: string, headers: Record<string, string>, body: string | undefined, timeoutMs: number, fetchFn?: typeof fetch): Promise<Raw> {
  if (fetchFn) {
    return fetchFn(url, { method, headers, body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) }).then(async (response) => ({
      status: response.status,
      headers: Object.fromEntries(response.headers),
      text: await response.text(),
    }));
  }
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) };
    const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, { method, headers: sent, lookup: loopbackLookup, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
    request.end(body);
  });
}

/** What a new key asks for (spec 4.5). */
export interface NewKey {
  name: string;
  /** Server URLs the key works at. */
  resources: string[];
  permissions: string[];
  /** Days until it expires; null for a key that never expires (when the options allow it). */
  expires_in_days?: number | null;
}

export interface AccountKeysOptions {
  /** Timeout of each call. @default 10_000 */
  timeoutMs?: number;
  /** For tests: how the issuer is called. @default node:http(s), resolving `*.localhost` to loopback */
  fetch?: typeof fetch;
}

// The item shapes are the server's (spec 4.5 leaves them open beyond id, name, secret and prefix).
type Json = any;

/**
 * The account API for end-user keys (spec 4.5), called from the owner's web app server with the
 * signed-in person's access token (scope `platform:api_keys`, requested without `resource`).
 * Every method resolves with the answer's JSON body, or rejects with {@link AccountKeysError};
 * create and roll reject with {@link ReauthenticationRequired} after a sign-in older than 10 minutes.
 * @example
 * const keys = accountKeys('https://weather.example.com', session.accessToken);
 * try {
 *   const { key, secret } = await keys.create({ name: 'laptop', resources: ['https://api.weather.example/'], permissions: ['read:weather'], expires_in_days: 90 });
 * } catch (error) {
 *   if (error instanceof ReauthenticationRequired) return res.redirect(reauthenticationUrl({ issuer, clientId, redirectUri, state, codeChallenge, maxAge: error.maxAge }));
 *   throw error;
 * }
 */
export function accountKeys(issuer: string, accessToken: string, options: AccountKeysOptions = {}) {
  const base = `${issuer.replace(/\/+$/, '')}/api/v1/me/api-keys`;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const send = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const headers: Record<string, string> = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const raw = await call(base + path, method, headers, body === undefined ? undefined : JSON.stringify(body), timeoutMs, options.fetch);
    let parsed: Json;
    try {
      parsed = raw.text ? JSON.parse(raw.text) : undefined;
    } catch {
      parsed = undefined;
    }
    if (raw.status >= 200 && raw.status < 300) return parsed;
    const error = typeof parsed?.error === 'string' ? parsed.error : `http_${raw.status}`;
    const description = typeof parsed?.error_description === 'string' ? parsed.error_description : '';
    if (raw.status === 401 && error === 'insufficient_user_authentication') {
      const challenge = String(raw.headers['www-authenticate'] ?? '');
      const maxAge = Number(/max_age="?(\d+)"?/.exec(challenge)?.[1] ?? 600);
      throw new ReauthenticationRequired(description, maxAge);
    }
    throw new AccountKeysError(raw.status, error, description, typeof parsed?.field === 'string' ? parsed.field : undefined);
  };
  const id = (key: string) => `/${encodeURIComponent(key)}`;
  return {
    /** Servers and permissions the person can put on a key, the longest lifetime, `allow_no_expiry`. */
    options: (): Promise<Json> => send('GET', '/options'),
    /** The person's keys that are not revoked, newest first. */
    list: (): Promise<Json> => send('GET', ''),
    /** 201: `{ key, secret }`; the secret is shown this once. */
    create: (key: NewKey): Promise<{ key: Json; secret: string }> => send('POST', '', key),
    rename: (keyId: string, name: string): Promise<Json> => send('PATCH', id(keyId), { name }),
    /** A new secret; the old one ends within 30 s, or keeps working 1 or 24 hours. */
    roll: (keyId: string, oldSecretLastsHours: 0 | 1 | 24 = 0): Promise<{ key: Json; secret: string }> => send('POST', `${id(keyId)}/roll`, { old_secret_lasts_hours: oldSecretLastsHours }),
    revoke: (keyId: string): Promise<void> => send('DELETE', id(keyId)),
    revokeAll: (): Promise<void> => send('DELETE', ''),
  };
}

export type AccountKeys = ReturnType<typeof accountKeys>;

/** A PKCE pair (RFC 7636, S256): keep `verifier` in the person's session, send `challenge`. */
export function newPkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface ReauthenticationOptions {
  issuer: string;
  /** Your web app's client ID. */
  clientId: string;
  /** Your web app's callback, registered with the app; it exchanges the code as at sign-in. */
  redirectUri: string;
  /** Returned unchanged to the callback: tie it to the person's session (and to where to go back). */
  state: string;
  /** S256 challenge of a verifier kept in the session (see {@link newPkce}). */
  codeChallenge: string;
  /** Seconds: from {@link ReauthenticationRequired.maxAge}. @default 600 */
  maxAge?: number;
  /** @default 'openid platform:api_keys' */
  scope?: string;
  /** The person's e-mail, to pre-fill the sign-in form. */
  loginHint?: string;
}

/**
 * Where to send the browser so the person signs in again (`max_age`, spec 4.2) and comes back to
 * `redirectUri` with a code, which your callback exchanges for a fresh account API token; then
 * repeat the create or roll.
 */
export function reauthenticationUrl(options: ReauthenticationOptions): string {
  const url = new URL(`${options.issuer.replace(/\/+$/, '')}/oauth/authorize`);
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    scope: options.scope ?? 'openid platform:api_keys',
    state: options.state,
    code_challenge: options.codeChallenge,
    code_challenge_method: 'S256',
    max_age: String(options.maxAge ?? 600),
  };
  if (options.loginHint) params.login_hint = options.loginHint;
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}
