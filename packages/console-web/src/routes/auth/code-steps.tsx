// The two steps that start sign-up and a password reset (spec 5.1): an address, then the 6-digit
// code mailed to it, which buys a one-time ticket for the last step. A new code can be asked for
// (it supersedes the older one), and the address changed.
import type { UseMutationResult } from '@tanstack/react-query';
import type { FormEvent, ReactNode } from 'react';
import { Field, FormError } from '../../components/field.js';
import { formLevel, problemFields } from '../../components/problem-fields.js';
import { codeText, text } from './form-text.js';

type Mutation<V> = UseMutationResult<unknown, unknown, V>;

export function EmailStep({ send, submitLabel, children }: { send: Mutation<string>; submitLabel: string; children?: ReactNode }) {
  const errors = problemFields(send.error, {});
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    send.mutate(text(new FormData(event.currentTarget), 'email').trim());
  };
  return (
    <>
      {children}
      <FormError error={send.error} fields={['email']} />
      <form onSubmit={submit} noValidate>
        <Field label="E-mail" name="email" type="email" autoComplete="email" maxLength={254} required autoFocus error={errors.email} />
        <button type="submit" className="block" disabled={send.isPending}>
          {submitLabel}
        </button>
      </form>
    </>
  );
}

/** A wrong or expired code is about the code field; so is a code that is not 6 characters. */
const CODE_REFUSALS = { invalid_code: 'code' };

export function CodeStep({ email, verify, resend, restart }: { email: string; verify: Mutation<string>; resend: Mutation<string>; restart: () => void }) {
  const errors = problemFields(verify.error, CODE_REFUSALS);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    verify.mutate(codeText(new FormData(event.currentTarget)));
  };
  return (
    <>
      <p className="muted">
        We sent a 6-digit code to <strong>{email}</strong>. It works once, for 10 minutes.
      </p>
      {resend.isSuccess && !verify.error ? (
        <p className="alert ok" role="status">
          We sent a new code to {email}. Use the newest one.
        </p>
      ) : null}
      <FormError error={formLevel(verify.error, CODE_REFUSALS) ?? resend.error} fields={['code']} />
      <form onSubmit={submit} noValidate>
        <Field label="Code from the e-mail" name="code" autoComplete="one-time-code" inputMode="numeric" required autoFocus error={errors.code} />
        <button type="submit" className="block" disabled={verify.isPending}>
          Continue
        </button>
      </form>
      <div className="links">
        <button type="button" className="link" disabled={resend.isPending} onClick={() => {
            verify.reset();
            resend.mutate(email);
          }}>
          Send a new code
        </button>
        <button type="button" className="link" onClick={restart}>
          Use another address
        </button>
      </div>
    </>
  );
}
