import type { Generated } from 'kysely';

export type PersonStatus = 'active' | 'suspended';

export interface PeopleTable {
  id: string;
  api_id: string;
  email: string;
  email_verified: Generated<boolean>;
  name: string;
  picture: string | null;
  password_hash: string | null;
  status: Generated<PersonStatus>;
  last_login_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface PersonRolesTable {
  person_id: string;
  role_id: string;
}

export interface PersonSessionsTable {
  id: string;
  api_id: string;
  person_id: string;
  token_hash: string;
  auth_time: Date;
  amr: string[];
  created_at: Date;
  expires_at: Date;
  ended_at: Date | null;
}

export interface PersonEmailCodesTable {
  id: string;
  api_id: string;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Date;
}

export interface ConsentsTable {
  api_id: string;
  person_id: string;
  client_id: string;
  resource: string;
  scopes: string[];
  updated_at: Date;
}

export interface PeopleTables {
  people: PeopleTable;
  person_roles: PersonRolesTable;
  person_sessions: PersonSessionsTable;
  person_email_codes: PersonEmailCodesTable;
  consents: ConsentsTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../../platform/db/database.js' {
  interface Database extends PeopleTables {}
}
