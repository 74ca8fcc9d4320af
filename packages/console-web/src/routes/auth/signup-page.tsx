// Sign up (spec 5.1): an address, the 6-digit code mailed to it, then a name, a password and the
// first workspace's name; the account starts signed in on that workspace's APIs page.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { Solo } from '../../components/solo.js';
import { CodeStep, EmailStep } from './code-steps.js';
import { text, ticketSpent } from './form-text.js';

type Step = { at: 'email' } | { at: 'code'; email: string } | { at: 'account'; email: string; ticket: string };

const sendCode = (email: string) => call(api.POST('/api/auth/signup', { body: { email } }));

export function SignupPage() {
  const [step, setStep] = useState<Step>({ at: 'email' });
  const send = useMutation({ mutationFn: sendCode, onSuccess: (_, email) => setStep({ at: 'code', email }) });
  const resend = useMutation({ mutationFn: sendCode });
  const verify = useMutation({
    mutationFn: (code: string) => call(api.POST('/api/auth/signup/verify', { body: { email: step.at === 'email' ? '' : step.email, code } })),
    onSuccess: (answer) => step.at === 'code' && setStep({ at: 'account', email: step.email, ticket: answer.ticket }),
  });
  const restart = () => {
    send.reset();
    resend.reset();
    verify.reset();
    setStep({ at: 'email' });
  };

  if (step.at === 'email') {
    return (
      <Solo title="Create your Gatehouse account">
        <EmailStep send={send} submitLabel="E-mail me a code">
          <p className="muted">We will e-mail you a 6-digit code to prove the address is yours.</p>
        </EmailStep>
        <div className="links">
          <span>
            Have an account? <Link to="/login">Sign in</Link>
          </span>
        </div>
      </Solo>
    );
  }
  if (step.at === 'code') {
    return (
      <Solo title="Check your e-mail">
        <CodeStep email={step.email} verify={verify} resend={resend} restart={restart} />
      </Solo>
    );
  }
  return <AccountStep email={step.email} ticket={step.ticket} restart={restart} />;
}

function AccountStep({ email, ticket, restart }: { email: string; ticket: string; restart: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const complete = useMutation({
    mutationFn: (body: { ticket: string; name: string; password: string; workspace?: string }) => call(api.POST('/api/auth/signup/complete', { body })),
    onSuccess: (session) => {
      queryClient.clear();
      void navigate(session.workspace_id ? `/workspaces/${session.workspace_id}/apis` : '/', { replace: true });
    },
  });
  const errors = fieldErrors(complete.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const workspace = text(form, 'workspace').trim();
    complete.mutate({ ticket, name: text(form, 'name').trim(), password: text(form, 'password'), ...(workspace ? { workspace } : {}) });
  };
  return (
    <Solo title="Set up your account">
      <p className="muted">
        Signing up as <strong>{email}</strong>.
      </p>
      <FormError error={complete.error} fields={['name', 'password', 'workspace']} />
      <form onSubmit={submit} noValidate>
        <Field label="Your name" name="name" autoComplete="name" maxLength={100} required autoFocus error={errors.name} />
        <Field label="Password" name="password" type="password" autoComplete="new-password" maxLength={72} required hint="10 to 72 characters." error={errors.password} />
        <Field label="Workspace name (optional)" name="workspace" autoComplete="organization" maxLength={100} hint="Your APIs live in a workspace you can share with your team. Your name is used when you leave this empty." error={errors.workspace} />
        <button type="submit" className="block" disabled={complete.isPending}>
          Create account
        </button>
      </form>
      {ticketSpent(complete.error) ? (
        <div className="links">
          <button type="button" className="link" onClick={restart}>
            Start over with a new code
          </button>
        </div>
      ) : null}
    </Solo>
  );
}
