// Turning two-factor on: the set-up answer's otpauth URI as a QR code and its base32 secret for
// typing in, then a code from the app to prove it works (POST /api/me/2fa/setup, then /enable).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { meKey } from '../../app/session.js';
import { CopyButton } from '../../components/copy.js';
import { Field, FormError } from '../../components/field.js';
import { formLevel, problemFields } from '../../components/problem-fields.js';
import { QrCode } from './qr-code.js';

const REFUSALS = { invalid_two_factor_code: 'code' };

/** A base32 secret in groups of four, as authenticator apps print them. */
const grouped = (secret: string) => secret.replace(/(.{4})/g, '$1 ').trim();

export function TwoFactorSetup({ onEnabled }: { onEnabled: (codes: string[]) => void }) {
  const queryClient = useQueryClient();
  const setup = useMutation({ mutationFn: () => call(api.POST('/api/me/2fa/setup')) });
  const enable = useMutation({
    mutationFn: (code: string) => call(api.POST('/api/me/2fa/enable', { body: { code } })),
    onSuccess: (answer) => {
      onEnabled(answer.recovery_codes ?? []);
      void queryClient.invalidateQueries({ queryKey: meKey });
    },
  });

  if (!setup.data) {
    return (
      <>
        <p>
          Two-factor is <strong>off</strong>. With it on, signing in also asks for a code from an authenticator app on your phone, so a stolen password is not enough.
        </p>
        <FormError error={setup.error} />
        <button type="button" disabled={setup.isPending} onClick={() => setup.mutate()}>
          Set up two-factor
        </button>
      </>
    );
  }

  const { secret, uri } = setup.data;
  const errors = problemFields(enable.error, REFUSALS);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    enable.mutate(String(new FormData(event.currentTarget).get('code') ?? '').replace(/\s+/g, ''));
  };
  return (
    <ol className="setup-steps">
      <li>
        <h3>Scan this QR code with your authenticator app</h3>
        <QrCode value={uri} title="QR code for your authenticator app" />
        <p className="small">
          On this device? <a href={uri}>Open the set-up link in your authenticator app</a>.
        </p>
      </li>
      <li>
        <h3>Or type this key into the app</h3>
        <div className="secret">
          <code data-testid="totp-secret">{grouped(secret)}</code>
          <CopyButton value={secret} label="Copy key" />
        </div>
      </li>
      <li>
        <h3>Enter the 6-digit code the app shows</h3>
        <form className="stack" onSubmit={submit} noValidate>
          <Field label="Authenticator code" name="code" autoComplete="one-time-code" inputMode="numeric" maxLength={20} required error={errors.code} />
          <FormError error={formLevel(enable.error, REFUSALS)} fields={['code']} />
          <div className="actions">
            <button type="submit" disabled={enable.isPending}>
              Turn on two-factor
            </button>
            <button type="button" className="secondary" onClick={() => {
                setup.reset();
                enable.reset();
              }}>
              Cancel set-up
            </button>
          </div>
        </form>
      </li>
    </ol>
  );
}
