import type { Clock } from '../platform/clock.js';
import { addMs, DAY } from '../platform/clock.js';
import { randomToken, sha256Hex } from '../platform/crypto.js';
import type { Db, Trx } from '../platform/db/database.js';
import { Problem } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import { normalizeEmail } from '../accounts/accounts.js';
import type { ApiRow, ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import { accountOf, actorOf, type Caller } from '../console/caller.js';
import type { InvitationLimits } from '../workspaces/invitation-limits.js';
import * as mails from './mails.js';
import * as mq from './member-queries.js';
import type { CustomerRole } from './tables.js';

/** An invitation's link works once, for this long (as a workspace invitation's). */
export const CUSTOMER_INVITE_TTL_MS = 7 * DAY;

/** Where an invitation's link lands: the portal of the API, on its tenant host. */
export const invitationUrl = (portalUrl: string, token: string) => `${portalUrl}/invites/${token}`;

/** Who sends an invitation: an owner's console user, or a person of a customer in the portal. */
export interface Inviter {
  id: string;
  name: string;
  isPerson: boolean;
}

export interface InvitationTarget {
  api: ApiRow;
  /** The customer to join; null to become a new customer. */
  customer: { id: string; name: string } | null;
  email: string;
  role: CustomerRole;
}

/**
 * Writes an invitation and queues its mail, in the caller's transaction: the open invitation of
 * the same address to the same customer is replaced, so one link is live at a time. Answers the id.
 */
export async function issueInvitation(trx: Trx, deps: { clock: Clock; outbox: MailOutbox; portalUrl: string }, target: InvitationTarget, inviter: Inviter): Promise<string> {
  const now = deps.clock.now();
  const customerId = target.customer?.id ?? null;
  await mq.revokeOpenInvites(trx, target.api.id, customerId, target.email, now);
  const token = randomToken();
  const id = newId('cin');
  await mq.insertInvite(trx, {
    id,
    api_id: target.api.id,
    customer_id: customerId,
    role: target.role,
    email: target.email,
    token_hash: sha256Hex(token),
    invited_by: inviter.id,
    invited_by_person: inviter.isPerson,
    created_at: now,
    expires_at: addMs(now, CUSTOMER_INVITE_TTL_MS),
  });
  await deps.outbox.enqueue(trx, invitationMail(target, inviter.name, invitationUrl(deps.portalUrl, token)));
  return id;
}

function invitationMail(target: InvitationTarget, inviterName: string, url: string) {
  return target.customer
    ? mails.joinCustomer(target.email, inviterName, target.customer.name, target.api.name, target.role, url)
    : mails.becomeCustomer(target.email, target.api.name, url);
}

function toInviteOut(row: Awaited<ReturnType<typeof mq.openInvitesOf>>[number]) {
  return { id: row.id, email: row.email, created_at: row.created_at.toISOString(), expires_at: row.expires_at.toISOString() };
}

/** The console's side of customer invitations: invite someone to become a customer, list, resend, revoke. */
export class CustomerInvitations {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
    private readonly outbox: MailOutbox,
    private readonly invitationLimits: InvitationLimits,
  ) {}

  /** Invites someone to become a customer; signing up with the address (by the link or not) makes them one. */
  async invite(caller: Caller, apiId: string, rawEmail: string) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const email = normalizeEmail(rawEmail);
    // After the access check, so nobody else can spend an API's invitations; 429 writes nothing.
    await this.invitationLimits.spend({ by: 'owner', workspaceId: api.workspace_id, accountId: accountOf(caller), apiId, email });
    await this.db.transaction().execute(async (trx) => {
      const actor = actorOf(caller);
      const id = await issueInvitation(trx, this.#deps(api), { api, customer: null, email, role: 'owner' }, { id: actor.id, name: actor.name, isPerson: false });
      await this.audit.record(trx, actor, {
        workspaceId: api.workspace_id,
        action: 'customer.invite',
        target: { type: 'customer_invite', id },
        api: { id: api.id, name: api.name },
        summary: `Invited ${email} to become a customer`,
        details: { email },
      });
    });
    this.outbox.kick();
    return { sent: true };
  }

  /** Open invitations to become a customer, newest first. */
  async list(caller: Caller, apiId: string) {
    await this.apis.access(caller, apiId, 'viewer');
    return { invites: (await mq.openInvitesOf(this.db, apiId, null, this.clock.now())).map(toInviteOut) };
  }

  /** Sends the invitation again with a new link (the old one stops working) and a new week. */
  async resend(caller: Caller, apiId: string, inviteId: string) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const invite = await mq.findOpenInvite(this.db, apiId, inviteId, this.clock.now());
    if (!invite || invite.customer_id !== null) throw new Problem('not_found', 'No such open invitation');
    await this.invitationLimits.spend({ by: 'owner', workspaceId: api.workspace_id, accountId: accountOf(caller), apiId, email: invite.email });
    await this.db.transaction().execute(async (trx) => {
      const actor = actorOf(caller);
      const id = await issueInvitation(trx, this.#deps(api), { api, customer: null, email: invite.email, role: 'owner' }, { id: actor.id, name: actor.name, isPerson: false });
      await this.audit.record(trx, actor, {
        workspaceId: api.workspace_id,
        action: 'customer.invite_resend',
        target: { type: 'customer_invite', id },
        api: { id: api.id, name: api.name },
        summary: `Sent the invitation of ${invite.email} again`,
        details: { email: invite.email, replaces: invite.id },
      });
    });
    this.outbox.kick();
    return { sent: true };
  }

  async revoke(caller: Caller, apiId: string, inviteId: string): Promise<void> {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    await this.db.transaction().execute(async (trx) => {
      const invite = await mq.findOpenInvite(trx, apiId, inviteId, this.clock.now());
      if (!invite || invite.customer_id !== null || !(await mq.revokeInvite(trx, apiId, inviteId, this.clock.now()))) {
        throw new Problem('not_found', 'No such open invitation');
      }
      await this.audit.record(trx, actorOf(caller), {
        workspaceId: api.workspace_id,
        action: 'customer.invite_revoke',
        target: { type: 'customer_invite', id: inviteId },
        api: { id: api.id, name: api.name },
        summary: `Revoked the invitation of ${invite.email}`,
        details: { email: invite.email },
      });
    });
  }

  #deps(api: ApiRow) {
    return { clock: this.clock, outbox: this.outbox, portalUrl: this.apis.portalUrl(api.slug) };
  }
}
