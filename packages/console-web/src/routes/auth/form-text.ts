/** A text field of a submitted form, as typed. */
export const text = (form: FormData, name: string) => String(form.get(name) ?? '');

/** A mailed or authenticator code as typed or pasted: spaces forgiven. */
export const codeText = (form: FormData, name = 'code') => text(form, name).replace(/\s+/g, '');
