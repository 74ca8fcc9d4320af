export interface EndUserKeysTable {
  id: string;
  api_id: string;
  person_id: string;
  name: string;
  prefix: string;
  start: string;
  secret_hash: string;
  previous_secret_hash: string | null;
  previous_secret_expires_at: Date | null;
  server_ids: string[];
  permissions: string[];
  expires_at: Date | null;
  created_in_client_id: string;
  created_in_app_name: string;
  created_at: Date;
  updated_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  expiry_reminded_at: Date | null;
}

export interface EndUserKeyTables {
  end_user_keys: EndUserKeysTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends EndUserKeyTables {}
}
