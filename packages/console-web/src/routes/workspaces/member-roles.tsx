// Which member controls a caller gets (docs/decisions.md "Roles"): admins change roles among
// admin, editor and viewer and remove anyone but owners; owners also grant and take the owner role
// and remove owners. The last owner is not guarded here: the API refuses, and the page says why.
import { ProblemError } from '../../api/client.js';
import type { MemberOut } from '../../api/records.js';
import { canAdmin, isOwner, type Role } from '../../app/roles.js';

/** The roles `caller` may give, highest first. */
export function grantableRoles(caller: string): Role[] {
  if (isOwner(caller)) return ['owner', 'admin', 'editor', 'viewer'];
  return canAdmin(caller) ? ['admin', 'editor', 'viewer'] : [];
}

export const canChangeRole = (caller: string, member: MemberOut) => canAdmin(caller) && (member.role !== 'owner' || isOwner(caller));

/** Removing someone else; leaving is the person's own button. */
export const canRemove = (caller: string, member: MemberOut, selfId: string) => member.user_id !== selfId && canChangeRole(caller, member);

/** One line saying what the roles an invitation or a key can have may do. */
export const INVITABLE_HINT = 'Admins also manage members and keys; editors change APIs, customers and credit; viewers read.';

export const ROLE_HINTS: Record<Role, string> = {
  owner: 'everything, including deleting the workspace and making owners',
  admin: 'members, invitations, workspace keys, secrets, domains and payments',
  editor: 'APIs, customers, credit, plans and sign-in settings',
  viewer: 'reads everything but secrets',
};

/** After the API's refusal for the last owner, what to do instead. */
export function LastOwnerHint({ error }: { error: unknown }) {
  if (!(error instanceof ProblemError && error.code === 'last_owner')) return null;
  return <p className="muted small">Make another member an owner first; then this owner can step down or leave.</p>;
}
