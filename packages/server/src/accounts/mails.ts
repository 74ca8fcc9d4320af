import { composeMail } from '../platform/mail/templates.js';

export const signupCode = (to: string, code: string) =>
  composeMail(to, `${code} is your Gatehouse sign-up code`, [
    `Your sign-up code is ${code}.`,
    'It works once, for 10 minutes. If you did not ask for it, ignore this mail.',
  ]);

export const resetCode = (to: string, code: string) =>
  composeMail(to, `${code} is your Gatehouse password reset code`, [
    `Your password reset code is ${code}.`,
    'It works once, for 10 minutes. If you did not ask to reset your password, ignore this mail: your password stays as it is.',
  ]);

export const alreadyRegistered = (to: string, consoleUrl: string) =>
  composeMail(
    to,
    'You already have a Gatehouse account',
    ['Someone asked to sign up with this address, which already has an account.', 'If it was you, sign in, or reset your password if you forgot it.'],
    { label: 'Sign in', url: consoleUrl },
  );
