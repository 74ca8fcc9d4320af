import type { Clock } from '../platform/clock.js';
import { addMs } from '../platform/clock.js';
import { constantTimeEqual, hashPassword, randomToken, sha256Hex, verifyAgainstDecoy, verifyPassword, type SecretBox } from '../platform/crypto.js';
import type { Db, Trx } from '../platform/db/database.js';
import { fail, ok, type Result } from '../platform/errors.js';
import { newId, sixDigitCode } from '../platform/ids.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { RateLimits, RateLimitRule } from '../platform/rate-limit.js';
import type { Actor } from '../audit/service.js';
import type { WorkspaceService } from '../workspaces/service.js';
import { AccountsService, normalizeEmail, toUserOut, type ClientInfo, type SessionUser, type UserOut } from './accounts.js';
import * as limits from './limits.js';
import * as mails from './mails.js';
import * as q from './queries.js';
import type { CodePurpose } from './tables.js';
import { issueRecoveryCodes, newTotpSecret, spendSecondFactor, verifyTotp } from './two-factor.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import { networkOf } from '../platform/http/network.js';
import { SecondFactorGuard } from './second-factor-guard.js';

export interface StartedSession {
  token: string;
  expiresAt: Date;
  user: UserOut;
  workspaceId: string | null;
}

export type LoginOutcome =
  | { twoFactorRequired: true; challenge: string }
  | ({ twoFactorRequired: false } & StartedSession);

/** A failed rate-limit check, carried to the route so it can answer 429 with Retry-After. */
export class RateLimited {
  constructor(readonly retryAfterS: number) {}
}

/** Owner sign-up, login, two-factor and password flows (spec 2.4 and 5.1). */
export class AuthService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly box: SecretBox,
    private readonly rateLimits: RateLimits,
    private readonly outbox: MailOutbox,
    private readonly accounts: AccountsService,
    private readonly workspaces: WorkspaceService,
    private readonly consoleUrl: string,
    private readonly secondFactor: SecondFactorGuard = new SecondFactorGuard(rateLimits, outbox, consoleUrl),
  ) {}

  async #limit(checks: [RateLimitRule, string][]): Promise<RateLimited | null> {
    for (const [rule, key] of checks) {
      const outcome = await this.rateLimits.consume(rule, key);
      if (!outcome.allowed) return new RateLimited(outcome.retryAfterS);
    }
    return null;
  }

  /**
   * Sign-up step 1 and forgot-password step 1. The answer is the same whether or not the address
   * has an account; the mail differs (a code, or a note that there is already an account).
   */
  async sendCode(purpose: CodePurpose, rawEmail: string, ip: string): Promise<RateLimited | null> {
    const email = normalizeEmail(rawEmail);
    const limited = await this.#limit([
      [limits.rateRules.codeSendPerIp, networkOf(ip)],
      [limits.rateRules.codeSendPerEmail, `${purpose}:${email}`],
    ]);
    if (limited) return limited;
    await this.db.transaction().execute(async (trx) => {
      const existing = await q.findUserByEmail(trx, email);
      const needsCode = purpose === 'signup' ? !existing : !!existing;
      if (!needsCode) {
        // Sign-up for a taken address: tell its owner, who may simply have forgotten.
        if (purpose === 'signup') await this.outbox.enqueue(trx, mails.alreadyRegistered(email, this.consoleUrl));
        return;
      }
      const code = sixDigitCode();
      const now = this.clock.now();
      await q.insertEmailCode(trx, {
        id: newId('eml'),
        purpose,
        email,
        code_hash: sha256Hex(`${purpose}:${email}:${code}`),
        expires_at: addMs(now, limits.EMAIL_CODE_TTL_MS),
        consumed_at: null,
        created_at: now,
      });
      await this.outbox.enqueue(trx, purpose === 'signup' ? mails.signupCode(email, code) : mails.resetCode(email, code));
    });
    this.outbox.kick();
    return null;
  }

  /** Step 2: the e-mailed code buys a one-time ticket valid 30 minutes. */
  async verifyCode(purpose: CodePurpose, rawEmail: string, code: string, ip: string): Promise<Result<{ ticket: string; expires_at: string }> | RateLimited> {
    const limited = await this.#limit([[limits.rateRules.codeVerifyPerIp, networkOf(ip)]]);
    if (limited) return limited;
    const email = normalizeEmail(rawEmail);
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const row = await q.latestEmailCode(trx, purpose, email);
      const usable = row && !row.consumed_at && row.expires_at > now && row.attempts < limits.EMAIL_CODE_MAX_ATTEMPTS;
      if (!row || !usable) return fail('invalid_code');
      if (!constantTimeEqual(row.code_hash, sha256Hex(`${purpose}:${email}:${code}`))) {
        await q.countCodeAttempt(trx, row.id);
        return fail('invalid_code');
      }
      await q.consumeEmailCode(trx, row.id, now);
      const ticket = randomToken();
      const expiresAt = addMs(now, limits.TICKET_TTL_MS);
      await q.insertTicket(trx, { id: newId('tkt'), purpose, email, token_hash: sha256Hex(ticket), expires_at: expiresAt, created_at: now });
      return ok({ ticket, expires_at: expiresAt.toISOString() });
    });
  }

  /** Step 3 of sign-up: the ticket, a name and a password make the account, its workspace and a session. */
  async completeSignup(input: { ticket: string; name: string; password: string; workspace?: string }, client: ClientInfo): Promise<Result<StartedSession>> {
    try {
      return await this.#completeSignup(input, client);
    } catch (error) {
      // Two tickets for one address completed at once: both saw the address free and the unique
      // index refused the second insert. Same outcome as finding it taken, not a 500.
      if (isUniqueViolation(error, 'users_email_key')) return fail('email_taken');
      throw error;
    }
  }

  #completeSignup(input: { ticket: string; name: string; password: string; workspace?: string }, client: ClientInfo): Promise<Result<StartedSession>> {
    return this.db.transaction().execute(async (trx) => {
      const ticket = await q.useTicket(trx, 'signup', sha256Hex(input.ticket), this.clock.now());
      if (!ticket) return fail('invalid_ticket');
      if (await q.findUserByEmail(trx, ticket.email)) return fail('email_taken');
      const user = await this.accounts.createUser(trx, { email: ticket.email, name: input.name, password: input.password });
      const actor: Actor = { type: 'user', id: user.id, name: user.name, ip: client.ip };
      const workspaceName = input.workspace?.trim() || user.name;
      const workspace = await this.workspaces.createWorkspace(trx, actor, user.id, workspaceName);
      const session = await this.accounts.startSession(trx, user.id, workspace.id, client);
      return ok({ ...session, user: toUserOut(user), workspaceId: workspace.id });
    });
  }

  async login(rawEmail: string, password: string, client: ClientInfo): Promise<Result<LoginOutcome> | RateLimited> {
    const email = normalizeEmail(rawEmail);
    const limited = await this.#limit([
      [limits.rateRules.loginPerIp, networkOf(client.ip)],
      [limits.rateRules.loginPerEmail, email],
    ]);
    if (limited) return limited;
    const user = await q.findUserByEmail(this.db, email);
    const valid = user ? await verifyPassword(user.password_hash, password) : await verifyAgainstDecoy(password);
    if (!user || !valid) return fail('invalid_credentials');
    await this.rateLimits.reset(limits.rateRules.loginPerEmail, email);
    if (user.totp_secret_sealed) {
      // A correct password resets the login count, so challenges are bounded per account too.
      const paused = await this.secondFactor.paused(user.id);
      if (paused) return new RateLimited(paused.retryAfterS);
      const challenges = await this.#limit([[limits.rateRules.loginChallengesPerUser, user.id]]);
      if (challenges) return challenges;
    }
    return this.db.transaction().execute(async (trx) => {
      if (user.totp_secret_sealed) {
        const challenge = randomToken();
        const now = this.clock.now();
        await q.insertChallenge(trx, {
          id: newId('chl'),
          user_id: user.id,
          token_hash: sha256Hex(challenge),
          expires_at: addMs(now, limits.LOGIN_CHALLENGE_TTL_MS),
          created_at: now,
        });
        return ok({ twoFactorRequired: true as const, challenge });
      }
      return ok({ twoFactorRequired: false as const, ...(await this.#sessionFor(trx, user, client)) });
    });
  }

  async #sessionFor(trx: Trx, user: Parameters<typeof toUserOut>[0], client: ClientInfo): Promise<StartedSession> {
    const workspaceId = (await this.workspaces.listForUser(trx, user.id))[0]?.id ?? null;
    const session = await this.accounts.startSession(trx, user.id, workspaceId, client);
    return { ...session, user: toUserOut(user), workspaceId };
  }

  /** Login step 2: the challenge plus an authenticator code or a recovery code. */
  async loginTwoFactor(challenge: string, code: string, client: ClientInfo): Promise<Result<StartedSession> | RateLimited> {
    const limited = await this.#limit([[limits.rateRules.twoFactorPerIp, networkOf(client.ip)]]);
    if (limited) return limited;
    const outcome = await this.db.transaction().execute(async (trx): Promise<Result<StartedSession> | RateLimited> => {
      const now = this.clock.now();
      const row = await q.findChallenge(trx, sha256Hex(challenge));
      if (!row || row.used_at || row.expires_at <= now || row.attempts >= limits.LOGIN_CHALLENGE_MAX_ATTEMPTS) {
        return fail('invalid_challenge');
      }
      const paused = await this.secondFactor.paused(row.user_id);
      if (paused) return new RateLimited(paused.retryAfterS);
      const user = await q.findUserById(trx, row.user_id);
      if (!user || !(await spendSecondFactor(trx, this.box, this.clock, user, code))) {
        await q.countChallengeAttempt(trx, row.id);
        if (user) await this.secondFactor.failed(trx, user);
        return fail('invalid_two_factor_code');
      }
      await q.useChallenge(trx, row.id, now);
      return ok(await this.#sessionFor(trx, user, client));
    });
    this.outbox.kick();
    return outcome;
  }

  /** Password reset with a ticket ends every session; it signs in only when two-factor is off. */
  async resetPassword(ticketToken: string, password: string, client: ClientInfo): Promise<Result<{ signedIn: false } | ({ signedIn: true } & StartedSession)>> {
    return this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      const ticket = await q.useTicket(trx, 'reset', sha256Hex(ticketToken), now);
      const user = ticket && (await q.findUserByEmail(trx, ticket.email));
      if (!user) return fail('invalid_ticket');
      const updated = await q.updateUser(trx, user.id, { password_hash: await hashPassword(password), password_changed_at: now, updated_at: now });
      await this.accounts.endOtherSessions(trx, user.id, null);
      const actor: Actor = { type: 'user', id: user.id, name: user.name, ip: client.ip };
      await this.workspaces.auditAcrossWorkspaces(trx, actor, user.id, { action: 'user.password_reset', summary: `${user.email} reset their password` });
      if (updated.totp_secret_sealed) return ok({ signedIn: false as const });
      return ok({ signedIn: true as const, ...(await this.#sessionFor(trx, updated, client)) });
    });
  }

  /** Changing the password signs out every other session of the person. */
  async changePassword(session: SessionUser, current: string, password: string, ip: string): Promise<Result<true>> {
    const user = await q.findUserById(this.db, session.id);
    if (!user || !(await verifyPassword(user.password_hash, current))) return fail('wrong_password');
    const hash = await hashPassword(password);
    await this.db.transaction().execute(async (trx) => {
      const now = this.clock.now();
      await q.updateUser(trx, user.id, { password_hash: hash, password_changed_at: now, updated_at: now });
      await this.accounts.endOtherSessions(trx, user.id, session.sessionId);
      await this.workspaces.auditAcrossWorkspaces(trx, this.#actor(session, ip), user.id, { action: 'user.password_change', summary: `${user.email} changed their password` });
    });
    return ok(true);
  }

  async logout(sessionId: string): Promise<void> {
    await this.accounts.endSession(sessionId);
  }

  #actor(session: SessionUser, ip: string): Actor {
    return { type: 'user', id: session.id, name: session.name, ip };
  }

  async me(session: SessionUser) {
    const user = await q.findUserById(this.db, session.id);
    if (!user) return null;
    return { user: toUserOut(user), workspaces: await this.workspaces.listForUser(this.db, user.id) };
  }

  async rename(session: SessionUser, name: string): Promise<UserOut> {
    const now = this.clock.now();
    return toUserOut(await q.updateUser(this.db, session.id, { name: name.trim(), updated_at: now }));
  }

  /** Starts authenticator setup: a new seed, kept sealed until a code proves the app has it. */
  async setupTwoFactor(session: SessionUser): Promise<Result<{ secret: string; uri: string }>> {
    const user = await q.findUserById(this.db, session.id);
    if (!user) return fail('not_signed_in');
    if (user.totp_secret_sealed) return fail('two_factor_already_on');
    const { secret, uri } = newTotpSecret(user.email);
    await q.updateUser(this.db, user.id, { totp_pending_sealed: this.box.seal(secret), updated_at: this.clock.now() });
    return ok({ secret, uri });
  }

  async enableTwoFactor(session: SessionUser, code: string, ip: string): Promise<Result<string[]>> {
    return this.db.transaction().execute(async (trx) => {
      const user = await q.findUserById(trx, session.id);
      if (!user) return fail('not_signed_in');
      if (user.totp_secret_sealed) return fail('two_factor_already_on');
      if (!user.totp_pending_sealed) return fail('two_factor_not_set_up');
      const step = verifyTotp(this.box.open(user.totp_pending_sealed), code.trim(), this.clock, null);
      if (step === null) return fail('invalid_two_factor_code');
      await q.updateUser(trx, user.id, {
        totp_secret_sealed: user.totp_pending_sealed,
        totp_pending_sealed: null,
        totp_last_step: step,
        updated_at: this.clock.now(),
      });
      const codes = await issueRecoveryCodes(trx, user.id);
      await this.workspaces.auditAcrossWorkspaces(trx, this.#actor(session, ip), user.id, { action: 'user.two_factor_enable', summary: `${user.email} turned on two-factor sign-in` });
      return ok(codes);
    });
  }

  async disableTwoFactor(session: SessionUser, password: string, code: string, ip: string): Promise<Result<true> | RateLimited> {
    const user = await q.findUserById(this.db, session.id);
    if (!user) return fail('not_signed_in');
    if (!user.totp_secret_sealed) return fail('two_factor_not_on');
    const paused = await this.secondFactor.paused(user.id);
    if (paused) return new RateLimited(paused.retryAfterS);
    if (!(await verifyPassword(user.password_hash, password))) return fail('wrong_password');
    return this.db.transaction().execute(async (trx) => {
      const fresh = await q.findUserById(trx, user.id);
      if (!fresh || !(await spendSecondFactor(trx, this.box, this.clock, fresh, code))) {
        await this.secondFactor.failed(trx, user);
        return fail('invalid_two_factor_code');
      }
      await q.updateUser(trx, user.id, { totp_secret_sealed: null, totp_pending_sealed: null, totp_last_step: null, updated_at: this.clock.now() });
      await q.replaceRecoveryCodes(trx, user.id, []);
      await this.workspaces.auditAcrossWorkspaces(trx, this.#actor(session, ip), user.id, { action: 'user.two_factor_disable', summary: `${user.email} turned off two-factor sign-in` });
      return ok(true as const);
    });
  }

  /** New recovery codes replace the old ones; an authenticator code (not a recovery code) is required. */
  async regenerateRecoveryCodes(session: SessionUser, code: string, ip: string): Promise<Result<string[]> | RateLimited> {
    const paused = await this.secondFactor.paused(session.id);
    if (paused) return new RateLimited(paused.retryAfterS);
    return this.db.transaction().execute(async (trx) => {
      const user = await q.findUserById(trx, session.id);
      if (!user?.totp_secret_sealed) return fail('two_factor_not_on');
      const step = verifyTotp(this.box.open(user.totp_secret_sealed), code.trim(), this.clock, user.totp_last_step);
      // Claimed conditionally, so one code cannot be spent twice by racing requests (RFC 6238 5.2).
      if (step === null || !(await q.claimTotpStep(trx, user.id, step))) {
        await this.secondFactor.failed(trx, user);
        return fail('invalid_two_factor_code');
      }
      const codes = await issueRecoveryCodes(trx, user.id);
      await this.workspaces.auditAcrossWorkspaces(trx, this.#actor(session, ip), user.id, { action: 'user.recovery_codes_regenerate', summary: `${user.email} made new recovery codes` });
      return ok(codes);
    });
  }
}
