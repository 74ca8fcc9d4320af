import type { SessionUser } from '../accounts/accounts.js';
import type { Actor } from '../audit/service.js';
import type { InvitableRole } from '../workspaces/tables.js';

export interface WorkspaceKeyCaller {
  id: string;
  workspaceId: string;
  name: string;
  role: InvitableRole;
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
