import type { RateLimitRule, RateLimits } from '../platform/rate-limit.js';
import { rateLimitedProblem } from '../console/http.js';

/**
 * Invitations mail any address, so they are bounded like any mail a stranger can trigger, once
 * per party that could multiply them: the workspace, the account behind it (an account can own
 * many workspaces), the API, and the address. A customer's people invite from the portal on an
 * allowance of their own, so an open portal's sign-ups never spend the owner's. Owners see these
 * in docs/decisions.md.
 */
export const invitationRules = {
  /** Member and customer invitations of one workspace (its APIs' included) together. */
  perWorkspace: { name: 'invite-workspace', points: 50, durationS: 3600 },
  /** Every invitation an account sends from the console (through its keys too), over all its workspaces. */
  perAccount: { name: 'invite-account', points: 50, durationS: 3600 },
  /** Customer invitations of one API sent by its owner's team. */
  perApi: { name: 'invite-api', points: 30, durationS: 3600 },
  /** Teammate invitations one customer sends from the portal. */
  perCustomer: { name: 'invite-customer', points: 10, durationS: 3600 },
  /** Teammate invitations one person sends from the portal, over every customer they belong to. */
  perPerson: { name: 'invite-person', points: 10, durationS: 3600 },
  /** Teammate invitations every customer of one API sends from the portal, together. */
  perApiPortal: { name: 'invite-api-portal', points: 100, durationS: 3600 },
  /** Invitations of either kind to one address, from every workspace: as many as sign-in codes. */
  perRecipient: { name: 'invite-recipient', points: 5, durationS: 3600 },
} satisfies Record<string, RateLimitRule>;

/** Who sends an invitation, and to whom (the address normalized, so case makes no new recipient). */
export type InvitationTarget =
  /** The owner's team, from the console: a member of the workspace or a customer of one of its APIs. */
  | { by: 'owner'; workspaceId: string; accountId: string; apiId?: string; email: string }
  /** A customer's owner or admin, from the portal: a teammate. */
  | { by: 'customer'; apiId: string; customerId: string; personId: string; email: string };

function limitsOf(target: InvitationTarget): [RateLimitRule, string][] {
  const recipient: [RateLimitRule, string] = [invitationRules.perRecipient, target.email];
  if (target.by === 'customer') {
    return [[invitationRules.perCustomer, target.customerId], [invitationRules.perPerson, target.personId], [invitationRules.perApiPortal, target.apiId], recipient];
  }
  return [
    [invitationRules.perWorkspace, target.workspaceId],
    [invitationRules.perAccount, target.accountId],
    ...(target.apiId ? [[invitationRules.perApi, target.apiId] as [RateLimitRule, string]] : []),
    recipient,
  ];
}

export class InvitationLimits {
  constructor(private readonly rateLimits: RateLimits) {}

  /**
   * Spends one invitation of each limit the target falls under, or throws the 429 problem. Every
   * limit is looked at before any is spent, so an invitation refused by one (a recipient invited
   * too often) costs nothing of the others (the workspace's allowance).
   */
  async spend(target: InvitationTarget): Promise<void> {
    const limits = limitsOf(target);
    refuseIfAnyRefused(await Promise.all(limits.map(([rule, key]) => this.rateLimits.peek(rule, key))));
    // Two invitations at once may both pass the look; spending is what holds the line then.
    refuseIfAnyRefused(await Promise.all(limits.map(([rule, key]) => this.rateLimits.consume(rule, key))));
  }
}

function refuseIfAnyRefused(outcomes: Awaited<ReturnType<RateLimits['peek']>>[]): void {
  // The invitation can go once every limit allows it: the longest wait of those refusing.
  const waits = outcomes.flatMap((outcome) => (outcome.allowed ? [] : [outcome.retryAfterS]));
  if (waits.length) throw rateLimitedProblem(Math.max(...waits));
}
