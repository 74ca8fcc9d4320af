import type { Insertable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import type { CustomerInvitesTable, CustomerMembersTable, CustomerRole } from './tables.js';

type Executor = Db | Trx;

// ---- Members: people of the API's sign-in service who act for a customer

export function findMembership(db: Executor, apiId: string, customerId: string, personId: string) {
  return db
    .selectFrom('customer_members')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('customer_id', '=', customerId)
    .where('person_id', '=', personId)
    .executeTakeFirst();
}

/** The customers a person belongs to, oldest membership first, with what the portal shows of each. */
export function membershipsOfPerson(db: Executor, apiId: string, personId: string) {
  return db
    .selectFrom('customer_members')
    .innerJoin('customers', 'customers.id', 'customer_members.customer_id')
    .select(['customers.id as customer_id', 'customers.name', 'customers.status', 'customer_members.role', 'customer_members.created_at'])
    .where('customer_members.api_id', '=', apiId)
    .where('customer_members.person_id', '=', personId)
    // An archived customer is no longer the person's in the portal.
    .where('customers.archived_at', 'is', null)
    .orderBy('customer_members.created_at')
    .orderBy('customers.id')
    .execute();
}

/** A customer's people (spec 2.2 MemberSummary), owners first, then by when they joined. */
export function membersOf(db: Executor, apiId: string, customerId: string) {
  return db
    .selectFrom('customer_members')
    .innerJoin('people', 'people.id', 'customer_members.person_id')
    .select(['people.id', 'people.email', 'people.name', 'people.last_login_at', 'customer_members.role', 'customer_members.created_at'])
    .where('customer_members.api_id', '=', apiId)
    .where('customer_members.customer_id', '=', customerId)
    .orderBy((eb) => eb.case().when('customer_members.role', '=', 'owner').then(0).when('customer_members.role', '=', 'admin').then(1).else(2).end())
    .orderBy('customer_members.created_at')
    .execute();
}

export async function insertMember(trx: Trx, row: Insertable<CustomerMembersTable>) {
  await trx.insertInto('customer_members').values(row).onConflict((oc) => oc.columns(['customer_id', 'person_id']).doNothing()).execute();
}

export async function setMemberRole(trx: Trx, apiId: string, customerId: string, personId: string, role: CustomerRole) {
  await trx.updateTable('customer_members').set({ role }).where('api_id', '=', apiId).where('customer_id', '=', customerId).where('person_id', '=', personId).execute();
}

export async function deleteMember(trx: Trx, apiId: string, customerId: string, personId: string) {
  await trx.deleteFrom('customer_members').where('api_id', '=', apiId).where('customer_id', '=', customerId).where('person_id', '=', personId).execute();
}

/** Owners of a customer, read with their rows locked so two removals of owners take turns. */
export async function lockOwners(trx: Trx, customerId: string): Promise<string[]> {
  const rows = await trx.selectFrom('customer_members').select('person_id').where('customer_id', '=', customerId).where('role', '=', 'owner').forUpdate().execute();
  return rows.map((row) => row.person_id);
}

/** A customer the owner added by hand with this address that nobody has joined yet, oldest first. */
export function memberlessCustomerByEmail(db: Executor, apiId: string, email: string) {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('email', '=', email)
    .where('is_test', '=', false)
    .where('archived_at', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('customer_members').select('person_id').whereRef('customer_members.customer_id', '=', 'customers.id'))))
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
}

// ---- Invitations: to become a customer (customer_id null) or to join one

export async function insertInvite(trx: Trx, row: Insertable<CustomerInvitesTable>) {
  await trx.insertInto('customer_invites').values(row).execute();
}

/** Revokes the open invitations of one address to one customer (or to become one), so one link is live. */
export async function revokeOpenInvites(trx: Trx, apiId: string, customerId: string | null, email: string, at: Date) {
  await trx
    .updateTable('customer_invites')
    .set({ revoked_at: at })
    .where('api_id', '=', apiId)
    .where('email', '=', email)
    .where((eb) => (customerId === null ? eb('customer_id', 'is', null) : eb('customer_id', '=', customerId)))
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .execute();
}

const openInvites = (db: Executor, apiId: string, now: Date) =>
  db
    .selectFrom('customer_invites')
    .selectAll()
    .where('api_id', '=', apiId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);

export function openInviteByToken(db: Executor, apiId: string, tokenHash: string, now: Date) {
  return openInvites(db, apiId, now).where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function inviteByToken(db: Executor, apiId: string, tokenHash: string) {
  return db.selectFrom('customer_invites').selectAll().where('api_id', '=', apiId).where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The open invitations of an address, newest first: joining a customer before becoming one. */
export function openInvitesForEmail(db: Executor, apiId: string, email: string, now: Date) {
  return openInvites(db, apiId, now).where('email', '=', email).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/** Open invitations of a customer (customerId) or to become a customer (null), newest first. */
export function openInvitesOf(db: Executor, apiId: string, customerId: string | null, now: Date) {
  return openInvites(db, apiId, now)
    .where((eb) => (customerId === null ? eb('customer_id', 'is', null) : eb('customer_id', '=', customerId)))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export function findOpenInvite(db: Executor, apiId: string, inviteId: string, now: Date) {
  return openInvites(db, apiId, now).where('id', '=', inviteId).executeTakeFirst();
}

/** Marks an open invitation accepted; false when it was not open any more (used, revoked, racing). */
export async function acceptInvite(trx: Trx, inviteId: string, at: Date): Promise<boolean> {
  const row = await trx
    .updateTable('customer_invites')
    .set({ accepted_at: at })
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function revokeInvite(trx: Trx, apiId: string, inviteId: string, at: Date): Promise<boolean> {
  const row = await trx
    .updateTable('customer_invites')
    .set({ revoked_at: at })
    .where('api_id', '=', apiId)
    .where('id', '=', inviteId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function renewInviteToken(trx: Trx, inviteId: string, tokenHash: string, expiresAt: Date) {
  await trx.updateTable('customer_invites').set({ token_hash: tokenHash, expires_at: expiresAt }).where('id', '=', inviteId).execute();
}
