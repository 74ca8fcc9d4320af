// /workspaces/:ws/keys: the workspace's keys for automation (never the key itself after it was
// shown), created and deleted by admins. Opening it asks the API one thing: GET keys.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.js';
import type { KeyOut, WorkspaceOut } from '../../api/records.js';
import { canAdmin } from '../../app/roles.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormError } from '../../components/field.js';
import { PageHeader } from '../../components/page.js';
import { Empty, QueryState } from '../../components/states.js';
import { formatTime } from '../../format/time.js';
import { KeyForm } from './key-form.js';
import { keysKey, useKeys } from './queries.js';
import { WorkspaceGate } from './workspace-gate.js';

function DeleteKey({ ws, workspaceKey }: { ws: string; workspaceKey: KeyOut }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/workspaces/{ws}/keys/{id}', { params: { path: { ws, id: workspaceKey.id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: keysKey(ws) }),
  });
  return (
    <ConfirmButton
      label={
        <>
          Delete<span className="visually-hidden"> the key {workspaceKey.name}</span>
        </>
      }
      confirmLabel="Delete key"
      title={`Delete the key ${workspaceKey.name}?`}
      onOpen={() => remove.reset()}
      onConfirm={() => remove.mutateAsync()}
    >
      <p>
        Anything still sending <code>{workspaceKey.prefix}…</code> is refused from now on.
      </p>
      <FormError error={remove.error} />
    </ConfirmButton>
  );
}

function KeysTable({ ws, keys, admin }: { ws: string; keys: KeyOut[]; admin: boolean }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Workspace keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Starts with</th>
            <th scope="col">Role</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            {admin ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {keys.map((workspaceKey) => (
            <tr key={workspaceKey.id}>
              <td>{workspaceKey.name}</td>
              <td>
                <code>{workspaceKey.prefix}…</code>
              </td>
              <td>{workspaceKey.role}</td>
              <td className="nowrap">{formatTime(workspaceKey.created_at)}</td>
              <td className="nowrap">{formatTime(workspaceKey.last_used_at)}</td>
              {admin ? (
                <td>
                  <DeleteKey ws={ws} workspaceKey={workspaceKey} />
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Keys({ workspace }: { workspace: WorkspaceOut }) {
  const keys = useKeys(workspace.id);
  const admin = canAdmin(workspace.role);
  return (
    <>
      <PageHeader title="Workspace keys" description={`Keys that let scripts and CI use the console API for ${workspace.name}.`} />
      {admin ? <KeyForm ws={workspace.id} /> : null}
      <h2>Keys</h2>
      <QueryState query={keys} loading="Loading keys…">
        {(body) =>
          body.keys.length ? (
            <KeysTable ws={workspace.id} keys={body.keys} admin={admin} />
          ) : (
            <Empty title="No workspace keys">
              <p>{admin ? 'Create one above for a script or a CI job.' : 'Admins create keys for scripts and CI jobs.'}</p>
            </Empty>
          )
        }
      </QueryState>
    </>
  );
}

export function KeysPage() {
  return <WorkspaceGate>{(workspace) => <Keys workspace={workspace} />}</WorkspaceGate>;
}
