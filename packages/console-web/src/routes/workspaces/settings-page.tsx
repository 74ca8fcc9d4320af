// /workspaces/:ws/settings: the workspace's name (admins rename it) and, for owners, deleting it
// with everything in it, confirmed by typing its name. Others read the name and nothing more.
import { useMutation } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import type { WorkspaceOut } from '../../api/records.js';
import { canAdmin, isOwner } from '../../app/roles.js';
import { useSession } from '../../app/session.js';
import { ConfirmButton } from '../../components/confirm.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { PageHeader } from '../../components/page.js';
import { formatTime } from '../../format/time.js';
import { useRefreshSession } from './queries.js';
import { WorkspaceGate } from './workspace-gate.js';

function RenameForm({ workspace }: { workspace: WorkspaceOut }) {
  const refreshSession = useRefreshSession();
  const rename = useMutation({
    mutationFn: (name: string) => call(api.PATCH('/api/workspaces/{ws}', { params: { path: { ws: workspace.id } }, body: { name } })),
    onSuccess: () => refreshSession(),
  });
  const errors = fieldErrors(rename.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    rename.mutate(String(new FormData(event.currentTarget).get('name') ?? '').trim());
  };
  return (
    <form className="stack" onSubmit={submit}>
      <FormError error={rename.error} fields={['name']} />
      {rename.isSuccess ? (
        <p className="alert ok" role="status">
          Renamed to {rename.data.name}.
        </p>
      ) : null}
      <Field key={workspace.name} label="Workspace name" name="name" defaultValue={workspace.name} maxLength={100} required error={errors.name} />
      <button type="submit" disabled={rename.isPending}>
        Rename workspace
      </button>
    </form>
  );
}

function DeleteWorkspace({ workspace }: { workspace: WorkspaceOut }) {
  const me = useSession();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/workspaces/{ws}', { params: { path: { ws: workspace.id } } })),
    onSuccess: async () => {
      // Away first, so this page never shows the workspace it just deleted as missing.
      const next = (me.workspaces ?? []).find((w) => w.id !== workspace.id);
      await navigate(next ? `/workspaces/${next.id}/apis` : '/workspaces/new', { replace: true });
      await refreshSession();
    },
  });
  return (
    <section className="card danger-zone" aria-labelledby="delete-workspace">
      <h2 id="delete-workspace">Delete this workspace</h2>
      <p className="muted">Deletes its APIs with their customers, keys, plans and ledgers, its members' places in it, its workspace keys and its audit log. This cannot be undone.</p>
      <ConfirmButton label="Delete workspace" title={`Delete ${workspace.name}?`} typeToConfirm={workspace.name} onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync()}>
        <p>Everything in the workspace goes with it, for every member. Its APIs stop answering their customers at once.</p>
        <FormError error={remove.error} />
      </ConfirmButton>
    </section>
  );
}

export function SettingsPage() {
  return (
    <WorkspaceGate>
      {(workspace) => (
        <>
          <PageHeader title="Workspace settings" description={`${workspace.name}: created ${formatTime(workspace.created_at)}. Your role: ${workspace.role}.`} />
          <section className="card" aria-labelledby="workspace-name">
            <h2 id="workspace-name">Name</h2>
            {canAdmin(workspace.role) ? (
              <RenameForm workspace={workspace} />
            ) : (
              <>
                <p>{workspace.name}</p>
                <p className="muted small">Admins and owners rename the workspace.</p>
              </>
            )}
          </section>
          {isOwner(workspace.role) ? <DeleteWorkspace workspace={workspace} /> : null}
        </>
      )}
    </WorkspaceGate>
  );
}
