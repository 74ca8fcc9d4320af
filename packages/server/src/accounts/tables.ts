import type { Generated } from 'kysely';

export interface UsersTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  totp_secret_sealed: string | null;
  totp_pending_sealed: string | null;
  totp_last_step: number | null;
  password_changed_at: Date;
  created_at: Date;
  updated_at: Date;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: Date | null;
}

export type CodePurpose = 'signup' | 'reset';

export interface EmailCodesTable {
  id: string;
  purpose: CodePurpose;
  email: string;
  code_hash: string;
  attempts: Generated<number>;
  expires_at: Date;
  consumed_at: Date | null;
  created_at: Date;
}

export interface TicketsTable {
  id: string;
  purpose: CodePurpose;
  email: string;
  token_hash: string;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token_hash: string;
  workspace_id: string | null;
  ip: string;
  user_agent: string;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
}

export interface LoginChallengesTable {
  id: string;
  user_id: string;
  token_hash: string;
  attempts: Generated<number>;
  expires_at: Date;
  used_at: Date | null;
  created_at: Date;
}

export interface AuthTables {
  users: UsersTable;
  recovery_codes: RecoveryCodesTable;
  email_codes: EmailCodesTable;
  tickets: TicketsTable;
  sessions: SessionsTable;
  login_challenges: LoginChallengesTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends AuthTables {}
}
