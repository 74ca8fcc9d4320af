// Dynamic client registration (RFC 7591) as spec 4.3 has it: the request's metadata, checked.
import { checkClientName, checkGrantTypes, checkRedirectUris, checkResponseTypes, metadataObject, MetadataError, type CheckedMetadata } from './client-metadata.js';

/**
 * Spec 4.3: `none`, `client_secret_basic` and `client_secret_post` are accepted, but no secret is
 * issued: every registered app is a public client using PKCE, and the answer says `none`.
 * `private_key_jwt` (and any other method) is refused: we hold no key of the app's to check.
 */
const ACCEPTED_AUTH_METHODS: ReadonlySet<string> = new Set(['none', 'client_secret_basic', 'client_secret_post']);

function checkAuthMethod(value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'string') throw new MetadataError('invalid_client_metadata', 'token_endpoint_auth_method must be a string');
  if (!ACCEPTED_AUTH_METHODS.has(value)) {
    throw new MetadataError('invalid_client_metadata', `token_endpoint_auth_method ${value.slice(0, 60)} is not supported; apps people connect are public clients (none)`);
  }
}

/** The registration request's metadata, or a MetadataError naming the first field that fails. */
export function checkRegistrationMetadata(body: unknown): CheckedMetadata {
  const metadata = metadataObject(body, 'the body');
  const clientName = checkClientName(metadata.client_name, false);
  const { redirectUris, applicationType } = checkRedirectUris(metadata.redirect_uris, metadata.application_type);
  checkAuthMethod(metadata.token_endpoint_auth_method);
  const refreshTokens = checkGrantTypes(metadata.grant_types);
  checkResponseTypes(metadata.response_types);
  return { clientName, applicationType, redirectUris, refreshTokens };
}
