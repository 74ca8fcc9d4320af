import type { Clock } from '../../platform/clock.js';
import { addMs } from '../../platform/clock.js';
import { constantTimeEqual, hashPassword, sha256Hex, verifyAgainstDecoy, verifyPassword } from '../../platform/crypto.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { newId, sixDigitCode } from '../../platform/ids.js';
import type { MailOutbox } from '../../platform/mail/outbox.js';
import type { RateLimitRule, RateLimits } from '../../platform/rate-limit.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { networkOf } from '../../platform/http/network.js';
import * as aq from './accounts-queries.js';
import { PERSON_CODE_MAX_ATTEMPTS, PERSON_CODE_TTL_MS, personRateRules as rules } from './limits.js';
import * as mails from './mails.js';
import { findPerson, findPersonByEmail, insertPerson } from './queries.js';

/** The API a sign-in page serves, as far as accounts need it. */
export interface AccountTenant {
  apiId: string;
  apiName: string;
  issuer: string;
  signupsOpen: boolean;
}

/** A person proved who they are; `amr` names how (RFC 8176). A suspended person proves it too. */
export interface Proof {
  personId: string;
  suspended: boolean;
  amr: ['pwd'] | ['otp'];
}

/** Why a sign-in, a sign-up or a code request was refused: an expected outcome, not an error. */
export type Refusal =
  | { refused: 'invalid_credentials' | 'invalid_code' | 'signups_closed' | 'email_taken' | 'invite_only' }
  | { refused: 'rate_limited'; retryAfterS: number };

export type CodePurpose = 'signin' | 'signup';

/**
 * What becomes of a person who signs up, decided by the API's customers (DESIGN 8: people are
 * the members of its customers, per signup_mode).
 */
export interface SignupPolicy {
  /** Whether the address may sign up at all (signup_mode `invite`: only invited addresses). */
  mayStart(apiId: string, email: string): Promise<boolean>;
  /** In the transaction that made the person: their customer is joined or made. */
  joinOnSignup(trx: Trx, apiId: string, person: { id: string; email: string; name: string }): Promise<void>;
}

/** Until a policy is given, signing up makes a person and nothing else. */
const noCustomers: SignupPolicy = { mayStart: async () => true, joinOnSignup: async () => {} };

export const isRefusal = (outcome: object | null): outcome is Refusal => outcome !== null && 'refused' in outcome;

/** Addresses compare case-insensitively; people.email is stored lowercased and trimmed. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/**
 * The accounts of people on an API's sign-in pages: password and e-mailed-code sign-in, and
 * sign-up proven by an e-mailed code. Answers never tell whether an address has an account;
 * the mail to that address does, since only its owner reads it.
 */
export class PersonAccounts {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly rateLimits: RateLimits,
    private readonly outbox: MailOutbox,
    private readonly signupPolicy: SignupPolicy = noCustomers,
  ) {}

  async #limit(checks: [RateLimitRule, string][]): Promise<Refusal | null> {
    for (const [rule, key] of checks) {
      const outcome = await this.rateLimits.consume(rule, key);
      if (!outcome.allowed) return { refused: 'rate_limited', retryAfterS: outcome.retryAfterS };
    }
    return null;
  }

  /** E-mail and password (argon2id). An unknown address is checked against a decoy, so timing tells nothing. */
  async signInWithPassword(tenant: AccountTenant, rawEmail: string, password: string, ip: string): Promise<Proof | Refusal> {
    const email = normalizeEmail(rawEmail);
    const limited = await this.#limit([
      [rules.passwordPerIp, `${tenant.apiId}:${networkOf(ip)}`],
      [rules.passwordPerEmail, `${tenant.apiId}:${email}`],
    ]);
    if (limited) return limited;
    const person = await findPersonByEmail(this.db, tenant.apiId, email);
    const valid = person?.password_hash ? await verifyPassword(person.password_hash, password) : await verifyAgainstDecoy(password);
    if (!person || !valid) return { refused: 'invalid_credentials' };
    await this.rateLimits.reset(rules.passwordPerEmail, `${tenant.apiId}:${email}`);
    return { personId: person.id, suspended: person.status !== 'active', amr: ['pwd'] };
  }

  /**
   * E-mails a six-digit code to sign in with or to prove an address for sign-up. The answer is the
   * same whether or not the address has an account; the mail says what applies.
   */
  async sendCode(tenant: AccountTenant, purpose: CodePurpose, rawEmail: string, ip: string): Promise<Refusal | null> {
    if (purpose === 'signup' && !tenant.signupsOpen) return { refused: 'signups_closed' };
    const email = normalizeEmail(rawEmail);
    const limited = await this.#limit([
      [rules.codeSendPerIp, `${tenant.apiId}:${networkOf(ip)}`],
      [rules.codeSendPerEmail, `${tenant.apiId}:${email}`],
    ]);
    if (limited) return limited;
    if (purpose === 'signup' && !(await this.signupPolicy.mayStart(tenant.apiId, email))) return { refused: 'invite_only' };
    await this.db.transaction().execute(async (trx) => {
      const person = await findPersonByEmail(trx, tenant.apiId, email);
      if (purpose === 'signup' && person) return this.outbox.enqueue(trx, mails.alreadyRegistered(email, tenant.apiName, tenant.issuer));
      if (purpose === 'signin' && !person) return this.outbox.enqueue(trx, mails.noAccount(email, tenant.apiName, tenant.signupsOpen));
      const code = sixDigitCode();
      const now = this.clock.now();
      await aq.insertEmailCode(trx, {
        id: newId('pec'),
        api_id: tenant.apiId,
        email,
        code_hash: codeHash(tenant.apiId, purpose, email, code),
        expires_at: addMs(now, PERSON_CODE_TTL_MS),
        consumed_at: null,
        created_at: now,
      });
      const mail = purpose === 'signin' ? mails.signinCode(email, tenant.apiName, code) : mails.signupCode(email, tenant.apiName, code);
      await this.outbox.enqueue(trx, mail);
    });
    this.outbox.kick();
    return null;
  }

  /** The e-mailed code signs the person in (amr otp) and proves their address. */
  async signInWithCode(tenant: AccountTenant, rawEmail: string, code: string, ip: string): Promise<Proof | Refusal> {
    const limited = await this.#limit([[rules.codeVerifyPerIp, `${tenant.apiId}:${networkOf(ip)}`]]);
    if (limited) return limited;
    const email = normalizeEmail(rawEmail);
    return this.db.transaction().execute(async (trx): Promise<Proof | Refusal> => {
      if (!(await this.#takeCode(trx, tenant.apiId, 'signin', email, code))) return { refused: 'invalid_code' };
      const person = await findPersonByEmail(trx, tenant.apiId, email);
      if (!person) return { refused: 'invalid_code' };
      await aq.markEmailVerified(trx, tenant.apiId, person.id, this.clock.now());
      return { personId: person.id, suspended: person.status !== 'active', amr: ['otp'] };
    });
  }

  /**
   * Sign-up step 2: the code proves the address, then the person exists, verified, with a password.
   * Signing up is a sign-in with the password just set (amr pwd).
   */
  async signUp(tenant: AccountTenant, input: { email: string; code: string; name: string; password: string }, ip: string): Promise<Proof | Refusal> {
    if (!tenant.signupsOpen) return { refused: 'signups_closed' };
    const limited = await this.#limit([[rules.codeVerifyPerIp, `${tenant.apiId}:${networkOf(ip)}`]]);
    if (limited) return limited;
    const email = normalizeEmail(input.email);
    // Checked again: an invitation can be revoked between the code and this step.
    if (!(await this.signupPolicy.mayStart(tenant.apiId, email))) return { refused: 'invite_only' };
    // Hashed before the transaction: argon2 takes tens of milliseconds and a transaction holds a connection.
    const passwordHash = await hashPassword(input.password);
    try {
      return await this.db.transaction().execute(async (trx): Promise<Proof | Refusal> => {
        if (!(await this.#takeCode(trx, tenant.apiId, 'signup', email, input.code))) return { refused: 'invalid_code' };
        if (await findPersonByEmail(trx, tenant.apiId, email)) return { refused: 'email_taken' };
        const now = this.clock.now();
        const person = await insertPerson(trx, {
          id: newId('per'), api_id: tenant.apiId, email, email_verified: true, name: input.name.trim(), picture: null, password_hash: passwordHash,
          last_login_at: null, created_at: now, updated_at: now,
        });
        await this.signupPolicy.joinOnSignup(trx, tenant.apiId, person);
        return { personId: person.id, suspended: false, amr: ['pwd'] };
      });
    } catch (error) {
      // Two sign-ups of one address at once: the unique index refuses the second.
      if (isUniqueViolation(error, 'people_api_id_email_key')) return { refused: 'email_taken' };
      throw error;
    }
  }

  /**
   * A person changes their password on the portal: the current one proves it is them (a person who
   * signed in only with e-mailed codes has none, and sets a first one), and every other session of
   * theirs ends, as a console password change does.
   */
  async changePassword(apiId: string, personId: string, sessionId: string, current: string, next: string, ip: string): Promise<'changed' | Refusal> {
    const limited = await this.#limit([[rules.passwordPerIp, `${apiId}:${networkOf(ip)}`]]);
    if (limited) return limited;
    const person = await findPerson(this.db, apiId, personId);
    if (!person) return { refused: 'invalid_credentials' };
    if (person.password_hash && !(await verifyPassword(person.password_hash, current))) return { refused: 'invalid_credentials' };
    const passwordHash = await hashPassword(next);
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      await aq.setPasswordHash(trx, apiId, personId, passwordHash, now);
      await aq.endOtherSessions(trx, apiId, personId, sessionId, now);
    });
    return 'changed';
  }

  /** Spends the newest code for the address if it is this one: 10 minutes, 5 wrong tries, once. */
  async #takeCode(trx: Trx, apiId: string, purpose: CodePurpose, email: string, code: string): Promise<boolean> {
    const now = this.clock.now();
    const row = await aq.latestEmailCode(trx, apiId, email);
    if (!row || row.consumed_at || row.expires_at <= now || row.attempts >= PERSON_CODE_MAX_ATTEMPTS) return false;
    if (!constantTimeEqual(row.code_hash, codeHash(apiId, purpose, email, code))) {
      await aq.countCodeAttempt(trx, apiId, row.id);
      return false;
    }
    await aq.consumeEmailCode(trx, apiId, row.id, now);
    return true;
  }
}

/**
 * The table has no purpose column: the purpose is part of the hash, so a sign-up code cannot sign
 * anyone in and a sign-in code cannot make an account.
 */
function codeHash(apiId: string, purpose: CodePurpose, email: string, code: string): string {
  return sha256Hex(`${apiId}:${purpose}:${email}:${code}`);
}
