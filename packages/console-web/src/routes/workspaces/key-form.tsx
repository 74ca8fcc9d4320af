// Creating a workspace key (admins): a name and a role; the key itself is shown once, here, and
// only its hash is kept (spec 2.4 NewKeyBody).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { ShownOnce } from '../../components/copy.js';
import { Field, FormError, SelectField, fieldErrors } from '../../components/field.js';
import { INVITABLE_HINT } from './member-roles.js';
import { keysKey } from './queries.js';

type KeyRole = 'admin' | 'editor' | 'viewer';

export function KeyForm({ ws }: { ws: string }) {
  const client = useQueryClient();
  const create = useMutation({
    mutationFn: (body: { name: string; role: KeyRole }) => call(api.POST('/api/workspaces/{ws}/keys', { params: { path: { ws } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: keysKey(ws) }),
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    create.mutate({ name: String(form.get('name') ?? '').trim(), role: String(form.get('role')) as KeyRole }, { onSuccess: () => element.reset() });
  };
  return (
    <section className="card" aria-labelledby="new-key">
      <h2 id="new-key">New workspace key</h2>
      <p className="muted">For automation: send it as <code>Authorization: Bearer</code> to the console API; it acts with its role in this workspace.</p>
      {create.data ? (
        <>
          <ShownOnce value={create.data.key} label={`The key ${create.data.name} (${create.data.role}).`} testId="new-workspace-key" />
          <button type="button" className="secondary" onClick={() => create.reset()}>
            I have copied the key
          </button>
        </>
      ) : (
        <form onSubmit={submit}>
          <FormError error={create.error} fields={['name', 'role']} />
          <div className="toolbar inline-form">
            <Field label="Key name" name="name" maxLength={80} required autoComplete="off" hint="Where it is used, such as “Deploy bot”." error={errors.name} />
            <SelectField label="Role" name="role" defaultValue="editor" hint={INVITABLE_HINT} error={errors.role}>
              {(['admin', 'editor', 'viewer'] as const).map((role) => (
                <option key={role} value={role}>
                  {role}
                </option>
              ))}
            </SelectField>
            <button type="submit" disabled={create.isPending}>
              Create key
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
