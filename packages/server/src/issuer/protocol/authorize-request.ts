// The checks of an authorization request (spec 4.2), each a small step. The first two decide
// whether we may redirect at all: until client and redirect URI are known good, errors are pages.
import type { Clock } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto.js';
import type { Db } from '../../platform/db/database.js';
import { isConnectedApp, type ClientDirectory } from '../connected-apps/client-directory.js';
import { findServerByResource, permissionNames, serverPermissions } from '../registry/lookups.js';
import { isRefusedScheme } from '../registry/redirect-uris.js';
import type { Tenant } from '../tenant.js';
import type { AuthorizationRequest, Prompt } from '../tokens/authorization-request.js';
import { takePushedAuthorization } from '../tokens/queries.js';
import type { AppRow } from './client-auth.js';
import { Params } from './form-params.js';
import { OAuthError } from './oauth-error.js';
import { requestedScopes } from './scopes.js';

/** An error shown as a page, never redirected (spec 4.2 rule 2). */
export class AuthorizePageError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Exact match with a registered redirect URI (OAuth 2.1 4.1.1). For native apps a loopback URI
 * may differ in port only, since the app listens on whatever port it gets (RFC 8252 7.3).
 */
export function redirectUriMatches(app: Pick<AppRow, 'kind' | 'redirect_uris'>, uri: string): boolean {
  if (app.redirect_uris.includes(uri)) return true;
  if (app.kind !== 'native') return false;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !LOOPBACK_HOSTS.has(asked.hostname)) return false;
  return app.redirect_uris.some((registered) => {
    try {
      const known = new URL(registered);
      known.port = asked.port;
      return known.protocol === 'http:' && LOOPBACK_HOSTS.has(known.hostname) && known.href === asked.href;
    } catch {
      return false;
    }
  });
}

/**
 * The app the request names: an id we gave out or a metadata document URL (spec 4.3), whose
 * fetch failure or bad document is an error page like an unknown client (spec 4.2 rule 2).
 */
export async function checkClient(clients: ClientDirectory, tenant: Tenant, params: Params, clientIp: string): Promise<AppRow> {
  const clientId = params.get('client_id');
  if (clientId === undefined) throw new AuthorizePageError('The request names no client_id.');
  if (params.faulty('client_id')) throw new AuthorizePageError('client_id is repeated or malformed.');
  const found = await clients.find(tenant, clientId, clientIp);
  if (found.found) return found.app;
  if (found.reason === 'unknown') throw new AuthorizePageError('The app that sent you here is not known to this sign-in service.');
  throw new AuthorizePageError(found.reason, found.retryAfterS !== undefined ? 429 : 400);
}

export function checkRedirectUri(app: AppRow, params: Params): string {
  const uri = params.get('redirect_uri');
  if (uri === undefined) throw new AuthorizePageError('The request names no redirect_uri.');
  if (params.faulty('redirect_uri')) throw new AuthorizePageError('redirect_uri is repeated or malformed.');
  if (!redirectUriMatches(app, uri)) throw new AuthorizePageError('The redirect_uri is not registered for this app.');
  // Apps stored before a scheme joined the refused list are held to it too.
  if (isRefusedScheme(new URL(uri).protocol.slice(0, -1))) throw new AuthorizePageError('The redirect_uri uses a scheme this sign-in service never sends people to.');
  return uri;
}

/** RFC 9126 4: with request_uri, the pushed parameters are the request; anything else is ignored. */
export async function pushedParams(db: Db, clock: Clock, apiId: string, params: Params): Promise<Params> {
  const requestUri = params.get('request_uri');
  if (requestUri === undefined) return params;
  if (params.faulty('request_uri')) throw new AuthorizePageError('request_uri is repeated or malformed.');
  const clientId = params.get('client_id');
  if (clientId === undefined) throw new AuthorizePageError('The request names no client_id.');
  const pushed = await takePushedAuthorization(db, apiId, sha256Hex(requestUri), clientId, clock.now());
  if (!pushed) throw new AuthorizePageError('The pushed authorization request is unknown, used or expired. Start again from the app.');
  return new Params(Object.entries(pushed.params));
}

/** RFC 7636 4.1/4.2: 43 to 128 characters of the unreserved set. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function checkPkce(params: Params): string {
  const challenge = params.get('code_challenge');
  const method = params.get('code_challenge_method');
  if (challenge === undefined) throw new OAuthError('invalid_request', 'code_challenge is required (PKCE)');
  if (method === undefined) throw new OAuthError('invalid_request', 'code_challenge_method is required (PKCE)');
  if (method !== 'S256') throw new OAuthError('invalid_request', 'code_challenge_method must be S256');
  if (!PKCE_VALUE.test(challenge)) throw new OAuthError('invalid_request', 'code_challenge is malformed');
  return challenge;
}

export function checkResponseMode(params: Params): 'query' | 'form_post' {
  const mode = params.get('response_mode') ?? 'query';
  if (mode !== 'query' && mode !== 'form_post') throw new OAuthError('invalid_request', 'response_mode must be query or form_post');
  return mode;
}

export function checkPrompt(params: Params): Prompt[] {
  const raw = params.get('prompt');
  if (raw === undefined) return [];
  const values = [...new Set(raw.split(' ').filter(Boolean))];
  for (const value of values) {
    if (!['none', 'login', 'consent', 'create'].includes(value)) throw new OAuthError('invalid_request', `Unsupported prompt ${value.slice(0, 40)}`);
  }
  // OIDC Core 3.1.2.1: none with any other value is an error. Except create: spec 4.2 rule 5 answers
  // prompt=create with none as well by login_required (decide), so the combination is a request.
  if (values.includes('none') && values.some((value) => value !== 'none' && value !== 'create')) {
    throw new OAuthError('invalid_request', 'prompt=none cannot be combined with login or consent');
  }
  return values as Prompt[];
}

export function checkMaxAge(params: Params): number | null {
  const raw = params.get('max_age');
  if (raw === undefined) return null;
  if (!/^\d{1,10}$/.test(raw)) throw new OAuthError('invalid_request', 'max_age must be a whole number of seconds');
  return Number(raw);
}

/** RFC 8707: exactly one absolute resource, which must be a server registered with this API. */
export async function checkResource(db: Db, apiId: string, params: Params) {
  const resources = params.all('resource');
  if (resources.length === 0) return null;
  if (resources.length > 1) throw new OAuthError('invalid_target', 'Name exactly one resource');
  const server = await findServerByResource(db, apiId, resources[0]!);
  if (!server) throw new OAuthError('invalid_target', 'The resource is not a server registered with this sign-in service');
  return server;
}

/** Every check after client and redirect URI; failures are redirected to the client (rule 1). */
export async function checkAuthorizationRequest(db: Db, apiId: string, app: AppRow, redirectUri: string, params: Params): Promise<AuthorizationRequest> {
  params.assertWellFormed();
  const responseType = params.get('response_type');
  if (responseType === undefined) throw new OAuthError('invalid_request', 'response_type is required');
  if (responseType !== 'code') throw new OAuthError('invalid_request', 'response_type must be code');
  if (params.has('request')) throw new OAuthError('invalid_request', 'Request objects are not supported; use PAR');
  const codeChallenge = checkPkce(params);
  const scope = params.get('scope');
  if (scope === undefined) throw new OAuthError('invalid_request', 'scope is required');
  const prompt = checkPrompt(params);
  const maxAge = checkMaxAge(params);
  const loginHint = params.get('login_hint') ?? null;
  if (loginHint !== null && loginHint.length > 254) throw new OAuthError('invalid_request', 'login_hint is too long');
  if (app.blocked) throw new OAuthError('unauthorized_client', 'The app is blocked');
  const server = await checkResource(db, apiId, params);
  const [known, exposed] = await Promise.all([permissionNames(db, apiId), server ? serverPermissions(db, apiId, server.id) : null]);
  const scopes = requestedScopes(scope, {
    appKind: app.kind,
    refreshTokens: app.refresh_tokens,
    ownApp: app.own_app,
    connected: isConnectedApp(app),
    serverPermissions: exposed ? new Set(exposed.map((permission) => permission.name)) : null,
    knownPermissions: new Set(known),
  });
  return {
    clientId: app.id,
    redirectUri,
    responseMode: checkResponseMode(params),
    state: params.get('state') ?? null,
    nonce: params.get('nonce') ?? null,
    codeChallenge,
    scopes,
    resource: server?.resource_url ?? null,
    prompt,
    maxAge,
    loginHint,
    ...(app.origin === 'portal' ? { firstParty: true } : {}),
    ...(isConnectedApp(app) ? { connected: true } : {}),
  };
}
