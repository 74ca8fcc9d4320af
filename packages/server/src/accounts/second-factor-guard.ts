import type { Trx } from '../platform/db/database.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { RateLimits } from '../platform/rate-limit.js';
import { rateRules } from './limits.js';
import * as mails from './mails.js';

/** A refusal with the seconds until the account's allowance comes back. */
export interface Paused {
  retryAfterS: number;
}

const rule = rateRules.secondFactorFailuresPerUser;

/**
 * The per-account bound on wrong second-factor codes (hardening item 4). Per-address limits alone
 * let someone with the password spread guesses over many addresses; this counts by account, so
 * every code-taking step (login, turning two-factor off, new recovery codes) shares one
 * allowance. When a failure uses the last of it, the owner of the account is told by mail.
 */
export class SecondFactorGuard {
  constructor(
    private readonly rateLimits: RateLimits,
    private readonly outbox: MailOutbox,
    private readonly consoleUrl: string,
  ) {}

  /** Null while the account may try a code; otherwise how long until it may. */
  async paused(userId: string): Promise<Paused | null> {
    const outcome = await this.rateLimits.peek(rule, userId);
    return outcome.allowed ? null : { retryAfterS: outcome.retryAfterS };
  }

  /** Counts a wrong code; the one that uses up the allowance queues the mail, in the caller's transaction. */
  async failed(trx: Trx, user: { id: string; email: string }): Promise<void> {
    const outcome = await this.rateLimits.consume(rule, user.id);
    if (outcome.allowed && outcome.remaining === 0) {
      await this.outbox.enqueue(trx, mails.secondFactorPaused(user.email, rule.points, rule.durationS / 60, this.consoleUrl));
    }
  }
}
