// What each workspace role may do (DESIGN section 6), for hiding controls a role cannot use. The
// API is the authority and refuses them anyway; the console only spares people a button that fails.
export type Role = 'owner' | 'admin' | 'editor' | 'viewer';

const RANK: Record<Role, number> = { viewer: 0, editor: 1, admin: 2, owner: 3 };

/** Whether `role` is `least` or above it. */
export const atLeast = (role: string | undefined, least: Role): boolean => role !== undefined && role in RANK && RANK[role as Role] >= RANK[least];

/** editor: change APIs, customers, credit, plans, sign-in settings. */
export const canEdit = (role: string | undefined) => atLeast(role, 'editor');
/** admin: members, invitations, workspace keys, secrets, domains, payments, deleting APIs. */
export const canAdmin = (role: string | undefined) => atLeast(role, 'admin');
/** owner: platform plans, deleting the workspace, owners. */
export const isOwner = (role: string | undefined) => atLeast(role, 'owner');
