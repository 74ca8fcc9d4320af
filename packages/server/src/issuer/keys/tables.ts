import type { ColumnType } from 'kysely';
import type { JWK } from 'jose';

export interface SigningKeysTable {
  kid: string;
  api_id: string;
  public_jwk: ColumnType<JWK, string, string>;
  private_sealed: string;
  active: boolean;
  created_at: Date;
  retired_at: Date | null;
}

export interface SigningKeyTables {
  signing_keys: SigningKeysTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../../platform/db/database.js' {
  interface Database extends SigningKeyTables {}
}
