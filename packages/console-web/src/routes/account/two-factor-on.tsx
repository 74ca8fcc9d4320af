// Two-factor is on: new recovery codes (an authenticator code, not a recovery code, proves the
// person still holds the app) or turning it off (password and code). Both change what signs in, so
// both are confirmed first.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { meKey } from '../../app/session.js';
import { ConfirmButton } from '../../components/confirm.js';
import { Field, FormError } from '../../components/field.js';
import { formLevel, problemFields } from '../../components/problem-fields.js';

const REFUSALS = { invalid_two_factor_code: 'code', wrong_password: 'password' };
const noSubmit = (event: FormEvent) => event.preventDefault();

export function TwoFactorOn({ onNewCodes }: { onNewCodes: (codes: string[]) => void }) {
  return (
    <>
      <p>
        <span className="badge active">On</span> Signing in asks for a code from your authenticator app, or one of your recovery codes.
      </p>
      <RegenerateCodes onNewCodes={onNewCodes} />
      <TurnOff />
    </>
  );
}

function RegenerateCodes({ onNewCodes }: { onNewCodes: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const regenerate = useMutation({
    mutationFn: () => call(api.POST('/api/me/2fa/recovery-codes', { body: { code: code.replace(/\s+/g, '') } })),
    onSuccess: (answer) => onNewCodes(answer.recovery_codes ?? []),
  });
  const errors = problemFields(regenerate.error, REFUSALS);
  return (
    <section aria-labelledby="regenerate-heading">
      <h3 id="regenerate-heading">New recovery codes</h3>
      <p className="muted small">Lost your codes, or used most of them? New ones replace every code you have now.</p>
      <form className="stack" onSubmit={noSubmit} noValidate>
        <Field label="Authenticator code" name="code" autoComplete="one-time-code" inputMode="numeric" maxLength={20} value={code} onChange={(event) => setCode(event.target.value)} error={errors.code} />
        <FormError error={formLevel(regenerate.error, REFUSALS)} fields={['code']} />
        <ConfirmButton label="Replace recovery codes" title="Replace your recovery codes?" danger={false} className="secondary" onConfirm={() => regenerate.mutateAsync().catch(() => undefined)}>
          <p>Every recovery code you have now stops working. The new codes are shown once.</p>
        </ConfirmButton>
      </form>
    </section>
  );
}

function TurnOff() {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const disable = useMutation({
    mutationFn: () => call(api.POST('/api/me/2fa/disable', { body: { password, code: code.replace(/\s+/g, '') } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meKey }),
  });
  const errors = problemFields(disable.error, REFUSALS);
  return (
    <section aria-labelledby="turn-off-heading">
      <h3 id="turn-off-heading">Turn off two-factor</h3>
      <p className="muted small">Signing in then needs only your password. Your recovery codes stop working.</p>
      <form className="stack" onSubmit={noSubmit} noValidate>
        <Field label="Password" name="password" type="password" autoComplete="current-password" maxLength={200} value={password} onChange={(event) => setPassword(event.target.value)} error={errors.password} />
        <Field label="Authenticator code" name="code" autoComplete="one-time-code" inputMode="numeric" maxLength={20} value={code} onChange={(event) => setCode(event.target.value)} error={errors.code} />
        <FormError error={formLevel(disable.error, REFUSALS)} fields={['password', 'code']} />
        <ConfirmButton label="Turn off two-factor" title="Turn off two-factor?" onConfirm={() => disable.mutateAsync().catch(() => undefined)}>
          <p>Anyone with your password could then sign in as you.</p>
        </ConfirmButton>
      </form>
    </section>
  );
}
