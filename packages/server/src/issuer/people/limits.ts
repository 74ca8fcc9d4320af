import { MINUTE } from '../../platform/clock.js';
import type { RateLimitRule } from '../../platform/rate-limit.js';

// The e-mailed one-time codes of the sign-in pages, as the console's (docs/decisions.md).
export const PERSON_CODE_TTL_MS = 10 * MINUTE;
export const PERSON_CODE_MAX_ATTEMPTS = 5;

// Bounds of what a person types (spec 2.4 and 8: names 1..100, passwords 10..72 when set).
export const EMAIL_MAX = 254;
export const NAME_MAX = 100;
export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 72;
/** A password typed to sign in may be longer than one we would set today (LoginInBody). */
export const SIGNIN_PASSWORD_MAX = 200;

// Abuse limits per API and e-mail address, and per client address. Keys carry the API id, so
// people of one sign-in service never spend the limits of another's.
export const personRateRules = {
  codeSendPerEmail: { name: 'person-code-send-email', points: 5, durationS: 3600 },
  codeSendPerIp: { name: 'person-code-send-ip', points: 30, durationS: 3600 },
  codeVerifyPerIp: { name: 'person-code-verify-ip', points: 30, durationS: 600 },
  passwordPerEmail: { name: 'person-password-email', points: 10, durationS: 900 },
  passwordPerIp: { name: 'person-password-ip', points: 100, durationS: 900 },
} satisfies Record<string, RateLimitRule>;
