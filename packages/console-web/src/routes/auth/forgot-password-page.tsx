// Forgot password (spec 5.1): an address, the 6-digit code mailed to it, then a new password. The
// reset ends every session; it signs in here unless two-factor is on (ResetBody.signed_in false),
// in which case the person signs in with the new password and their second factor.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { Solo } from '../../components/solo.js';
import { CodeStep, EmailStep } from './code-steps.js';
import { text, ticketSpent } from './form-text.js';

type Step = { at: 'email' } | { at: 'code'; email: string } | { at: 'password'; email: string; ticket: string } | { at: 'done'; email: string };

const sendCode = (email: string) => call(api.POST('/api/auth/password/forgot', { body: { email } }));

export function ForgotPasswordPage() {
  const [step, setStep] = useState<Step>({ at: 'email' });
  const send = useMutation({ mutationFn: sendCode, onSuccess: (_, email) => setStep({ at: 'code', email }) });
  const resend = useMutation({ mutationFn: sendCode });
  const verify = useMutation({
    mutationFn: (code: string) => call(api.POST('/api/auth/password/verify', { body: { email: step.at === 'email' ? '' : step.email, code } })),
    onSuccess: (answer) => step.at === 'code' && setStep({ at: 'password', email: step.email, ticket: answer.ticket }),
  });
  const restart = () => {
    send.reset();
    resend.reset();
    verify.reset();
    setStep({ at: 'email' });
  };

  switch (step.at) {
    case 'email':
      return (
        <Solo title="Reset your password">
          <EmailStep send={send} submitLabel="E-mail me a code">
            <p className="muted">Enter the address you sign in with. If it has an account, we e-mail it a 6-digit code.</p>
          </EmailStep>
          <div className="links">
            <Link to="/login">Back to sign in</Link>
          </div>
        </Solo>
      );
    case 'code':
      return (
        <Solo title="Check your e-mail">
          <CodeStep email={step.email} verify={verify} resend={resend} restart={restart} />
        </Solo>
      );
    case 'password':
      return <NewPasswordStep ticket={step.ticket} restart={restart} twoFactorOn={() => setStep({ at: 'done', email: step.email })} />;
    case 'done':
      return (
        <Solo title="Password changed">
          <p className="alert ok" role="status">
            Your new password is set, and every session of your account was signed out.
          </p>
          <p>Two-factor is on for this account, so sign in with the new password and a code from your authenticator app.</p>
          <Link className="button block" to={`/login?email=${encodeURIComponent(step.email)}`}>
            Sign in
          </Link>
        </Solo>
      );
  }
}

function NewPasswordStep({ ticket, restart, twoFactorOn }: { ticket: string; restart: () => void; twoFactorOn: () => void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const reset = useMutation({
    mutationFn: (password: string) => call(api.POST('/api/auth/password/reset', { body: { ticket, password } })),
    onSuccess: (answer) => {
      if (!answer.signed_in) return twoFactorOn();
      queryClient.clear();
      void navigate('/', { replace: true });
    },
  });
  const errors = fieldErrors(reset.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    reset.mutate(text(new FormData(event.currentTarget), 'password'));
  };
  return (
    <Solo title="Choose a new password">
      <p className="muted">Setting it signs out every session of your account.</p>
      <FormError error={reset.error} fields={['password']} />
      <form onSubmit={submit} noValidate>
        <Field label="New password" name="password" type="password" autoComplete="new-password" maxLength={72} required autoFocus hint="10 to 72 characters." error={errors.password} />
        <button type="submit" className="block" disabled={reset.isPending}>
          Set new password
        </button>
      </form>
      {ticketSpent(reset.error) ? (
        <div className="links">
          <button type="button" className="link" onClick={restart}>
            Start over with a new code
          </button>
        </div>
      ) : null}
    </Solo>
  );
}
