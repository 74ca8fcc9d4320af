// What a page's form sends, read and bounded before any service sees it. A bad field is answered
// on the page (400) naming it, never with a problem document. The bounds come from the face that
// reads the form: each face's capability owns the lengths it stores.
import { textFault } from '../text.js';

export type FormBody = Record<string, unknown>;

/** A field that failed its bounds: the message is shown above the form. */
export class FieldError {
  constructor(
    readonly field: string,
    readonly message: string,
  ) {}
}

/** The body of a form post as fields; anything that is not an object counts as no fields. */
export function formBody(body: unknown): FormBody {
  return (body !== null && typeof body === 'object' ? body : {}) as FormBody;
}

/**
 * One text field; a repeated field (an array) counts as absent, and so does a value that breaks
 * the text rule (NUL, a lone surrogate), so the field's own check names it on the page.
 */
export function text(body: FormBody, name: string): string {
  const value = body[name];
  return typeof value === 'string' && textFault(value) === null ? value : '';
}

/** Characters as a person counts them (code points), as the console's bounds count them. */
export const length = (value: string) => [...value].length;

/**
 * A field's value to fill back into a form shown again (after a refusal), cut to the longest the
 * field takes, so a megabyte sent in is not a megabyte sent back.
 */
export function echo(body: FormBody, name: string, max: number): string {
  return [...text(body, name)].slice(0, max).join('');
}

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

export function email(body: FormBody, max: number): string | FieldError {
  const value = text(body, 'email').trim();
  if (value === '' || length(value) > max || !EMAIL_SHAPE.test(value)) return new FieldError('email', 'Enter your e-mail address.');
  return value;
}

/** A password typed to sign in: not empty, not absurdly long. */
export function signinPassword(body: FormBody, max: number, field = 'password'): string | FieldError {
  const value = text(body, field);
  if (value === '' || length(value) > max) return new FieldError(field, 'Enter your password.');
  return value;
}

/** A new password of `min` to `max` characters (spec 2.4: 10 to 72). */
export function newPassword(body: FormBody, min: number, max: number): string | FieldError {
  const value = text(body, 'password');
  if (length(value) < min || length(value) > max) return new FieldError('password', `Choose a password of ${min} to ${max} characters.`);
  return value;
}

/** A name: 1 to `max` characters once trimmed (spec 8: 100). */
export function name(body: FormBody, max: number): string | FieldError {
  const value = text(body, 'name').trim();
  if (length(value) < 1 || length(value) > max) return new FieldError('name', `Enter your name (up to ${max} characters).`);
  return value;
}

/** The six digits of an e-mailed code; spaces a person pasted along are forgiven. */
export function code(body: FormBody): string | FieldError {
  const value = text(body, 'code').replace(/\s/g, '');
  if (!/^\d{6}$/.test(value)) return new FieldError('code', 'Enter the 6-digit code from the e-mail.');
  return value;
}
