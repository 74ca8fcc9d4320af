import type { Clock } from '../platform/clock.js';
import { sha256Hex } from '../platform/crypto.js';
import type { Db, Trx } from '../platform/db/database.js';
import { fail, ok, Problem, type Result } from '../platform/errors.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { normalizeEmail } from '../accounts/accounts.js';
import type { ApiRow, ApiService } from '../apis/service.js';
import type { Actor, AuditService } from '../audit/service.js';
import type { InvitationLimits, InvitationTarget } from '../workspaces/invitation-limits.js';
import { issueInvitation } from './invitations.js';
import * as mq from './member-queries.js';
import type { CustomerService } from './service.js';
import type { CustomerRole } from './tables.js';

/** A person of the API's sign-in service, as membership needs them. */
export interface PersonRef {
  id: string;
  email: string;
  name: string;
}

/** A person acting in the portal for one of their customers. */
export interface MemberActor {
  apiId: string;
  customerId: string;
  person: PersonRef;
  role: CustomerRole;
  ip: string;
}

const rank: Record<CustomerRole, number> = { member: 0, admin: 1, owner: 2 };

/**
 * What each role of a customer's team may do (docs/decisions.md, "Customer teams"): members use
 * the API (keys they made, everything to read); admins also run the team and every key; owners
 * also make and remove owners. A role may act on roles up to its own.
 */
export const customerRoleMay = {
  manageTeam: (role: CustomerRole) => rank[role] >= rank.admin,
  manageAllKeys: (role: CustomerRole) => rank[role] >= rank.admin,
  /** Top-ups, subscriptions and auto-recharge spend the customer's money: owners and admins. */
  manageBilling: (role: CustomerRole) => rank[role] >= rank.admin,
  grant: (role: CustomerRole, target: CustomerRole) => rank[role] >= rank.admin && rank[target] <= rank[role],
};

/** A customer's people as MemberSummary (spec 2.2): owners first, then by when they joined. */
export async function memberSummaries(db: Db | Trx, apiId: string, customerId: string) {
  return (await mq.membersOf(db, apiId, customerId)).map((row) => ({
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    created_at: row.created_at.toISOString(),
    ...(row.last_login_at ? { last_login_at: row.last_login_at.toISOString() } : {}),
  }));
}

const personActor = (person: PersonRef, ip: string): Actor => ({ type: 'person', id: person.id, name: person.email, ip });

/**
 * People of an API's sign-in service as the members of its customers (DESIGN 8): who gets or
 * joins a customer on sign-up, per the API's signup_mode; invitations accepted; the team a
 * customer's owners and admins run in the portal.
 */
export class CustomerMembers {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly customers: CustomerService,
    private readonly outbox: MailOutbox,
    private readonly invitationLimits: InvitationLimits,
  ) {}

  // ---- Sign-up (called by the sign-in service's accounts)

  /** Whether an address may sign up: with signup_mode `invite`, only one invited or added by hand. */
  async mayStart(apiId: string, rawEmail: string): Promise<boolean> {
    const api = await this.apis.findById(this.db, apiId);
    if (!api || api.signup_mode !== 'invite') return true;
    const email = normalizeEmail(rawEmail);
    const [invites, handAdded] = await Promise.all([mq.openInvitesForEmail(this.db, apiId, email, this.clock.now()), mq.memberlessCustomerByEmail(this.db, apiId, email)]);
    return invites.length > 0 || handAdded !== undefined;
  }

  /**
   * In the transaction that made the person (their address proven by the sign-up code): every open
   * invitation of the address is accepted; failing any, a customer the owner added by hand with the
   * address is joined; failing that, signup_mode decides: `open` makes an active customer, `approval`
   * a pending one, `invite` nothing. The person is the owner of a customer made for them.
   */
  async joinOnSignup(trx: Trx, apiId: string, person: PersonRef): Promise<void> {
    const api = await this.apis.findById(trx, apiId);
    if (!api) return;
    let joined = false;
    for (const invite of await mq.openInvitesForEmail(trx, apiId, person.email, this.clock.now())) {
      if (await this.#accept(trx, api, invite, person, 'signup')) joined = true;
    }
    if (joined) return;
    const handAdded = await mq.memberlessCustomerByEmail(trx, apiId, person.email);
    if (handAdded) {
      await this.#join(trx, api, { id: handAdded.id, name: handAdded.name }, person, 'owner', 'signup');
      return;
    }
    if (api.signup_mode === 'invite') return;
    await this.#becomeCustomer(trx, api, person, api.signup_mode === 'open' ? 'active' : 'pending');
  }

  /**
   * The same rules for a person who has no customer yet when they open the portal: people who
   * signed up before customers had members, or whose sign-up made none (at a plan's limit).
   */
  async joinOnVisit(apiId: string, person: PersonRef): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      // The API row's lock makes two first visits at once take turns: the second finds the first's customer.
      await this.apis.lockAmongWriters(trx, apiId);
      if ((await mq.membershipsOfPerson(trx, apiId, person.id)).length > 0) return;
      await this.joinOnSignup(trx, apiId, person);
    });
  }

  // ---- Invitations by link

  /** What an invitation's landing page shows, or null when the link is unknown, used, revoked or expired. */
  async invitation(apiId: string, token: string) {
    const invite = await mq.openInviteByToken(this.db, apiId, sha256Hex(token), this.clock.now());
    if (!invite) return null;
    const customer = invite.customer_id ? await this.customers.findRow(this.db, apiId, invite.customer_id) : undefined;
    return { email: invite.email, role: invite.role, customerName: customer?.name ?? null, expiresAt: invite.expires_at };
  }

  /**
   * Whether an invitation's link already did its work for this person: accepted, and they are in its
   * customer (the sign-up that followed the link accepts every invitation of the address). Answers
   * that customer's id.
   */
  async joinedBy(apiId: string, token: string, personId: string): Promise<string | null> {
    const invite = await mq.inviteByToken(this.db, apiId, sha256Hex(token));
    if (!invite?.accepted_at) return null;
    const memberships = await mq.membershipsOfPerson(this.db, apiId, personId);
    const joined = invite.customer_id === null ? memberships.at(-1) : memberships.find((m) => m.customer_id === invite.customer_id);
    return joined?.customer_id ?? null;
  }

  /** A signed-in person accepts an invitation by its link; it must be addressed to them. */
  async acceptByToken(apiId: string, token: string, person: PersonRef): Promise<Result<{ customerId: string }>> {
    return this.db.transaction().execute(async (trx) => {
      const invite = await mq.openInviteByToken(trx, apiId, sha256Hex(token), this.clock.now());
      if (!invite) return fail('invite_not_found');
      if (invite.email !== normalizeEmail(person.email)) return fail('invite_account_mismatch');
      const api = (await this.apis.findById(trx, apiId))!;
      const customerId = await this.#accept(trx, api, invite, person, 'link');
      return customerId ? ok({ customerId }) : fail('invite_not_found');
    });
  }

  // ---- Who belongs where

  /** The customers a person acts for, oldest first. */
  membershipsOf(apiId: string, personId: string) {
    return mq.membershipsOfPerson(this.db, apiId, personId);
  }

  /** A person's membership of one customer, or undefined: what the portal authorizes by. */
  membership(apiId: string, customerId: string, personId: string) {
    return mq.findMembership(this.db, apiId, customerId, personId);
  }

  /** A customer's people as MemberSummary (spec 2.2). */
  members(apiId: string, customerId: string) {
    return memberSummaries(this.db, apiId, customerId);
  }

  /** Open invitations to join a customer, for its team page. */
  async openInvitations(apiId: string, customerId: string) {
    return (await mq.openInvitesOf(this.db, apiId, customerId, this.clock.now())).map((row) => ({ id: row.id, email: row.email, role: row.role, expiresAt: row.expires_at }));
  }

  // ---- The team, run in the portal

  /** An owner or admin invites a teammate, with a role up to their own. */
  async invite(actor: MemberActor, rawEmail: string, role: CustomerRole): Promise<Result<{ sent: true }>> {
    if (!customerRoleMay.grant(actor.role, role)) return fail('forbidden');
    const email = normalizeEmail(rawEmail);
    const api = await this.apis.findById(this.db, actor.apiId);
    const customer = await this.customers.findRow(this.db, actor.apiId, actor.customerId);
    if (!api || !customer) return fail('not_found');
    const result = await this.db.transaction().execute(async (trx): Promise<Result<{ sent: true }>> => {
      const members = await mq.membersOf(trx, actor.apiId, actor.customerId);
      if (members.some((member) => member.email === email)) return fail('already_member');
      // The customer's own allowance, never the owner's (an open portal's sign-ups would spend it).
      const limited = await this.#spendInvitation({ by: 'customer', apiId: api.id, customerId: customer.id, personId: actor.person.id, email });
      if (limited) return limited;
      const id = await issueInvitation(
        trx,
        { clock: this.clock, outbox: this.outbox, portalUrl: this.apis.portalUrl(api.slug) },
        { api, customer: { id: customer.id, name: customer.name }, email, role },
        { id: actor.person.id, name: actor.person.name, isPerson: true },
      );
      await this.#audit(trx, api, { id: customer.id, name: customer.name }, personActor(actor.person, actor.ip), 'customer_member.invite', { type: 'customer_invite', id }, `${actor.person.email} invited ${email} to ${customer.name} as ${role}`, { email, role });
      return ok({ sent: true as const });
    });
    this.outbox.kick();
    return result;
  }

  async revokeInvitation(actor: MemberActor, inviteId: string): Promise<Result<true>> {
    if (!customerRoleMay.manageTeam(actor.role)) return fail('forbidden');
    return this.db.transaction().execute(async (trx) => {
      const invite = await mq.findOpenInvite(trx, actor.apiId, inviteId, this.clock.now());
      if (!invite || invite.customer_id !== actor.customerId || !customerRoleMay.grant(actor.role, invite.role)) return fail('not_found');
      await mq.revokeInvite(trx, actor.apiId, inviteId, this.clock.now());
      return ok(true as const);
    });
  }

  /** Changes a teammate's role; nobody acts on a role above their own, and a customer keeps an owner. */
  async setRole(actor: MemberActor, personId: string, role: CustomerRole): Promise<Result<true>> {
    return this.#changeMember(actor, personId, role);
  }

  /** Removes a teammate, or the actor themself (leaving); the last owner can do neither. */
  async remove(actor: MemberActor, personId: string): Promise<Result<true>> {
    return this.#changeMember(actor, personId, null);
  }

  async #changeMember(actor: MemberActor, personId: string, role: CustomerRole | null): Promise<Result<true>> {
    const self = personId === actor.person.id;
    return this.db.transaction().execute(async (trx): Promise<Result<true>> => {
      const owners = await mq.lockOwners(trx, actor.customerId);
      const target = await mq.findMembership(trx, actor.apiId, actor.customerId, personId);
      if (!target) return fail('not_found');
      // Leaving needs no right; anything else needs the team right over the target's role (and the new one).
      const allowed = (self && role === null) || (customerRoleMay.manageTeam(actor.role) && customerRoleMay.grant(actor.role, target.role) && (role === null || customerRoleMay.grant(actor.role, role)));
      if (!allowed) return fail('forbidden');
      if (target.role === 'owner' && role !== 'owner' && owners.length <= 1) return fail('last_owner');
      if (role === null) await mq.deleteMember(trx, actor.apiId, actor.customerId, personId);
      else await mq.setMemberRole(trx, actor.apiId, actor.customerId, personId, role);
      const api = (await this.apis.findById(trx, actor.apiId))!;
      const customer = (await this.customers.findRow(trx, actor.apiId, actor.customerId))!;
      const action = role === null ? (self ? 'customer_member.leave' : 'customer_member.remove') : 'customer_member.role';
      const summary = role === null ? (self ? `${actor.person.email} left ${customer.name}` : `${actor.person.email} removed a member of ${customer.name}`) : `${actor.person.email} made a member of ${customer.name} ${role}`;
      await this.#audit(trx, api, { id: customer.id, name: customer.name }, personActor(actor.person, actor.ip), action, { type: 'person', id: personId }, summary, { person_id: personId, from: target.role, to: role });
      return ok(true as const);
    });
  }

  // ---- Inside

  /** The invitation limits as a value: the portal answers a page, not the console's 429 problem. */
  async #spendInvitation(target: InvitationTarget): Promise<Result<never> | null> {
    try {
      await this.invitationLimits.spend(target);
      return null;
    } catch (error) {
      if (error instanceof Problem && error.code === 'rate_limited') return fail('rate_limited', error.detail);
      throw error;
    }
  }

  /** Accepts one open invitation for the person: joins its customer, or makes them one. Answers the customer id. */
  async #accept(trx: Trx, api: ApiRow, invite: Awaited<ReturnType<typeof mq.openInvitesForEmail>>[number], person: PersonRef, how: 'signup' | 'link'): Promise<string | null> {
    if (!(await mq.acceptInvite(trx, invite.id, this.clock.now()))) return null;
    if (invite.customer_id === null) {
      // The owner invited this address: it becomes a customer whatever signup_mode says.
      return this.#becomeCustomer(trx, api, person, 'active');
    }
    const customer = await this.customers.findRow(trx, api.id, invite.customer_id);
    if (!customer) return null;
    await this.#join(trx, api, { id: customer.id, name: customer.name }, person, invite.role, how);
    return customer.id;
  }

  async #join(trx: Trx, api: ApiRow, customer: { id: string; name: string }, person: PersonRef, role: CustomerRole, how: 'signup' | 'link') {
    await mq.insertMember(trx, { customer_id: customer.id, person_id: person.id, api_id: api.id, role, created_at: this.clock.now() });
    await this.#audit(trx, api, customer, personActor(person, ''), 'customer_member.join', { type: 'person', id: person.id }, `${person.email} joined ${customer.name} as ${role}${how === 'signup' ? ' on signing up' : ''}`, { person_id: person.id, role });
  }

  /** A customer made for a person who signed up (or was invited to become one), with them as owner. */
  async #becomeCustomer(trx: Trx, api: ApiRow, person: PersonRef, status: 'active' | 'pending'): Promise<string | null> {
    const actor = personActor(person, '');
    const created = await this.customers.createInTransaction(trx, api, { name: person.name, email: person.email, status, isTest: false }, actor);
    // At the platform plan's customer limit the person exists without a customer; the portal says so.
    if (!created.ok) return null;
    const customer = { id: created.value.id, name: created.value.name };
    await mq.insertMember(trx, { customer_id: customer.id, person_id: person.id, api_id: api.id, role: 'owner', created_at: this.clock.now() });
    await this.#audit(trx, api, customer, actor, 'customer.signup', { type: 'customer', id: customer.id }, `${person.email} signed up${status === 'pending' ? ', waiting for approval' : ''}`, { person_id: person.id, status });
    return customer.id;
  }

  #audit(trx: Trx, api: ApiRow, customer: { id: string; name: string }, actor: Actor, action: string, target: { type: string; id: string }, summary: string, details: Record<string, unknown>) {
    return this.audit.record(trx, actor, { workspaceId: api.workspace_id, action, target, api: { id: api.id, name: api.name }, customer, summary, details });
  }
}
