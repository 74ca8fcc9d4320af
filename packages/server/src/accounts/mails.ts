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

export const secondFactorPaused = (to: string, failures: number, minutes: number, consoleUrl: string) =>
  composeMail(
    to,
    'Two-factor sign-in to your Gatehouse account is paused',
    [
      `Someone entered ${failures} wrong two-factor codes for your account within ${minutes} minutes. To get that far they needed your password.`,
      `Two-factor sign-in is paused for ${minutes} minutes. If this was not you, sign in when the pause ends and change your password.`,
    ],
    { label: 'Open Gatehouse', url: consoleUrl },
  );
