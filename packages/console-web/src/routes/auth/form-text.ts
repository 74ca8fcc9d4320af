import { ProblemError } from '../../api/client.js';

/** A text field of a submitted form, as typed. */
export const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/** A mailed or authenticator code as typed or pasted: spaces forgiven. */
export const codeText = (form: FormData, name = 'code') => text(form, name).replace(/\s+/g, '');

/** The last step's ticket is spent or expired (or the address was taken meanwhile): only a new code helps. */
export const ticketSpent = (error: unknown) => error instanceof ProblemError && (error.code === 'invalid_ticket' || error.code === 'email_taken');
