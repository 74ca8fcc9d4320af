import { DAY, MINUTE } from '../platform/clock.js';
import type { RateLimitRule } from '../platform/rate-limit.js';

// Lifetimes of spec 5.1 and issue "foundation" item 3.
export const EMAIL_CODE_TTL_MS = 10 * MINUTE;
export const EMAIL_CODE_MAX_ATTEMPTS = 5;
export const TICKET_TTL_MS = 30 * MINUTE;
export const LOGIN_CHALLENGE_TTL_MS = 5 * MINUTE;
export const LOGIN_CHALLENGE_MAX_ATTEMPTS = 5;
export const SESSION_TTL_MS = 30 * DAY;
/** last_seen_at is written at most this often, so reads stay reads. */
export const SESSION_TOUCH_MS = 5 * MINUTE;
export const RECOVERY_CODE_COUNT = 10;

// Abuse limits, per e-mail address and per client address. Owners see them in docs/decisions.md.
export const rateRules = {
  codeSendPerEmail: { name: 'code-send-email', points: 5, durationS: 3600 },
  codeSendPerIp: { name: 'code-send-ip', points: 30, durationS: 3600 },
  codeVerifyPerIp: { name: 'code-verify-ip', points: 30, durationS: 600 },
  loginPerEmail: { name: 'login-email', points: 10, durationS: 900 },
  loginPerIp: { name: 'login-ip', points: 100, durationS: 900 },
  twoFactorPerIp: { name: 'two-factor-ip', points: 30, durationS: 600 },
  // Per account, whatever the address: someone who has the password gets this many wrong
  // authenticator or recovery codes, and this many login challenges, per 15 minutes.
  secondFactorFailuresPerUser: { name: 'second-factor-fail-user', points: 10, durationS: 900 },
  loginChallengesPerUser: { name: 'login-challenge-user', points: 10, durationS: 900 },
} satisfies Record<string, RateLimitRule>;
