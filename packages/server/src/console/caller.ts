import type { SessionUser } from '../accounts/accounts.js';
import type { Actor } from '../audit/service.js';
import type { InvitableRole } from '../workspaces/tables.js';

export interface WorkspaceKeyCaller {
  id: string;
  workspaceId: string;
  name: string;
  role: InvitableRole;
  /** The account that made the key: it answers for what the key sends (invitation allowances). */
  createdBy: string;
}

/** Who is calling the console API: a signed-in person (cookie) or a workspace key (Bearer). */
export type Caller =
  | { kind: 'user'; user: SessionUser; ip: string; userAgent: string }
  | { kind: 'key'; key: WorkspaceKeyCaller; ip: string; userAgent: string };

export function actorOf(caller: Caller): Actor {
  return caller.kind === 'user'
    ? { type: 'user', id: caller.user.id, name: caller.user.name, ip: caller.ip }
    : { type: 'key', id: caller.key.id, name: caller.key.name, ip: caller.ip };
}

/** The account a caller's actions count against: the person, or the account that made the key. */
export const accountOf = (caller: Caller): string => (caller.kind === 'user' ? caller.user.id : caller.key.createdBy);
