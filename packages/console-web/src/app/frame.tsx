// The frame of every signed-in page: a top bar (home, the workspace switcher, the account, sign
// out) and a side navigation of the workspace and, on an API's pages, of that API.
import { useMutation } from '@tanstack/react-query';
import { NavLink, Outlet, useNavigate, useParams } from 'react-router';
import { api, call } from '../api/client.js';
import { Brand } from './brand.js';
import { useResetSession, useSession } from './session.js';
import { useApiQuery } from './use-api.js';
import { rememberWorkspace, useWorkspace } from './workspace.js';
import { useEffect } from 'react';

function SignOut() {
  const navigate = useNavigate();
  const reset = useResetSession();
  const signOut = useMutation({
    mutationFn: () => call(api.POST('/api/auth/logout')),
    onSettled: () => {
      reset();
      void navigate('/login', { replace: true });
    },
  });
  return (
    <button type="button" className="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </button>
  );
}

function WorkspaceSwitcher({ current }: { current: string | null }) {
  const me = useSession();
  const navigate = useNavigate();
  const workspaces = me.workspaces ?? [];
  return (
    <>
      <label htmlFor="workspace-switcher" className="visually-hidden">
        Workspace
      </label>
      <select
        id="workspace-switcher"
        value={current ?? ''}
        onChange={(event) => {
          if (event.target.value === '+new') return void navigate('/workspaces/new');
          rememberWorkspace(event.target.value);
          void navigate(`/workspaces/${event.target.value}/apis`);
        }}
      >
        {workspaces.map((workspace) => (
          <option key={workspace.id} value={workspace.id}>
            {workspace.name}
          </option>
        ))}
        <option value="+new">New workspace…</option>
      </select>
    </>
  );
}

export function Frame() {
  const me = useSession();
  const params = useParams();
  const apiQuery = useApiQuery(params.api);
  const workspace = useWorkspace(params.ws ?? apiQuery.data?.workspace_id);
  useEffect(() => {
    if (workspace) rememberWorkspace(workspace.id);
  }, [workspace]);
  const ws = workspace?.id;
  const apiId = params.api;
  return (
    <>
      <a href="#content" className="skip-link">
        Skip to content
      </a>
      <header className="topbar">
        <Brand />
        {ws ? <WorkspaceSwitcher current={ws} /> : null}
        <span className="spacer" />
        <NavLink to="/account">{me.user.name}</NavLink>
        <SignOut />
      </header>
      <div className="frame">
        <nav className="sidenav" aria-label="Console">
          {ws ? (
            <>
              <h2>Workspace</h2>
              <ul>
                <li><NavLink to={`/workspaces/${ws}/apis`} end>APIs</NavLink></li>
                <li><NavLink to={`/workspaces/${ws}/members`}>Members</NavLink></li>
                <li><NavLink to={`/workspaces/${ws}/keys`}>Workspace keys</NavLink></li>
                <li><NavLink to={`/workspaces/${ws}/audit`}>Audit log</NavLink></li>
                <li><NavLink to={`/workspaces/${ws}/settings`}>Settings</NavLink></li>
              </ul>
            </>
          ) : null}
          {apiId ? (
            <>
              <h2>API</h2>
              <span className="api-name">{apiQuery.data?.name ?? '…'}</span>
              <ul>
                <li><NavLink to={`/apis/${apiId}`} end>Dashboard</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/connect`}>Connect</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/customers`}>Customers</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/ledger`}>Ledger</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/plans`}>Plans</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/payments`}>Payments</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/plan`}>Platform plan</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/settings`}>Settings</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/webhooks`}>Webhooks</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/domain`}>Custom domain</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/signin`} end>Sign-in</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/signin/apps`}>Sign-in apps</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/signin/servers`}>Servers</NavLink></li>
                <li><NavLink to={`/apis/${apiId}/signin/roles`}>Roles</NavLink></li>
              </ul>
            </>
          ) : null}
          <h2>You</h2>
          <ul>
            <li><NavLink to="/account">Account</NavLink></li>
          </ul>
        </nav>
        <main className="page" id="content">
          <Outlet />
        </main>
      </div>
    </>
  );
}
