// Client metadata (RFC 7591 2) as spec 4.3 narrows it, shared by dynamic registration and client
// ID metadata documents: the fields we act on, checked one small step at a time. Fields we do not
// act on (client_uri, logo_uri, scope, contacts, jwks, software_id, ...) are ignored, as RFC 7591
// 2 tells a server to do, but every string in the metadata still meets the text rule.
import { findTextFault } from '../../platform/text.js';
import { applicationTypeOf, classifyRedirectUri, MAX_CONNECTED_REDIRECT_URIS, type ApplicationType, type RedirectKind } from './redirect-rules.js';

/** Spec 4.3 and 8: a client_name of at most 100 characters; without one, this. */
export const MAX_CLIENT_NAME_LENGTH = 100;
export const UNNAMED_APP = 'Unnamed app';

/** RFC 7591 3.2.2's error codes. */
export type MetadataErrorCode = 'invalid_redirect_uri' | 'invalid_client_metadata';

export class MetadataError extends Error {
  constructor(
    readonly code: MetadataErrorCode,
    readonly description: string,
  ) {
    super(description);
  }
}

/** What an app people connect is, once its metadata is checked. */
export interface CheckedMetadata {
  /** Trimmed; null when none was given. */
  clientName: string | null;
  applicationType: ApplicationType;
  redirectUris: string[];
  /** grant_types holds refresh_token: the app may get refresh tokens (offline_access). */
  refreshTokens: boolean;
}

const bad = (description: string) => new MetadataError('invalid_client_metadata', description);

/** The metadata must be a JSON object whose strings all meet the text rule (platform/text.ts). */
export function metadataObject(value: unknown, where: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw bad(`${where} must be a JSON object`);
  const fault = findTextFault(value, where);
  if (fault) throw bad(`${fault.location.slice(0, 60)} ${fault.message}`);
  return value as Record<string, unknown>;
}

export function checkClientName(value: unknown, required: boolean): string | null {
  if (value === undefined || value === null) {
    if (required) throw bad('client_name is required');
    return null;
  }
  if (typeof value !== 'string') throw bad('client_name must be a string');
  const name = value.trim();
  // Characters are code points, as the console's maxLength counts them.
  if ([...name].length > MAX_CLIENT_NAME_LENGTH) throw bad(`client_name must be at most ${MAX_CLIENT_NAME_LENGTH} characters`);
  if (name === '') {
    if (required) throw bad('client_name is required');
    return null;
  }
  return name;
}

export function checkRedirectUris(value: unknown, explicitType: unknown): { redirectUris: string[]; applicationType: ApplicationType } {
  if (value === undefined) throw new MetadataError('invalid_redirect_uri', 'redirect_uris is required');
  if (!Array.isArray(value) || value.length === 0) throw new MetadataError('invalid_redirect_uri', 'redirect_uris must be a list of at least one URI');
  if (value.length > MAX_CONNECTED_REDIRECT_URIS) throw new MetadataError('invalid_redirect_uri', `redirect_uris may hold at most ${MAX_CONNECTED_REDIRECT_URIS} URIs`);
  if (explicitType !== undefined && explicitType !== 'native' && explicitType !== 'web') throw bad('application_type must be native or web');
  const kinds: RedirectKind[] = [];
  const seen = new Set<string>();
  value.forEach((uri, index) => {
    if (typeof uri !== 'string') throw new MetadataError('invalid_redirect_uri', `redirect_uris.${index} must be a string`);
    if (seen.has(uri)) throw new MetadataError('invalid_redirect_uri', `redirect_uris.${index} is listed twice`);
    seen.add(uri);
    const classified = classifyRedirectUri(uri);
    if ('problem' in classified) throw new MetadataError('invalid_redirect_uri', `redirect_uris.${index} ${classified.problem}`);
    kinds.push(classified.kind);
  });
  const type = applicationTypeOf(kinds, explicitType as ApplicationType | undefined);
  if ('problem' in type) throw new MetadataError('invalid_redirect_uri', type.problem);
  return { redirectUris: value as string[], applicationType: type.type };
}

function stringList(value: unknown, field: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string')) throw bad(`${field} must be a list of strings`);
  return value as string[];
}

/**
 * grant_types (spec 4.3): `authorization_code`, optionally with `refresh_token` for refresh tokens;
 * default `["authorization_code"]`. Answers whether refresh tokens are allowed.
 */
export function checkGrantTypes(value: unknown): boolean {
  if (value === undefined) return false;
  const grants = stringList(value, 'grant_types');
  const other = grants.find((grant) => grant !== 'authorization_code' && grant !== 'refresh_token');
  if (other !== undefined) throw bad(`grant_types may hold only authorization_code and refresh_token, not ${other.slice(0, 60)}`);
  if (!grants.includes('authorization_code')) throw bad('grant_types must include authorization_code');
  return grants.includes('refresh_token');
}

/** response_types: `code` only (spec 4.2: response_type is always code). */
export function checkResponseTypes(value: unknown): void {
  if (value === undefined) return;
  const types = stringList(value, 'response_types');
  if (types.length === 0 || types.some((type) => type !== 'code')) throw bad('response_types may hold only code');
}

/** The grant and response types an app of these facts has, as answers state them. */
export function grantTypesOf(refreshTokens: boolean): string[] {
  return refreshTokens ? ['authorization_code', 'refresh_token'] : ['authorization_code'];
}
