// What the sign-in pages' forms send, read and bounded before any service sees it. A bad field is
// answered on the page (400) naming it, never with a problem document.
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, SIGNIN_PASSWORD_MAX } from '../people/limits.js';

export type FormBody = Record<string, unknown>;

/** A field that failed its bounds: the message is shown above the form. */
export class FieldError {
  constructor(
    readonly field: string,
    readonly message: string,
  ) {}
}

/** One text field; a repeated field (an array) counts as absent. */
export function text(body: FormBody, name: string): string {
  const value = body[name];
  return typeof value === 'string' ? value : '';
}

/** Characters as a person counts them (code points), as the console's bounds count them. */
const length = (value: string) => [...value].length;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

export function email(body: FormBody): string | FieldError {
  const value = text(body, 'email').trim();
  if (value === '' || length(value) > EMAIL_MAX || !EMAIL_SHAPE.test(value)) return new FieldError('email', 'Enter your e-mail address.');
  return value;
}

/** A password typed to sign in: not empty, not absurdly long. */
export function signinPassword(body: FormBody): string | FieldError {
  const value = text(body, 'password');
  if (value === '' || length(value) > SIGNIN_PASSWORD_MAX) return new FieldError('password', 'Enter your password.');
  return value;
}

/** A new password: 10 to 72 characters (spec 2.4). */
export function newPassword(body: FormBody): string | FieldError {
  const value = text(body, 'password');
  if (length(value) < PASSWORD_MIN || length(value) > PASSWORD_MAX) {
    return new FieldError('password', `Choose a password of ${PASSWORD_MIN} to ${PASSWORD_MAX} characters.`);
  }
  return value;
}

/** A name: 1 to 100 characters once trimmed (spec 8). */
export function name(body: FormBody): string | FieldError {
  const value = text(body, 'name').trim();
  if (length(value) < 1 || length(value) > NAME_MAX) return new FieldError('name', `Enter your name (up to ${NAME_MAX} characters).`);
  return value;
}

/** The six digits of an e-mailed code; spaces a person pasted along are forgiven. */
export function code(body: FormBody): string | FieldError {
  const value = text(body, 'code').replace(/\s/g, '');
  if (!/^\d{6}$/.test(value)) return new FieldError('code', 'Enter the 6-digit code from the e-mail.');
  return value;
}
