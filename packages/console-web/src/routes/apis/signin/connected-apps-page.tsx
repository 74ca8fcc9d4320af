// Apps people connect (/apis/:api/signin/connected-apps): the apps that registered on their own or
// named themselves by a client ID metadata document, newest first with a cursor, with how many
// people connected each and when it was last used. Editors block one (confirmed: it signs nobody
// in and every grant it holds is revoked) or unblock it (grants stay revoked), or delete one
// (confirmed: it goes with its grants; a metadata document app comes back on its next use, so
// keeping one out is a block). Opens on the
// session, the API's record and the first page.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { canEdit } from '../../../app/roles.js';
import { useApiAndList, useApiId } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { Pager, useCursorStack } from '../../../components/pager.js';
import { Empty, QueryState } from '../../../components/states.js';
import { formatTime } from '../../../format/time.js';
import { connectedKey } from './keys.js';
import { SigninNav } from './signin-nav.js';
import type { ConnectedAppOut } from './types.js';

function useBlocking(apiId: string, app: ConnectedAppOut) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (block: boolean) =>
      call(api.POST(block ? '/api/apis/{api}/signin/connected-apps/block' : '/api/apis/{api}/signin/connected-apps/unblock', { params: { path: { api: apiId } }, body: { client_id: app.client_id } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: connectedKey(apiId) }),
  });
}

function BlockAction({ apiId, app }: { apiId: string; app: ConnectedAppOut }) {
  const blocking = useBlocking(apiId, app);
  if (app.blocked) {
    return (
      <>
        <button type="button" className="secondary" disabled={blocking.isPending} onClick={() => blocking.mutate(false)}>
          Unblock<span className="visually-hidden"> {app.name}</span>
        </button>
        <FormError error={blocking.error} />
      </>
    );
  }
  return (
    <ConfirmButton label={<>Block<span className="visually-hidden"> {app.name}</span></>} title={`Block ${app.name}`} confirmLabel="Block app" onOpen={() => blocking.reset()} onConfirm={() => blocking.mutateAsync(true)}>
      <p>
        {app.name} signs nobody in from now on, and every grant it holds is revoked: {app.people === 1 ? 'the one person' : `the ${app.people} people`} who connected it lose access through it. Unblocking later does not bring the grants back.
      </p>
      <FormError error={blocking.error} />
    </ConfirmButton>
  );
}

function DeleteConnected({ apiId, app }: { apiId: string; app: ConnectedAppOut }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/signin/connected-apps/delete', { params: { path: { api: apiId } }, body: { client_id: app.client_id } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: connectedKey(apiId) }),
  });
  return (
    <ConfirmButton label={<>Delete<span className="visually-hidden"> {app.name}</span></>} title={`Delete ${app.name}`} confirmLabel="Delete app" onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync()}>
      <p>
        {app.name} goes with every grant it holds, so its tokens stop working at once.{' '}
        {app.kind === 'metadata'
          ? 'It names itself by a metadata document, so it comes back the next time someone uses it: block it instead to keep it out.'
          : 'Its client ID is gone for good; it can register again as a new app while apps people connect are on.'}
      </p>
      <FormError error={remove.error} />
    </ConfirmButton>
  );
}

function ConnectedTable({ apiOut, apps }: { apiOut: ApiOut; apps: ConnectedAppOut[] }) {
  const editor = canEdit(apiOut.role);
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Apps people connect</caption>
        <thead>
          <tr>
            <th scope="col">Name and client ID</th>
            <th scope="col">How it came</th>
            <th scope="col">People</th>
            <th scope="col">Last used</th>
            <th scope="col">Status</th>
            {editor ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {apps.map((app) => (
            <tr key={app.client_id} data-testid={`connected-${app.client_id}`}>
              <td>
                {app.name} <span className="muted small">(unverified)</span>
                <div className="small">
                  <code>{app.client_id}</code>
                </div>
              </td>
              <td className="small">
                {app.kind === 'registered' ? 'Registered itself' : 'Metadata document'}, {app.application_type}
                <div className="muted">{app.host}</div>
              </td>
              <td>{app.people.toLocaleString('en-US')}</td>
              <td className="nowrap">{formatTime(app.last_used_at)}</td>
              <td>{app.blocked ? <StatusBadge status="suspended" label="blocked" /> : <StatusBadge status="active" label="allowed" />}</td>
              {editor ? (
                <td>
                  <div className="actions">
                    <BlockAction apiId={apiOut.id} app={app} />
                    <DeleteConnected apiId={apiOut.id} app={app} />
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

export function SigninConnectedAppsPage() {
  const apiId = useApiId();
  const pages = useCursorStack('');
  const list = useQuery({
    queryKey: [...connectedKey(apiId), pages.cursor],
    queryFn: () => call(api.GET('/api/apis/{api}/signin/connected-apps', { params: { path: { api: apiId }, query: pages.cursor ? { cursor: pages.cursor } : {} } })),
    placeholderData: keepPreviousData,
  });
  const both = useApiAndList(apiId, list);
  return (
    <QueryState query={both} loading="Loading the apps people connect…">
      {({ apiOut, list: body }) => (
        <>
          <PageHeader
            title={`Apps people connect to ${apiOut.name}`}
            description={
              <>
                Apps you did not add, such as MCP clients, that people connected on their own. Their names are their own words, unchecked. One unused for 30 days goes away on its own unless someone still holds a working refresh token; a blocked one is kept.
              </>
            }
          />
          <SigninNav apiId={apiOut.id} />
          {body.apps.length ? (
            <>
              <ConnectedTable apiOut={apiOut} apps={body.apps} />
              <Pager pages={pages} nextCursor={body.next_cursor} label="Pages of apps people connect" />
            </>
          ) : (
            <Empty title="No app connected yet">
              <p>
                Once apps people connect are on in the <Link to={`/apis/${apiOut.id}/signin`}>sign-in settings</Link>, the apps people use with {apiOut.name} appear here.
              </p>
            </Empty>
          )}
        </>
      )}
    </QueryState>
  );
}
