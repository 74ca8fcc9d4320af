// Adding a role: its name, a description and the servers' permissions it gives (sensitive ones
// marked). The servers are read only once the form is opened, so the page opens on three requests.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.js';
import type { NewSigninRoleIn } from '../../../api/records.js';
import { StatusBadge } from '../../../components/badge.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { Loading } from '../../../components/states.js';
import { rolesKey, serversKey } from './keys.js';

const EMPTY = { name: '', description: '', permissions: [] as string[] };
const pick = (serverId: string, permission: string) => `${serverId} ${permission}`;

export function RoleForm({ apiId }: { apiId: string }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState(EMPTY);
  const servers = useQuery({
    queryKey: serversKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/servers', { params: { path: { api: apiId } } })),
    enabled: open,
  });
  const create = useMutation({
    mutationFn: (body: NewSigninRoleIn) => call(api.POST('/api/apis/{api}/signin/roles', { params: { path: { api: apiId } }, body })),
    onSuccess: () => {
      setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: rolesKey(apiId) });
    },
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate({
      name: draft.name.trim(),
      description: draft.description.trim(),
      permissions: draft.permissions.map((p) => {
        const [server_id, permission] = p.split(' ') as [string, string];
        return { server_id, permission };
      }),
    });
  };
  const toggle = (value: string, on: boolean) => setDraft({ ...draft, permissions: on ? [...draft.permissions, value] : draft.permissions.filter((p) => p !== value) });
  return (
    <section className="card" aria-labelledby="new-role-heading">
      <h2 id="new-role-heading">Add a role</h2>
      {open ? (
        <form onSubmit={submit} onChange={() => create.isError && create.reset()} noValidate aria-labelledby="new-role-heading">
          <Field label="Name" name="name" maxLength={64} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={errors.name} />
          <Field label="Description" name="description" maxLength={300} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} error={errors.description} />
          <fieldset>
            <legend>Permissions it gives</legend>
            {servers.isPending ? <Loading label="Loading the servers…" /> : null}
            {servers.error ? <FormError error={servers.error} /> : null}
            {servers.data && servers.data.servers.every((s) => s.permissions.length === 0) ? <p className="muted">No server has permissions yet: add them on the Servers page.</p> : null}
            {servers.data?.servers.map((server) =>
              server.permissions.map((p) => (
                <label key={pick(server.id, p.name)} className="check">
                  <input type="checkbox" checked={draft.permissions.includes(pick(server.id, p.name))} onChange={(e) => toggle(pick(server.id, p.name), e.target.checked)} />
                  <span>
                    <code>{p.name}</code> at {server.name} {p.sensitive ? <StatusBadge status="pending" label="sensitive" /> : null}
                  </span>
                </label>
              )),
            )}
            {errors.permissions ? <p className="field-error">{errors.permissions}</p> : null}
          </fieldset>
          <FormError error={create.error} fields={['name', 'description', 'permissions']} />
          <div className="actions">
            <button type="submit" disabled={create.isPending}>
              {create.isPending ? 'Adding…' : 'Add role'}
            </button>
          </div>
        </form>
      ) : (
        <button type="button" onClick={() => setOpen(true)}>
          New role
        </button>
      )}
    </section>
  );
}
