// Sign in: e-mail and password, then, with two-factor on, the authenticator or a recovery code
// (spec 5.1: LoginBody says two_factor_required and carries the challenge for /auth/login/2fa).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, call } from '../../api/client.js';
import { safeNext } from '../../app/session.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { Solo } from '../../components/solo.js';
import { text } from './form-text.js';

export function LoginPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const [challenge, setChallenge] = useState<string | null>(null);
  const [useRecovery, setUseRecovery] = useState(false);
  const next = safeNext(search.get('next'));
  // An address handed over by the page that sent the person here (an invitation, a reset).
  const knownEmail = search.get('email') ?? '';
  const done = () => {
    queryClient.clear();
    void navigate(next, { replace: true });
  };

  const login = useMutation({
    mutationFn: (body: { email: string; password: string }) => call(api.POST('/api/auth/login', { body })),
    onSuccess: (answer) => (answer.two_factor_required && answer.challenge ? setChallenge(answer.challenge) : done()),
  });
  const second = useMutation({
    mutationFn: (body: { challenge: string; code: string }) => call(api.POST('/api/auth/login/2fa', { body })),
    onSuccess: done,
  });

  if (challenge) {
    const errors = fieldErrors(second.error);
    const submit = (event: FormEvent<HTMLFormElement>) => {
      event.preventDefault();
      second.mutate({ challenge, code: text(new FormData(event.currentTarget), 'code').trim() });
    };
    return (
      <Solo title="Two-factor authentication">
        <p className="muted">{useRecovery ? 'Enter one of the recovery codes you saved when you turned two-factor on. Each works once.' : 'Enter the 6-digit code your authenticator app shows for Gatehouse.'}</p>
        <FormError error={second.error} fields={['code']} />
        <form onSubmit={submit} noValidate>
          <Field
            key={useRecovery ? 'recovery' : 'totp'}
            label={useRecovery ? 'Recovery code' : 'Authenticator code'}
            name="code"
            autoComplete="one-time-code"
            inputMode={useRecovery ? 'text' : 'numeric'}
            maxLength={20}
            required
            autoFocus
            error={errors.code}
          />
          <button type="submit" className="block" disabled={second.isPending}>
            Verify and sign in
          </button>
        </form>
        <div className="links">
          <button type="button" className="link" onClick={() => setUseRecovery(!useRecovery)}>
            {useRecovery ? 'Use the authenticator app instead' : 'Use a recovery code instead'}
          </button>
          <button type="button" className="link" onClick={() => setChallenge(null)}>
            Start over
          </button>
        </div>
      </Solo>
    );
  }

  const errors = fieldErrors(login.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    login.mutate({ email: text(form, 'email').trim(), password: text(form, 'password') });
  };
  return (
    <Solo title="Sign in to Gatehouse">
      <FormError error={login.error} fields={['email', 'password']} />
      <form onSubmit={submit}>
        <Field label="E-mail" name="email" type="email" autoComplete="username" maxLength={254} required autoFocus={!knownEmail} defaultValue={knownEmail} error={errors.email} />
        <Field label="Password" name="password" type="password" autoComplete="current-password" maxLength={200} required autoFocus={Boolean(knownEmail)} error={errors.password} />
        <button type="submit" className="block" disabled={login.isPending}>
          Sign in
        </button>
      </form>
      <div className="links">
        <Link to="/forgot-password">Forgot your password?</Link>
        <Link to="/signup">Create an account</Link>
      </div>
    </Solo>
  );
}
