// Changing the password (POST /api/me/password): the current one, then the new one. The API holds
// the bounds (10 to 72 characters, a 422 on the field); the form says them beforehand.
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { Field, FormError } from '../../components/field.js';
import { formLevel, problemFields } from '../../components/problem-fields.js';

const REFUSALS = { wrong_password: 'current_password' };

export function PasswordForm() {
  const change = useMutation({
    mutationFn: (body: { current_password: string; password: string }) => call(api.POST('/api/me/password', { body })),
  });
  const errors = problemFields(change.error, REFUSALS);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    change.mutate(
      { current_password: String(data.get('current_password') ?? ''), password: String(data.get('password') ?? '') },
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <Field label="Current password" name="current_password" type="password" autoComplete="current-password" maxLength={200} required error={errors.current_password} />
      <Field label="New password" name="password" type="password" autoComplete="new-password" maxLength={72} required hint="10 to 72 characters. Changing it signs out your other sessions." error={errors.password} />
      <FormError error={formLevel(change.error, REFUSALS)} fields={['current_password', 'password']} />
      {change.isSuccess ? (
        <p className="alert ok" role="status">
          Your password is changed. Your other sessions were signed out.
        </p>
      ) : null}
      <button type="submit" disabled={change.isPending}>
        Change password
      </button>
    </form>
  );
}
