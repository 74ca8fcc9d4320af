// The servers of an API's sign-in service (/apis/:api/signin/servers): the APIs and MCP servers
// tokens are for, with their permissions (sensitive marked) and per-person limit. Adding one shows
// its `rs_` client ID and secret once; rotating (admin) shows the new secret once while the old one
// works 24 hours more; deleting (editor) is confirmed; changing name, URL, limit and permissions
// (editor) happens in a dialog. Secrets live only in this page's state.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../../api/client.js';
import type { ApiOut, SigninServerOut } from '../../../api/records.js';
import { canAdmin, canEdit } from '../../../app/roles.js';
import { useApiAndList, useApiId } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { CopyButton, ShownOnce } from '../../../components/copy.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { Empty, QueryState } from '../../../components/states.js';
import { formatTime } from '../../../format/time.js';
import { EditDialog } from './edit-dialog.js';
import { serversKey } from './keys.js';
import { ServerForm } from './server-form.js';
import { SigninNav } from './signin-nav.js';

interface Shown {
  serverName: string;
  clientId: string;
  secret: string;
  rotated: boolean;
}

function RotateSecret({ apiId, server, onRotated }: { apiId: string; server: SigninServerOut; onRotated: (shown: Shown) => void }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/signin/servers/{id}/secret/rotate', { params: { path: { api: apiId, id: server.id } } })),
    onSuccess: (rotated) => {
      void queryClient.invalidateQueries({ queryKey: serversKey(apiId) });
      onRotated({ serverName: rotated.name, clientId: rotated.client_id, secret: rotated.client_secret, rotated: true });
    },
  });
  return (
    <ConfirmButton label={<>Rotate secret<span className="visually-hidden"> of {server.name}</span></>} title={`Rotate the secret of ${server.name}`} confirmLabel="Rotate secret" onOpen={() => rotate.reset()} onConfirm={() => rotate.mutateAsync()}>
      <p>A new secret for {server.client_id} is made now and shown once. The old one keeps working for 24 hours, time to deploy the new one to the server.</p>
      <FormError error={rotate.error} />
    </ConfirmButton>
  );
}

function DeleteServer({ apiId, server }: { apiId: string; server: SigninServerOut }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/signin/servers/{id}', { params: { path: { api: apiId, id: server.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: serversKey(apiId) }),
  });
  return (
    <ConfirmButton label={<>Delete<span className="visually-hidden"> {server.name}</span></>} title={`Delete ${server.name}`} confirmLabel="Delete server" onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync()}>
      <p>Apps can no longer get tokens for {server.resource_url}, and its permissions leave every role. This cannot be undone.</p>
      <FormError error={remove.error} />
    </ConfirmButton>
  );
}

function ServersTable({ apiOut, servers, onRotated }: { apiOut: ApiOut; servers: SigninServerOut[]; onRotated: (shown: Shown) => void }) {
  const editor = canEdit(apiOut.role);
  const admin = canAdmin(apiOut.role);
  if (servers.length === 0) {
    return (
      <Empty title="No servers yet">
        <p>{editor ? 'Add the API or MCP server that people’s tokens are for below.' : 'An editor adds the servers tokens are for.'}</p>
      </Empty>
    );
  }
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Servers</caption>
        <thead>
          <tr>
            <th scope="col">Name and resource URL</th>
            <th scope="col">Client ID</th>
            <th scope="col">Permissions</th>
            <th scope="col">Requests a minute</th>
            {editor ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {servers.map((server) => (
            <tr key={server.id} data-testid={`server-${server.id}`}>
              <td>
                {server.name}
                <div className="small muted">{server.resource_url}</div>
              </td>
              <td className="small">
                <code>{server.client_id}</code>
                {server.previous_secret_valid_until ? <div data-testid="previous-server-secret">old secret until {formatTime(server.previous_secret_valid_until)}</div> : null}
              </td>
              <td className="small">
                {server.permissions.length === 0 ? <span className="muted">none</span> : null}
                {server.permissions.map((p) => (
                  <div key={p.name}>
                    <code>{p.name}</code> {p.sensitive ? <StatusBadge status="pending" label="sensitive" /> : null}
                    {p.description ? <span className="muted"> {p.description}</span> : null}
                  </div>
                ))}
              </td>
              <td>{server.requests_per_minute === null ? <span className="muted">no limit</span> : server.requests_per_minute.toLocaleString('en-US')}</td>
              {editor ? (
                <td>
                  <div className="actions" style={{ flexDirection: 'column', alignItems: 'stretch' }}>
                    <EditDialog label={<>Edit<span className="visually-hidden"> {server.name}</span></>} title={`Edit ${server.name}`}>
                      {(done, titleId) => <ServerForm apiId={apiOut.id} server={server} labelledBy={titleId} onSaved={done} onCancel={done} />}
                    </EditDialog>
                    {admin ? <RotateSecret apiId={apiOut.id} server={server} onRotated={onRotated} /> : null}
                    <DeleteServer apiId={apiOut.id} server={server} />
                  </div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function SigninServersPage() {
  const apiId = useApiId();
  const servers = useQuery({
    queryKey: serversKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/servers', { params: { path: { api: apiId } } })),
    select: (answer) => answer.servers,
  });
  const [shown, setShown] = useState<Shown | null>(null);
  const both = useApiAndList(apiId, servers);
  return (
    <QueryState query={both} loading="Loading the servers…">
      {({ apiOut, list }) => (
        <>
          <PageHeader
            title={`Servers of ${apiOut.name}`}
            description={<>The APIs and MCP servers that people’s tokens from {apiOut.name} are for. A server checks tokens by introspection with its own client ID and secret.</>}
          />
          <SigninNav apiId={apiOut.id} />
          {shown ? (
            <div className="shown-once">
              <p>
                Client ID of {shown.serverName}: <code data-testid="server-client-id">{shown.clientId}</code> <CopyButton value={shown.clientId} label="Copy client ID" />
              </p>
              <ShownOnce value={shown.secret} label={shown.rotated ? `The new secret of ${shown.serverName}; the old one works 24 hours more.` : `${shown.serverName} is added. Its secret:`} testId="server-secret" />
              <div className="actions">
                <button type="button" className="secondary" onClick={() => setShown(null)}>
                  I have copied it
                </button>
              </div>
            </div>
          ) : null}
          <ServersTable apiOut={apiOut} servers={list} onRotated={setShown} />
          {canEdit(apiOut.role) ? (
            <section className="card" aria-labelledby="new-server-heading">
              <h2 id="new-server-heading">Add a server</h2>
              <ServerForm
                apiId={apiOut.id}
                labelledBy="new-server-heading"
                onSaved={(server) => server.client_secret && setShown({ serverName: server.name, clientId: server.client_id, secret: server.client_secret, rotated: false })}
              />
            </section>
          ) : null}
        </>
      )}
    </QueryState>
  );
}
