export type Role = 'owner' | 'admin' | 'editor' | 'viewer';
export type InvitableRole = Exclude<Role, 'owner'>;

export interface WorkspacesTable {
  id: string;
  name: string;
  created_at: Date;
  updated_at: Date;
}

export interface MembershipsTable {
  workspace_id: string;
  user_id: string;
  role: Role;
  joined_at: Date;
}

export interface InvitesTable {
  id: string;
  workspace_id: string;
  email: string;
  role: InvitableRole;
  token_hash: string;
  invited_by: string;
  created_at: Date;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

export interface WorkspaceKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  role: InvitableRole;
  prefix: string;
  key_hash: string;
  created_by: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface WorkspaceTables {
  workspaces: WorkspacesTable;
  memberships: MembershipsTable;
  invites: InvitesTable;
  workspace_keys: WorkspaceKeysTable;
}

// This capability's tables join the service's Database type (platform/db/database.ts).
declare module '../platform/db/database.js' {
  interface Database extends WorkspaceTables {}
}
