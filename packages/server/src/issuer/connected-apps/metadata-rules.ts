// Client ID metadata documents (spec 4.3; draft-ietf-oauth-client-id-metadata-document): which
// URLs may be a client_id, and what the document at one must say.
import { checkClientName, checkGrantTypes, checkRedirectUris, checkResponseTypes, metadataObject, MetadataError, type CheckedMetadata } from './client-metadata.js';

/** Spec 8: a metadata document URL holds at most 2000 characters. */
export const MAX_METADATA_URL_LENGTH = 2000;
/** Spec 8: a document is at most 5 KB. */
export const MAX_METADATA_DOCUMENT_BYTES = 5 * 1024;

/** A client_id that is meant as a metadata document URL rather than an id we gave out. */
export function isMetadataUrl(clientId: string): boolean {
  // Ids we give out (`app_…`) never hold a colon; anything with a scheme is meant as a URL.
  return clientId.includes(':');
}

/**
 * Why this URL cannot be a client_id (spec 4.3: https, with a path, no query, fragment, user
 * name, or `.`/`..` segments, up to 2000 characters), or null when it can. The URL must also be
 * written as the URL standard writes it: the client_id is compared to the document's exactly, so
 * one app must not have two spellings (an upper-case host, a default port, `%2e%2e`, a backslash).
 */
export function metadataUrlProblem(raw: string): string | null {
  if (raw.length > MAX_METADATA_URL_LENGTH) return `is longer than ${MAX_METADATA_URL_LENGTH} characters`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol !== 'https:') return 'must be an https URL';
  if (url.username || url.password) return 'must not carry a user name or password';
  if (raw.includes('?')) return 'must not have a query';
  if (raw.includes('#')) return 'must not have a fragment';
  // Dot segments are checked on the text as sent: the URL parser would have removed them.
  const pathStart = raw.indexOf('/', 'https://'.length);
  const path = pathStart < 0 ? '' : raw.slice(pathStart);
  if (path.split(/[\\/]/).some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'must not have . or .. segments';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path';
  if (url.href !== raw) return `must be written in its normal form (${url.href.slice(0, 200)})`;
  return null;
}

/**
 * Spec 4.3: `token_endpoint_auth_method` is `none` or omitted; a document with a client_secret, or
 * asking for client_secret_basic, client_secret_post or private_key_jwt, is refused: anyone can
 * read the document, so the app it names can only be a public client.
 */
function checkPublicClient(document: Record<string, unknown>): void {
  if (document.client_secret !== undefined || document.client_secret_expires_at !== undefined) {
    throw new MetadataError('invalid_client_metadata', 'the document carries a client_secret; a metadata document app is a public client');
  }
  const method = document.token_endpoint_auth_method;
  if (method !== undefined && method !== 'none') {
    throw new MetadataError('invalid_client_metadata', `token_endpoint_auth_method must be none or omitted, not ${String(method).slice(0, 60)}`);
  }
}

/** A fetched document's metadata, checked against the URL it was fetched from. */
export function checkMetadataDocument(url: string, parsed: unknown): CheckedMetadata {
  const document = metadataObject(parsed, 'the document');
  if (document.client_id !== url) throw new MetadataError('invalid_client_metadata', 'the document\'s client_id is not exactly the URL it was fetched from');
  const clientName = checkClientName(document.client_name, true);
  const { redirectUris, applicationType } = checkRedirectUris(document.redirect_uris, document.application_type);
  checkPublicClient(document);
  const refreshTokens = checkGrantTypes(document.grant_types);
  checkResponseTypes(document.response_types);
  return { clientName, applicationType, redirectUris, refreshTokens };
}
