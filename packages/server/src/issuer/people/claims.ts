import type { Db } from '../../platform/db/database.js';
import { rolesAndPermissions } from '../registry/lookups.js';
import { findPerson } from './queries.js';

type Person = NonNullable<Awaited<ReturnType<typeof findPerson>>>;

/**
 * The claims of a person for the granted scopes (spec 4.3): profile gives name, picture and
 * updated_at; email gives email and email_verified; roles gives roles and permissions, both
 * always present when granted.
 */
export async function personClaims(db: Db, apiId: string, personId: string, scopes: readonly string[]): Promise<Record<string, unknown> | null> {
  const person = await findPerson(db, apiId, personId);
  return person ? claimsOf(db, apiId, person, scopes) : null;
}

/** The claims of a person already read (the token endpoint has just checked their status). */
export async function claimsOf(
  db: Db,
  apiId: string,
  person: Pick<Person, 'id' | 'name' | 'picture' | 'updated_at' | 'email' | 'email_verified'>,
  scopes: readonly string[],
): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = {};
  if (scopes.includes('profile')) {
    claims.name = person.name;
    if (person.picture) claims.picture = person.picture;
    claims.updated_at = Math.floor(person.updated_at.getTime() / 1000);
  }
  if (scopes.includes('email')) {
    claims.email = person.email;
    claims.email_verified = person.email_verified;
  }
  if (scopes.includes('roles')) {
    const { roles, permissions } = await rolesAndPermissions(db, apiId, person.id);
    claims.roles = roles;
    claims.permissions = permissions;
  }
  return claims;
}
