// The person's name (PATCH /api/me). The address is the account's identity and is not changed here.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { UserOut } from '../../api/records.js';
import { meKey } from '../../app/session.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';

export function ProfileForm({ user }: { user: UserOut }) {
  const queryClient = useQueryClient();
  const rename = useMutation({
    mutationFn: (name: string) => call(api.PATCH('/api/me', { body: { name } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: meKey }),
  });
  const errors = fieldErrors(rename.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    rename.mutate(String(new FormData(event.currentTarget).get('name') ?? '').trim());
  };
  return (
    <form className="stack" onSubmit={submit} noValidate>
      <div className="field">
        <span className="label">E-mail</span>
        <span>{user.email}</span>
      </div>
      <Field label="Name" name="name" autoComplete="name" maxLength={100} required defaultValue={user.name} error={errors.name} hint="Shown to the members of your workspaces and in their audit logs." />
      <FormError error={rename.error} fields={['name']} />
      {rename.isSuccess ? (
        <p className="alert ok" role="status">
          Your name is saved.
        </p>
      ) : null}
      <button type="submit" disabled={rename.isPending}>
        Save name
      </button>
    </form>
  );
}
