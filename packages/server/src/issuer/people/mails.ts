// Mails of the sign-in pages, in the API's name: the person signs in to the API, not to Gatehouse.
import { composeMail } from '../../platform/mail/templates.js';

export const signinCode = (to: string, apiName: string, code: string) =>
  composeMail(to, `${code} is your ${apiName} sign-in code`, [
    `Your code to sign in to ${apiName} is ${code}.`,
    'It works once, for 10 minutes. If you did not ask for it, ignore this mail: nobody can sign in without it.',
  ]);

export const signupCode = (to: string, apiName: string, code: string) =>
  composeMail(to, `${code} is your ${apiName} sign-up code`, [
    `Your code to create your ${apiName} account is ${code}.`,
    'It works once, for 10 minutes. If you did not ask for it, ignore this mail.',
  ]);

/** Sign-up for an address that has an account: its owner hears of it, the form answers as usual. */
export const alreadyRegistered = (to: string, apiName: string, issuer: string) =>
  composeMail(
    to,
    `You already have a ${apiName} account`,
    [`Someone asked to create a ${apiName} account with this address, which already has one.`, 'If it was you, sign in instead: you can ask for a code by e-mail if you forgot your password.'],
    { label: 'Sign in', url: issuer },
  );

/** A code asked for an address without an account: no code, but its owner learns why. */
export const noAccount = (to: string, apiName: string, signupsOpen: boolean) =>
  composeMail(to, `Sign-in to ${apiName}`, [
    `Someone asked for a code to sign in to ${apiName} with this address, but it has no ${apiName} account.`,
    signupsOpen ? 'If it was you, create an account on the sign-in page.' : 'If you expected one, ask whoever invited you which address they used.',
  ]);
