import type { Clock } from '../platform/clock.js';
import { addMs, DAY, MINUTE } from '../platform/clock.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import type { Db, Trx } from '../platform/db/database.js';
import { fail, ok, Problem, type Result } from '../platform/errors.js';
import { newId, randomBase62 } from '../platform/ids.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { formatApiKey } from '@gatehouse/protocol';
import type { AccountsService, ClientInfo } from '../accounts/accounts.js';
import { normalizeEmail, toUserOut } from '../accounts/accounts.js';
import type { Actor, AuditService } from '../audit/service.js';
import { accountOf, actorOf, type Caller, type WorkspaceKeyCaller } from '../console/caller.js';
import type { InvitationLimits } from './invitation-limits.js';
import * as mails from './mails.js';
import * as q from './queries.js';
import { roleAtLeast } from './roles.js';
import type { InvitableRole, Role } from './tables.js';

export const INVITE_TTL_MS = 7 * DAY;
/**
 * Workspaces one account may own (docs/decisions.md, "Hardening round two: console and portal"):
 * each brings its own allowances (invitations, APIs, keys), so an unbounded number multiplied them.
 */
export const MAX_OWNED_WORKSPACES = 20;
/** Workspace keys use the key format of spec 4.4 with this prefix. */
export const WORKSPACE_KEY_PREFIX = 'ghw';
const KEY_TOUCH_MS = MINUTE;

export interface WorkspaceOut {
  id: string;
  name: string;
  role: Role;
  created_at: string;
}

const iso = (d: Date) => d.toISOString();

function toInviteOut(row: { id: string; email: string; role: string; created_at: Date; expires_at: Date }) {
  return { id: row.id, email: row.email, role: row.role, created_at: iso(row.created_at), expires_at: iso(row.expires_at) };
}

function toKeyOut(row: { id: string; name: string; prefix: string; role: string; created_at: Date; last_used_at: Date | null }) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    role: row.role,
    created_at: iso(row.created_at),
    ...(row.last_used_at ? { last_used_at: iso(row.last_used_at) } : {}),
  };
}

/** Workspaces, their members, invitations and keys (DESIGN section 6). */
export class WorkspaceService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly outbox: MailOutbox,
    private readonly audit: AuditService,
    private readonly accounts: AccountsService,
    private readonly consoleUrl: string,
    private readonly invitationLimits: InvitationLimits,
    /** Whether the workspace's platform plan has teams (apis/service.ts workspaceHasTeams). */
    private readonly teamsAllowed: (workspaceId: string) => Promise<boolean> = async () => true,
  ) {}

  /**
   * The caller's role in a workspace, at least `minimum`. Another workspace answers 404, never 403
   * (DESIGN section 5); a role too small answers 403.
   */
  async authorize(caller: Caller, workspaceId: string, minimum: Role): Promise<Role> {
    let role: Role | undefined;
    if (caller.kind === 'key') role = caller.key.workspaceId === workspaceId ? caller.key.role : undefined;
    else role = (await q.findMembership(this.db, workspaceId, caller.user.id))?.role;
    if (!role) throw new Problem('not_found', 'No such workspace');
    if (!roleAtLeast(role, minimum)) throw new Problem('forbidden', `This needs the ${minimum} role or higher; yours is ${role}`);
    return role;
  }

  async createWorkspace(trx: Trx, actor: Actor, ownerId: string, name: string): Promise<WorkspaceOut> {
    const id = newId('ws');
    const at = this.clock.now();
    await q.insertWorkspace(trx, { id, name, at });
    await q.insertMembership(trx, { workspace_id: id, user_id: ownerId, role: 'owner', joined_at: at });
    await this.audit.record(trx, actor, { workspaceId: id, action: 'workspace.create', target: { type: 'workspace', id }, summary: `Created workspace ${name}` });
    return { id, name, role: 'owner', created_at: iso(at) };
  }

  async listForUser(db: Db | Trx, userId: string): Promise<WorkspaceOut[]> {
    return (await q.workspacesOfUser(db, userId)).map((w) => ({ id: w.id, name: w.name, role: w.role, created_at: iso(w.created_at) }));
  }

  /** Account security events go to every workspace the person belongs to, for its admins to see. */
  async auditAcrossWorkspaces(trx: Trx, actor: Actor, userId: string, event: { action: string; summary: string }) {
    for (const workspace of await q.workspacesOfUser(trx, userId)) {
      await this.audit.record(trx, actor, { workspaceId: workspace.id, action: event.action, target: { type: 'user', id: userId }, summary: event.summary });
    }
  }

  /** Who hears about what only owners decide (the platform plan, issue 23): the workspace's owners. */
  async ownerContacts(db: Db | Trx, workspaceId: string): Promise<string[]> {
    const members = await q.membersOfWorkspace(db, workspaceId);
    return [...new Set(members.filter((m) => m.role === 'owner').map((m) => m.email))];
  }

  /** Who hears about a workspace's own affairs (a failing webhook endpoint): its owners and admins. */
  async adminContacts(db: Db | Trx, workspaceId: string): Promise<string[]> {
    const members = await q.membersOfWorkspace(db, workspaceId);
    return [...new Set(members.filter((m) => m.role === 'owner' || m.role === 'admin').map((m) => m.email))];
  }

  async create(caller: Caller & { kind: 'user' }, name: string): Promise<Result<WorkspaceOut>> {
    return this.db.transaction().execute(async (trx) => {
      // Creations by one account take turns, so two at once cannot both see room for one.
      await q.lockOwnerForNewWorkspace(trx, caller.user.id);
      const owned = await q.countOwnedWorkspaces(trx, caller.user.id);
      if (owned >= MAX_OWNED_WORKSPACES) {
        return fail<WorkspaceOut>('workspace_limit', `An account owns at most ${MAX_OWNED_WORKSPACES} workspaces; you own ${owned}. Delete one you no longer use, or hand it to another owner.`);
      }
      return ok(await this.createWorkspace(trx, actorOf(caller), caller.user.id, name.trim()));
    });
  }

  async get(caller: Caller, workspaceId: string): Promise<WorkspaceOut> {
    const role = await this.authorize(caller, workspaceId, 'viewer');
    const workspace = await q.findWorkspace(this.db, workspaceId);
    if (!workspace) throw new Problem('not_found');
    return { id: workspace.id, name: workspace.name, role, created_at: iso(workspace.created_at) };
  }

  async rename(caller: Caller, workspaceId: string, name: string): Promise<WorkspaceOut> {
    const role = await this.authorize(caller, workspaceId, 'admin');
    return this.db.transaction().execute(async (trx) => {
      const before = await q.findWorkspace(trx, workspaceId);
      // The name it already has: no change, no audit event.
      if (before && before.name === name.trim()) return { id: before.id, name: before.name, role, created_at: iso(before.created_at) };
      const row = await q.renameWorkspace(trx, workspaceId, name.trim(), this.clock.now());
      await this.audit.record(trx, actorOf(caller), {
        workspaceId,
        action: 'workspace.rename',
        target: { type: 'workspace', id: workspaceId },
        summary: `Renamed workspace ${before?.name ?? ''} to ${row.name}`,
        details: { from: before?.name, to: row.name },
      });
      return { id: row.id, name: row.name, role, created_at: iso(row.created_at) };
    });
  }

  async remove(caller: Caller, workspaceId: string): Promise<void> {
    await this.authorize(caller, workspaceId, 'owner');
    await this.db.transaction().execute((trx) => q.deleteWorkspace(trx, workspaceId));
  }

  async members(caller: Caller, workspaceId: string) {
    await this.authorize(caller, workspaceId, 'viewer');
    const [members, invites] = await Promise.all([
      q.membersOfWorkspace(this.db, workspaceId),
      q.pendingInvites(this.db, workspaceId, this.clock.now()),
    ]);
    return {
      members: members.map((m) => ({
        user_id: m.user_id,
        email: m.email,
        name: m.name,
        role: m.role,
        two_factor: m.totp_secret_sealed !== null,
        joined_at: iso(m.joined_at),
      })),
      invites: invites.map(toInviteOut),
    };
  }

  async invite(caller: Caller, workspaceId: string, rawEmail: string, role: InvitableRole): Promise<Result<ReturnType<typeof toInviteOut>>> {
    await this.authorize(caller, workspaceId, 'admin');
    // A workspace on a plan without teams has one member (platform plans, issue 13 item 7).
    if (!(await this.teamsAllowed(workspaceId))) return fail('plan_limit', 'The platform plan of this workspace has no teams: it has one member');
    const email = normalizeEmail(rawEmail);
    const result = await this.db.transaction().execute(async (trx) => {
      const existing = await this.accounts.findByEmail(trx, email);
      if (existing && (await q.findMembership(trx, workspaceId, existing.id))) return fail<ReturnType<typeof toInviteOut>>('already_member');
      // After the role and membership checks, so only a mail that goes spends the allowance; the
      // 429 it may throw rolls this transaction back, so a refusal writes nothing.
      await this.invitationLimits.spend({ by: 'owner', workspaceId, accountId: accountOf(caller), email });
      const workspace = await q.findWorkspace(trx, workspaceId);
      const now = this.clock.now();
      // A new invitation to the same address replaces the open one, so one link is live at a time.
      await q.revokePendingInvitesFor(trx, workspaceId, email, now);
      const token = randomToken();
      const row = {
        id: newId('inv'),
        workspace_id: workspaceId,
        email,
        role,
        token_hash: sha256Hex(token),
        invited_by: actorOf(caller).id,
        created_at: now,
        expires_at: addMs(now, INVITE_TTL_MS),
        accepted_at: null,
        revoked_at: null,
      };
      await q.insertInvite(trx, row);
      const inviter = actorOf(caller).name;
      await this.outbox.enqueue(trx, mails.invitation(email, inviter, workspace?.name ?? '', role, `${this.consoleUrl}/invites/${token}`));
      await this.audit.record(trx, actorOf(caller), {
        workspaceId,
        action: 'member.invite',
        target: { type: 'invite', id: row.id },
        summary: `Invited ${email} as ${role}`,
        details: { email, role },
      });
      return ok(toInviteOut(row));
    });
    this.outbox.kick();
    return result;
  }

  async revokeInvite(caller: Caller, workspaceId: string, inviteId: string): Promise<void> {
    await this.authorize(caller, workspaceId, 'admin');
    await this.db.transaction().execute(async (trx) => {
      const row = await q.revokeInvite(trx, workspaceId, inviteId, this.clock.now());
      if (!row) throw new Problem('not_found', 'No such open invitation');
      await this.audit.record(trx, actorOf(caller), {
        workspaceId,
        action: 'invite.revoke',
        target: { type: 'invite', id: inviteId },
        summary: `Revoked the invitation of ${row.email}`,
        details: { email: row.email },
      });
    });
  }

  async #openInvite(token: string) {
    const row = await q.findInviteByHash(this.db, sha256Hex(token));
    const open = row && !row.accepted_at && !row.revoked_at && row.expires_at > this.clock.now();
    return open ? row : null;
  }

  /**
   * An open invitation as its link shows it: spec 2.4 InviteInfo, plus `invited_by`, the sender as
   * the mail named them (absent when the sender is gone: a person deleted, a key removed).
   */
  async inviteInfo(token: string): Promise<Result<{ workspace: string; email: string; role: string; account_exists: boolean; expires_at: string; invited_by?: string }>> {
    const row = await this.#openInvite(token);
    if (!row) return fail('invite_not_found');
    const account = await this.accounts.findByEmail(this.db, row.email);
    const invitedBy = await this.#inviterName(row.workspace_id, row.invited_by);
    return ok({
      workspace: row.workspace_name,
      email: row.email,
      role: row.role,
      account_exists: !!account,
      expires_at: iso(row.expires_at),
      ...(invitedBy === null ? {} : { invited_by: invitedBy }),
    });
  }

  /** The invitation's sender as the mail named them: a person's name, or a workspace key's. */
  async #inviterName(workspaceId: string, actorId: string): Promise<string | null> {
    const person = await this.accounts.findById(this.db, actorId);
    if (person) return person.name;
    return (await q.findKeyName(this.db, workspaceId, actorId))?.name ?? null;
  }

  /**
   * Accepts an invitation. An address with an account must be signed in as that account; a new
   * address sets a name and password here (the link proves the address). Either way a session
   * on the invited workspace results.
   */
  async acceptInvite(
    token: string,
    body: { name?: string; password?: string },
    caller: Caller | null,
    client: ClientInfo,
  ): Promise<Result<{ user: ReturnType<typeof toUserOut>; workspace_id: string; session?: { token: string; expiresAt: Date } }>> {
    const invite = await this.#openInvite(token);
    if (!invite) return fail('invite_not_found');
    const existing = await this.accounts.findByEmail(this.db, invite.email);
    if (existing && !(caller?.kind === 'user' && caller.user.id === existing.id)) return fail('invite_account_mismatch');
    if (!existing) {
      const errors = [];
      const name = body.name?.trim() ?? '';
      if (name.length < 1) errors.push({ location: 'body.name', message: 'is required to create the account', value: body.name });
      if (!body.password || body.password.length < 10) errors.push({ location: 'body.password', message: 'must be 10 to 72 characters', value: undefined });
      if (errors.length) return fail('validation', 'A new account needs a name and a password', errors);
    }
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      if (!(await q.acceptInvite(trx, invite.id, now))) return fail('invite_not_found');
      const user = existing ?? (await this.accounts.createUser(trx, { email: invite.email, name: body.name!, password: body.password! }));
      if (await q.findMembership(trx, invite.workspace_id, user.id)) return fail('already_member');
      await q.insertMembership(trx, { workspace_id: invite.workspace_id, user_id: user.id, role: invite.role, joined_at: now });
      const actor: Actor = { type: 'user', id: user.id, name: user.name, ip: client.ip };
      await this.audit.record(trx, actor, {
        workspaceId: invite.workspace_id,
        action: 'invite.accept',
        target: { type: 'user', id: user.id },
        summary: `${user.email} joined as ${invite.role}`,
        details: { invite_id: invite.id, role: invite.role },
      });
      const session = existing ? undefined : await this.accounts.startSession(trx, user.id, invite.workspace_id, client);
      return ok({ user: toUserOut(user), workspace_id: invite.workspace_id, ...(session ? { session } : {}) });
    });
  }

  /**
   * Changes a member's role. Granting or taking the owner role needs an owner, and the last owner
   * cannot be demoted (the owner rows are locked so two changes at once cannot both pass).
   */
  async changeRole(caller: Caller, workspaceId: string, userId: string, role: Role) {
    const callerRole = await this.authorize(caller, workspaceId, 'admin');
    return this.db.transaction().execute(async (trx) => {
      const owners = await q.lockOwners(trx, workspaceId);
      const member = await q.findMembership(trx, workspaceId, userId);
      if (!member) throw new Problem('not_found', 'No such member');
      if ((member.role === 'owner' || role === 'owner') && callerRole !== 'owner') {
        throw new Problem('forbidden', 'Only an owner can grant or take the owner role');
      }
      if (member.role === 'owner' && role !== 'owner' && owners.length <= 1) throw new Problem('last_owner');
      const user = await this.accounts.findById(trx, userId);
      // The role they already have: no change, no audit event.
      if (member.role !== role) {
        await q.setMemberRole(trx, workspaceId, userId, role);
        await this.audit.record(trx, actorOf(caller), {
          workspaceId,
          action: 'member.role_change',
          target: { type: 'user', id: userId },
          summary: `Changed ${user?.email ?? userId} from ${member.role} to ${role}`,
          details: { from: member.role, to: role },
        });
      }
      return {
        user_id: userId,
        email: user?.email ?? '',
        name: user?.name ?? '',
        role,
        two_factor: !!user?.totp_secret_sealed,
        joined_at: iso(member.joined_at),
      };
    });
  }

  /** Removes a member; anyone may leave, admins remove others, only owners remove owners. */
  async removeMember(caller: Caller, workspaceId: string, userId: string): Promise<void> {
    const self = caller.kind === 'user' && caller.user.id === userId;
    const callerRole = await this.authorize(caller, workspaceId, self ? 'viewer' : 'admin');
    await this.db.transaction().execute(async (trx) => {
      const owners = await q.lockOwners(trx, workspaceId);
      const member = await q.findMembership(trx, workspaceId, userId);
      if (!member) throw new Problem('not_found', 'No such member');
      if (member.role === 'owner' && !self && callerRole !== 'owner') throw new Problem('forbidden', 'Only an owner can remove an owner');
      if (member.role === 'owner' && owners.length <= 1) throw new Problem('last_owner');
      await q.deleteMembership(trx, workspaceId, userId);
      const user = await this.accounts.findById(trx, userId);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId,
        action: self ? 'member.leave' : 'member.remove',
        target: { type: 'user', id: userId },
        summary: self ? `${user?.email ?? userId} left the workspace` : `Removed ${user?.email ?? userId}`,
        details: { role: member.role },
      });
    });
  }

  async keys(caller: Caller, workspaceId: string) {
    await this.authorize(caller, workspaceId, 'viewer');
    return (await q.activeKeys(this.db, workspaceId)).map(toKeyOut);
  }

  /** A workspace key is shown once; only its SHA-256 is kept. */
  async createKey(caller: Caller, workspaceId: string, name: string, role: InvitableRole) {
    await this.authorize(caller, workspaceId, 'admin');
    const key = formatApiKey(WORKSPACE_KEY_PREFIX, randomBase62(40));
    const row = {
      id: newId('wsk'),
      workspace_id: workspaceId,
      name: name.trim(),
      role,
      prefix: key.slice(0, WORKSPACE_KEY_PREFIX.length + 9),
      key_hash: sha256Hex(key),
      created_by: actorOf(caller).id,
      created_at: this.clock.now(),
      last_used_at: null,
      revoked_at: null,
    };
    await this.db.transaction().execute(async (trx) => {
      await q.insertKey(trx, row);
      await this.audit.record(trx, actorOf(caller), {
        workspaceId,
        action: 'workspace_key.create',
        target: { type: 'workspace_key', id: row.id },
        summary: `Created workspace key ${row.name} (${row.prefix}…) with role ${role}`,
        details: { key_id: row.id, prefix: row.prefix, role },
      });
    });
    return { ...toKeyOut(row), key };
  }

  async revokeKey(caller: Caller, workspaceId: string, keyId: string): Promise<void> {
    await this.authorize(caller, workspaceId, 'admin');
    await this.db.transaction().execute(async (trx) => {
      const row = await q.revokeKey(trx, workspaceId, keyId, this.clock.now());
      if (!row) throw new Problem('not_found', 'No such key');
      await this.audit.record(trx, actorOf(caller), {
        workspaceId,
        action: 'workspace_key.revoke',
        target: { type: 'workspace_key', id: keyId },
        summary: `Revoked workspace key ${row.name} (${row.prefix}…)`,
        details: { key_id: keyId, prefix: row.prefix },
      });
    });
  }

  /** Resolves a Bearer workspace key; last_used_at is written at most once a minute. */
  async keyCaller(token: string): Promise<WorkspaceKeyCaller | null> {
    const row = await q.findActiveKeyByHash(this.db, sha256Hex(token));
    if (!row) return null;
    const now = this.clock.now();
    if (!row.last_used_at || now.getTime() - row.last_used_at.getTime() >= KEY_TOUCH_MS) await q.touchKey(this.db, row.id, now);
    return { id: row.id, workspaceId: row.workspace_id, name: row.name, role: row.role, createdBy: row.created_by };
  }
}
