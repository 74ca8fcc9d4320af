// The sign-in pages' form readers: the platform's readers (platform/pages/forms.ts) held to the
// bounds of the sign-in service's people (people/limits.ts).
import * as fields from '../../platform/pages/forms.js';
import type { FieldError, FormBody } from '../../platform/pages/forms.js';
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN, SIGNIN_PASSWORD_MAX } from '../people/limits.js';

export { text, code } from '../../platform/pages/forms.js';

/** A field's value to fill back into a form shown again, cut to the longest the field takes. */
export const echo = (body: FormBody, name: 'email' | 'name'): string => fields.echo(body, name, name === 'email' ? EMAIL_MAX : NAME_MAX);

export const email = (body: FormBody): string | FieldError => fields.email(body, EMAIL_MAX);

/** A password typed to sign in: not empty, not absurdly long. */
export const signinPassword = (body: FormBody): string | FieldError => fields.signinPassword(body, SIGNIN_PASSWORD_MAX);

/** A new password: 10 to 72 characters (spec 2.4). */
export const newPassword = (body: FormBody): string | FieldError => fields.newPassword(body, PASSWORD_MIN, PASSWORD_MAX);

/** A name: 1 to 100 characters once trimmed (spec 8). */
export const name = (body: FormBody): string | FieldError => fields.name(body, NAME_MAX);
