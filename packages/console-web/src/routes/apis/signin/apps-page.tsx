// The owner's apps of an API's sign-in service (/apis/:api/signin/apps): the list, adding one
// (a web app's secret shown once), rotating a web app's secret (admin; the old one works 24 hours
// more) and deleting (editor, confirmed). Secrets live only in this page's state: leaving the page
// forgets them. Changing an app's name, URIs and options (editor) happens in a dialog. Opens on the
// API's record (shared with the frame) and the list.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../../api/client.js';
import type { ApiOut, SigninAppOut } from '../../../api/records.js';
import { canAdmin, canEdit } from '../../../app/roles.js';
import { useApiAndList, useApiId } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { ShownOnce } from '../../../components/copy.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { Empty, QueryState } from '../../../components/states.js';
import { formatTime } from '../../../format/time.js';
import { AppForm } from './app-form.js';
import { EditDialog } from './edit-dialog.js';
import { appsKey } from './keys.js';
import { SigninNav } from './signin-nav.js';

const KIND_NAMES: Record<SigninAppOut['kind'], string> = { web: 'web', spa: 'single-page', native: 'native' };

interface Shown {
  appName: string;
  secret: string;
  rotated: boolean;
}

function RotateSecret({ apiId, app, onRotated }: { apiId: string; app: SigninAppOut; onRotated: (shown: Shown) => void }) {
  const queryClient = useQueryClient();
  const rotate = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/signin/apps/{id}/secret/rotate', { params: { path: { api: apiId, id: app.id } } })),
    onSuccess: (rotated) => {
      void queryClient.invalidateQueries({ queryKey: appsKey(apiId) });
      onRotated({ appName: rotated.name, secret: rotated.client_secret, rotated: true });
    },
  });
  return (
    <ConfirmButton label={<>Rotate secret<span className="visually-hidden"> of {app.name}</span></>} title={`Rotate the secret of ${app.name}`} confirmLabel="Rotate secret" onOpen={() => rotate.reset()} onConfirm={() => rotate.mutateAsync()}>
      <p>A new client secret is made now and shown once. The old one keeps working for 24 hours, time to deploy the new one.</p>
      <FormError error={rotate.error} />
    </ConfirmButton>
  );
}

function DeleteApp({ apiId, app }: { apiId: string; app: SigninAppOut }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/signin/apps/{id}', { params: { path: { api: apiId, id: app.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: appsKey(apiId) }),
  });
  return (
    <ConfirmButton label={<>Delete<span className="visually-hidden"> {app.name}</span></>} title={`Delete ${app.name}`} confirmLabel="Delete app" onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync()}>
      <p>People can no longer sign in to {app.name}; every token and grant it holds is revoked. This cannot be undone.</p>
      <FormError error={remove.error} />
    </ConfirmButton>
  );
}

function AppsTable({ apiOut, apps, onRotated }: { apiOut: ApiOut; apps: SigninAppOut[]; onRotated: (shown: Shown) => void }) {
  const editor = canEdit(apiOut.role);
  const admin = canAdmin(apiOut.role);
  if (apps.length === 0) {
    return (
      <Empty title="No apps yet">
        <p>{editor ? 'Add your web, single-page or native app below to sign people in with this API.' : 'An editor adds the apps that sign people in.'}</p>
      </Empty>
    );
  }
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Apps</caption>
        <thead>
          <tr>
            <th scope="col">Name and client ID</th>
            <th scope="col">Kind</th>
            <th scope="col">Redirect and sign-out URIs</th>
            <th scope="col">Secret</th>
            <th scope="col">Last used</th>
            {editor ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {apps.map((app) => (
            <tr key={app.id} data-testid={`app-${app.id}`}>
              <td>
                {app.name}
                {app.own_app ? <span className="muted small"> (your own)</span> : null}
                {app.blocked ? <> <StatusBadge status="suspended" label="blocked" /></> : null}
                <div>
                  <code className="small">{app.id}</code>
                </div>
              </td>
              <td>{KIND_NAMES[app.kind]}</td>
              <td className="small">
                {app.redirect_uris.map((uri) => (
                  <div key={uri}>{uri}</div>
                ))}
                {app.post_logout_redirect_uris.map((uri) => (
                  <div key={uri} className="muted">
                    sign-out: {uri}
                  </div>
                ))}
              </td>
              <td className="small">
                {app.has_secret ? 'yes' : <span className="muted">none</span>}
                {app.previous_secret_valid_until ? <div data-testid="previous-app-secret">old one until {formatTime(app.previous_secret_valid_until)}</div> : null}
              </td>
              <td className="nowrap">{formatTime(app.last_used_at)}</td>
              {editor ? (
                <td>
                  {/* Stacked: the table keeps within the page at 1280 pixels. */}
                  <div className="actions" style={{ flexDirection: 'column', alignItems: 'stretch' }}>
                    <EditDialog label={<>Edit<span className="visually-hidden"> {app.name}</span></>} title={`Edit ${app.name}`}>
                      {(done, titleId) => <AppForm apiId={apiOut.id} app={app} labelledBy={titleId} onSaved={done} onCancel={done} />}
                    </EditDialog>
                    {admin && app.kind === 'web' ? <RotateSecret apiId={apiOut.id} app={app} onRotated={onRotated} /> : null}
                    <DeleteApp apiId={apiOut.id} app={app} />
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

export function SigninAppsPage() {
  const apiId = useApiId();
  const apps = useQuery({
    queryKey: appsKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/apps', { params: { path: { api: apiId } } })),
    select: (answer) => answer.apps,
  });
  const [shown, setShown] = useState<Shown | null>(null);
  const both = useApiAndList(apiId, apps);
  return (
    <QueryState query={both} loading="Loading the apps…">
      {({ apiOut, list }) => (
        <>
          <PageHeader
            title={`Apps of ${apiOut.name}`}
            description={<>Your own web, single-page and native apps that sign people in with {apiOut.name}.</>}
          />
          <SigninNav apiId={apiOut.id} />
          {shown ? (
            <div className="shown-once">
              <ShownOnce value={shown.secret} label={shown.rotated ? `The new client secret of ${shown.appName}.` : `${shown.appName} is added. Its client secret:`} testId="client-secret" />
              <div className="actions">
                <button type="button" className="secondary" onClick={() => setShown(null)}>
                  I have copied it
                </button>
              </div>
            </div>
          ) : null}
          <AppsTable apiOut={apiOut} apps={list} onRotated={setShown} />
          {canEdit(apiOut.role) ? (
            <section className="card" aria-labelledby="new-app-heading">
              <h2 id="new-app-heading">Add an app</h2>
              <AppForm
                apiId={apiOut.id}
                labelledBy="new-app-heading"
                onSaved={(app) => setShown(app.client_secret ? { appName: app.name, secret: app.client_secret, rotated: false } : null)}
              />
            </section>
          ) : null}
        </>
      )}
    </QueryState>
  );
}
