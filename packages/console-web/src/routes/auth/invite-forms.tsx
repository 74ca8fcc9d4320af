// Accepting an invitation: as the invited account already signed in (one button), or as a new
// address with a name and a password. A refusal that means "sign in as the invited address"
// (409 invite_account_mismatch: a session that ended or changed in another tab) says so and links
// to sign in, coming back to the invitation.
import type { UseMutationResult } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link } from 'react-router';
import { ProblemError } from '../../api/client.js';
import type { AcceptedBody } from '../../api/records.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { text } from './form-text.js';

export type Accept = UseMutationResult<AcceptedBody, unknown, { name?: string; password?: string }>;

const isMismatch = (error: unknown) => error instanceof ProblemError && error.code === 'invite_account_mismatch';

function Refusal({ accept, signIn }: { accept: Accept; signIn: string }) {
  if (isMismatch(accept.error)) {
    return (
      <div className="alert error" role="alert">
        <p>{(accept.error as ProblemError).message}: this browser is not signed in as that address now.</p>
        <p>
          <Link to={signIn}>Sign in as the invited address</Link>
        </p>
      </div>
    );
  }
  return <FormError error={accept.error} fields={['name', 'password']} />;
}

export function AcceptAsSignedIn({ accept, workspace, email, signIn }: { accept: Accept; workspace: string; email: string; signIn: string }) {
  // Refused as another account: the session changed since the page was opened, so this page's
  // idea of who is signed in is stale; only signing in as the invited address helps.
  if (isMismatch(accept.error)) return <Refusal accept={accept} signIn={signIn} />;
  return (
    <>
      <p>
        You are signed in as <strong>{email}</strong>.
      </p>
      <Refusal accept={accept} signIn={signIn} />
      <button type="button" className="block" disabled={accept.isPending} onClick={() => accept.mutate({})}>
        Join {workspace}
      </button>
    </>
  );
}

export function AcceptAsNewAddress({ accept, workspace, signIn }: { accept: Accept; workspace: string; signIn: string }) {
  const errors = fieldErrors(accept.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    accept.mutate({ name: text(form, 'name').trim(), password: text(form, 'password') });
  };
  return (
    <>
      <p className="muted">Choose your name and a password to create your account.</p>
      <Refusal accept={accept} signIn={signIn} />
      <form onSubmit={submit} noValidate>
        <Field label="Your name" name="name" autoComplete="name" maxLength={100} required autoFocus error={errors.name} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" maxLength={72} required hint="10 to 72 characters." error={errors.password} />
        <button type="submit" className="block" disabled={accept.isPending}>
          Create account and join {workspace}
        </button>
      </form>
    </>
  );
}
