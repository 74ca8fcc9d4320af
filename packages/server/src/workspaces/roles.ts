import type { Role } from './tables.js';

// DESIGN section 6: each role can do what the one below it can, and more.
const rank: Record<Role, number> = { viewer: 1, editor: 2, admin: 3, owner: 4 };

export function roleAtLeast(role: Role, minimum: Role): boolean {
  return rank[role] >= rank[minimum];
}
