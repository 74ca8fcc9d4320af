// Adding or changing a role: its name, a description and the servers' permissions it gives
// (sensitive ones marked); a change sends the whole permission list, which replaces the old one.
// The servers are read only once the form is shown, so the roles page opens on three requests.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.js';
import type { NewSigninRoleIn, SigninRoleOut } from '../../../api/records.js';
import { StatusBadge } from '../../../components/badge.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { Loading } from '../../../components/states.js';
import { peopleKey, rolesKey, serversKey } from './keys.js';

const EMPTY = { name: '', description: '', permissions: [] as string[] };
const pick = (serverId: string, permission: string) => `${serverId} ${permission}`;
const draftOf = (role: SigninRoleOut) => ({ name: role.name, description: role.description, permissions: role.permissions.map((p) => pick(p.server_id, p.permission)) });

interface RoleFormProps {
  apiId: string;
  /** The role to change; without it the form adds one. */
  role?: SigninRoleOut;
  labelledBy: string;
  onSaved?: () => void;
  onCancel?: () => void;
}

export function RoleForm({ apiId, role, labelledBy, onSaved, onCancel }: RoleFormProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => (role ? draftOf(role) : EMPTY));
  const servers = useQuery({
    queryKey: serversKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/servers', { params: { path: { api: apiId } } })),
  });
  const save = useMutation({
    mutationFn: (body: NewSigninRoleIn) =>
      role
        ? call(api.PATCH('/api/apis/{api}/signin/roles/{id}', { params: { path: { api: apiId, id: role.id } }, body }))
        : call(api.POST('/api/apis/{api}/signin/roles', { params: { path: { api: apiId } }, body })),
    onSuccess: () => {
      if (!role) setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: rolesKey(apiId) });
      // People's rows name their roles.
      if (role) void queryClient.invalidateQueries({ queryKey: peopleKey(apiId) });
      onSaved?.();
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate({
      name: draft.name.trim(),
      description: draft.description.trim(),
      permissions: draft.permissions.map((p) => {
        const [server_id, permission] = p.split(' ') as [string, string];
        return { server_id, permission };
      }),
    });
  };
  const toggle = (value: string, on: boolean) => setDraft({ ...draft, permissions: on ? [...draft.permissions, value] : draft.permissions.filter((p) => p !== value) });
  const permissionError = errors.permissions ?? Object.entries(errors).find(([k]) => k.startsWith('permissions.'))?.[1];
  return (
    <form onSubmit={submit} onChange={() => save.isError && save.reset()} noValidate aria-labelledby={labelledBy}>
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
        {permissionError ? <p className="field-error">{permissionError}</p> : null}
      </fieldset>
      <FormError error={save.error} fields={Object.keys(errors)} />
      <div className="actions">
        {onCancel ? (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? (role ? 'Saving…' : 'Adding…') : role ? 'Save role' : 'Add role'}
        </button>
      </div>
    </form>
  );
}

/** The "Add a role" card: the form (and the servers' read) only once "New role" is pressed. */
export function NewRoleCard({ apiId }: { apiId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card" aria-labelledby="new-role-heading">
      <h2 id="new-role-heading">Add a role</h2>
      {open ? (
        <RoleForm apiId={apiId} labelledBy="new-role-heading" />
      ) : (
        <button type="button" onClick={() => setOpen(true)}>
          New role
        </button>
      )}
    </section>
  );
}
