import type { RateLimitRule, RateLimits } from '../platform/rate-limit.js';
import { rateLimitedProblem } from '../console/http.js';

/**
 * Invitations mail any address with text an owner chose (the workspace or API name is in the
 * subject), so they are bounded like any mail a stranger can trigger. Owners see these in
 * docs/decisions.md.
 */
export const invitationRules = {
  /** Member and customer invitations of one workspace (its APIs' included) together. */
  perWorkspace: { name: 'invite-workspace', points: 50, durationS: 3600 },
  /** Customer invitations of one API. */
  perApi: { name: 'invite-api', points: 30, durationS: 3600 },
  /** Invitations of either kind to one address, from every workspace: as many as sign-in codes. */
  perRecipient: { name: 'invite-recipient', points: 5, durationS: 3600 },
} satisfies Record<string, RateLimitRule>;

export interface InvitationTarget {
  workspaceId: string;
  /** Set for a customer invitation. */
  apiId?: string;
  /** Normalized, so case does not make a new recipient. */
  email: string;
}

export class InvitationLimits {
  constructor(private readonly rateLimits: RateLimits) {}

  /**
   * Spends one invitation of each limit the target falls under, or throws the 429 problem. Every
   * limit is looked at before any is spent, so an invitation refused by one (a recipient invited
   * too often) costs nothing of the others (the workspace's allowance).
   */
  async spend(target: InvitationTarget): Promise<void> {
    const limits: [RateLimitRule, string][] = [
      [invitationRules.perWorkspace, target.workspaceId],
      ...(target.apiId ? [[invitationRules.perApi, target.apiId] as [RateLimitRule, string]] : []),
      [invitationRules.perRecipient, target.email],
    ];
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
