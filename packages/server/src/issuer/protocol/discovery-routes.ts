import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/database.js';
import type { ClientDirectory } from '../connected-apps/client-directory.js';
import type { SigningKeys } from '../keys/signing-keys.js';
import { permissionNames } from '../registry/lookups.js';
import type { Tenant } from '../tenant.js';
import { STANDARD_SCOPES } from './scopes.js';

/** Claims the userinfo endpoint and ID tokens can carry (spec 4.3). */
const CLAIMS_SUPPORTED = ['sub', 'iss', 'aud', 'exp', 'iat', 'auth_time', 'nonce', 'amr', 'sid', 'at_hash', 'name', 'picture', 'updated_at', 'email', 'email_verified', 'roles', 'permissions'];

/** The discovery document (spec 4.1), the same at both well-known paths. */
export async function discoveryDocument(db: Db, tenant: Tenant, clients: ClientDirectory) {
  const issuer = tenant.issuer;
  const permissions = await permissionNames(db, tenant.api.id);
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    userinfo_endpoint: `${issuer}/oauth/userinfo`,
    jwks_uri: `${issuer}/oauth/jwks`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    introspection_endpoint: `${issuer}/oauth/introspect`,
    end_session_endpoint: `${issuer}/oauth/logout`,
    pushed_authorization_request_endpoint: `${issuer}/oauth/par`,
    // Standard scopes, then the owner's permissions; the reserved platform:api_keys is never listed.
    scopes_supported: [...STANDARD_SCOPES, ...permissions],
    response_types_supported: ['code'],
    response_modes_supported: ['query', 'form_post'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    introspection_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    prompt_values_supported: ['none', 'login', 'consent', 'create'],
    authorization_response_iss_parameter_supported: true,
    claims_supported: CLAIMS_SUPPORTED,
    request_parameter_supported: false,
    request_uri_parameter_supported: true,
    require_pushed_authorization_requests: false,
    // Spec 4.1: apps people connect, only while the owner has them on and the plan includes them.
    // An owner may stop advertising metadata documents (issue 26: MCP clients whose document path
    // fails then register instead); documents sent anyway are still accepted.
    ...(clients.connectedAppsOn(tenant) ? { registration_endpoint: `${issuer}/oauth/register` } : {}),
    ...(clients.connectedAppsOn(tenant) && !tenant.settings.metadata_documents_unadvertised ? { client_id_metadata_document_supported: true } : {}),
  };
}

/** Discovery at both well-known paths (RFC 8414, OIDC Discovery) and the JWKS. */
export function discoveryRoutes(deps: { db: Db; keys: SigningKeys; clients: ClientDirectory }) {
  return async (app: FastifyInstance) => {
    const discovery = async (request: FastifyRequest, reply: FastifyReply) =>
      reply.header('cache-control', 'public, max-age=3600').send(await discoveryDocument(deps.db, request.tenant, deps.clients));
    app.get('/.well-known/openid-configuration', discovery);
    app.get('/.well-known/oauth-authorization-server', discovery);

    app.get('/oauth/jwks', async (request: FastifyRequest, reply: FastifyReply) => {
      const tenant = request.tenant;
      const jwks = await deps.keys.jwks(tenant.api.id, tenant.settings.access_token_ttl_s);
      // Short enough that a rotation's new key is seen soon; servers refetch on an unseen kid anyway.
      return reply.header('cache-control', 'public, max-age=300').type('application/jwk-set+json').send(jwks);
    });
  };
}
