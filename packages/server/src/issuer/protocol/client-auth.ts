import type { FastifyRequest } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import { constantTimeEqual, sha256Hex } from '../../platform/crypto.js';
import { isConnectedApp, type ClientDirectory } from '../connected-apps/client-directory.js';
import type { Tenant } from '../tenant.js';
import type { OauthAppsTable, ResourceServersTable } from '../registry/tables.js';
import { MAX_PARAM_LENGTH, type Params } from './form-params.js';
import { textFault } from '../../platform/text.js';
import { OAuthError } from './oauth-error.js';
import type { CachedReads } from '../cached-reads.js';

type Selected<T> = { [K in keyof T]: T[K] extends import('kysely').ColumnType<infer S, unknown, unknown> ? S : T[K] };
export type AppRow = Selected<OauthAppsTable>;
export type ServerRow = Selected<ResourceServersTable>;

/** Who presented themselves at a client-authenticated endpoint. */
export type AuthenticatedClient = { kind: 'app'; app: AppRow; method: 'basic' | 'post' | 'none' } | { kind: 'server'; server: ServerRow; method: 'basic' | 'post' };

/** The credentials a request carries, before any lookup (RFC 6749 2.3.1). */
export interface PresentedCredentials {
  clientId: string;
  secret: string | null;
  method: 'basic' | 'post' | 'none';
}

function decodeBasicPart(part: string): string {
  // RFC 6749 2.3.1: client id and secret are form-urlencoded before base64.
  return decodeURIComponent(part.replace(/\+/g, '%20'));
}

/** Reads Basic or form credentials; more than one method in one request is refused (RFC 6749 2.3). */
export function presentedCredentials(request: FastifyRequest, params: Params): PresentedCredentials | null {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header.trim());
    if (!match) throw new OAuthError('invalid_client', 'The Authorization header is not HTTP Basic', 401, { 'www-authenticate': 'Basic' });
    const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('invalid_client', 'Malformed Basic credentials', 401, { 'www-authenticate': 'Basic' });
    if (params.has('client_secret')) throw new OAuthError('invalid_request', 'Use one client authentication method, not two');
    let clientId: string;
    let secret: string;
    try {
      clientId = decodeBasicPart(decoded.slice(0, colon));
      secret = decodeBasicPart(decoded.slice(colon + 1));
    } catch {
      throw new OAuthError('invalid_client', 'Malformed Basic credentials', 401, { 'www-authenticate': 'Basic' });
    }
    // The text rule of every input (platform/text.ts), and the same length bound as a form value.
    for (const [field, value] of [['client id', clientId], ['client secret', secret]] as const) {
      const fault = value.length > MAX_PARAM_LENGTH ? 'is too long' : textFault(value);
      if (fault) throw new OAuthError('invalid_client', `The Basic credentials' ${field} ${fault}`, 401, { 'www-authenticate': 'Basic' });
    }
    const formId = params.get('client_id');
    if (formId !== undefined && formId !== clientId) throw new OAuthError('invalid_request', 'client_id differs from the Basic credentials');
    return { clientId, secret, method: 'basic' };
  }
  const clientId = params.get('client_id');
  if (clientId === undefined) return null;
  const secret = params.get('client_secret') ?? null;
  return { clientId, secret, method: secret === null ? 'none' : 'post' };
}

/** Whether a presented secret opens this current or previous (within its grace) secret hash. */
export function secretMatches(
  secret: string,
  row: { secret_hash: string | null; previous_secret_hash: string | null; previous_secret_valid_until: Date | null },
  now: Date,
): boolean {
  const presented = sha256Hex(secret);
  const current = row.secret_hash !== null && constantTimeEqual(presented, row.secret_hash);
  const previous =
    row.previous_secret_hash !== null && row.previous_secret_valid_until !== null && row.previous_secret_valid_until > now && constantTimeEqual(presented, row.previous_secret_hash);
  return current || previous;
}

function invalidClient(method: PresentedCredentials['method'], description = 'Unknown client or wrong secret'): OAuthError {
  return new OAuthError('invalid_client', description, 401, method === 'basic' ? { 'www-authenticate': 'Basic realm="oauth"' } : {});
}

/**
 * A confidential client: the owner's web apps (and the portal's, whose codes nobody can spend at
 * the token endpoint since it has no secret). Apps people connect are public whatever their
 * application type: no secret is ever issued to them (spec 4.3, 5.4).
 */
export const isConfidential = (app: Pick<AppRow, 'kind' | 'origin'>) => app.kind === 'web' && !isConnectedApp(app);

/**
 * Authenticates an app at the token, PAR and revocation endpoints (spec 5.4): web apps by secret
 * (Basic or form), single-page, native and connected apps by client_id alone. A metadata document
 * that cannot be fetched or is invalid makes the client unknown: invalid_client (spec 4.3).
 */
export async function authenticateApp(clients: ClientDirectory, clock: Clock, tenant: Tenant, credentials: PresentedCredentials | null, clientIp: string): Promise<AuthenticatedClient & { kind: 'app' }> {
  if (!credentials) throw new OAuthError('invalid_client', 'Client authentication is required', 401);
  const found = await clients.find(tenant, credentials.clientId, clientIp);
  if (!found.found) {
    if (found.retryAfterS !== undefined) throw new OAuthError('temporarily_unavailable', found.reason, 429, { 'retry-after': String(found.retryAfterS) });
    throw invalidClient(credentials.method, found.reason === 'unknown' ? undefined : found.reason);
  }
  const app = found.app;
  if (isConfidential(app)) {
    if (credentials.secret === null || !secretMatches(credentials.secret, app, clock.now())) throw invalidClient(credentials.method);
  } else if (credentials.secret !== null) {
    // A public client has no secret; one that sends a secret is not the app it names.
    throw invalidClient(credentials.method, 'This app is public and has no secret');
  }
  if (app.blocked) throw new OAuthError('unauthorized_client', 'The app is blocked');
  return { kind: 'app', app, method: credentials.method as 'basic' | 'post' | 'none' };
}

/** Authenticates a caller of introspection: server credentials (rs_…) or a web app with its secret. */
export async function authenticateIntrospector(reads: CachedReads, clock: Clock, apiId: string, credentials: PresentedCredentials | null): Promise<AuthenticatedClient | null> {
  if (!credentials || credentials.secret === null) return null;
  const now = clock.now();
  if (credentials.clientId.startsWith('rs_')) {
    const server = await reads.server(apiId, credentials.clientId);
    if (!server || !secretMatches(credentials.secret, server, now)) return null;
    return { kind: 'server', server, method: credentials.method as 'basic' | 'post' };
  }
  const app = await reads.app(apiId, credentials.clientId);
  if (!app || !isConfidential(app) || !secretMatches(credentials.secret, app, now)) return null;
  return { kind: 'app', app, method: credentials.method };
}

export { invalidClient };
