import type { ColumnType } from 'kysely';
import type { AuthorizationRequest, InteractionResult } from './authorization-request.js';

export interface PushedAuthorizationsTable {
  request_uri_hash: string;
  api_id: string;
  client_id: string;
  params: ColumnType<Record<string, string>, string, string>;
  expires_at: Date;
  used_at: Date | null;
}

export interface AuthorizationInteractionsTable {
  token_hash: string;
  api_id: string;
  request: ColumnType<AuthorizationRequest, string, string>;
  result: ColumnType<InteractionResult, string | undefined, string>;
  created_at: Date;
  expires_at: Date;
  completed_at: Date | null;
}

export interface TokenGrantsTable {
  id: string;
  api_id: string;
  client_id: string;
  person_id: string;
  session_id: string;
  scopes: string[];
  resource: string | null;
  offline: boolean;
  auth_time: Date;
  amr: string[];
  created_at: Date;
  revoked_at: Date | null;
  /** The issuer the grant was made at (migration 0012); null for older grants, all of the portal host. */
  issuer: string | null;
}

export interface AuthorizationCodesTable {
  code_hash: string;
  api_id: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  nonce: string | null;
  expires_at: Date;
  used_at: Date | null;
}

export interface RefreshTokensTable {
  token_hash: string;
  api_id: string;
  grant_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export interface TokenTables {
  pushed_authorizations: PushedAuthorizationsTable;
  authorization_interactions: AuthorizationInteractionsTable;
  token_grants: TokenGrantsTable;
  authorization_codes: AuthorizationCodesTable;
  refresh_tokens: RefreshTokensTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../../platform/db/database.js' {
  interface Database extends TokenTables {}
}
