// A workspace's pages: create, settings (rename, delete), members and invitations, keys, audit log.
// /workspaces/:ws alone is the workspace's APIs.
import { Navigate, useParams, type RouteObject } from 'react-router';
import { AuditPage } from './audit-page.js';
import { KeysPage } from './keys-page.js';
import { MembersPage } from './members-page.js';
import { NewWorkspacePage } from './new-page.js';
import { SettingsPage } from './settings-page.js';

function WorkspaceHome() {
  const { ws } = useParams();
  return <Navigate to={`/workspaces/${ws}/apis`} replace />;
}

export const workspaceRoutes: RouteObject[] = [
  { path: 'workspaces/new', element: <NewWorkspacePage /> },
  { path: 'workspaces/:ws', element: <WorkspaceHome /> },
  { path: 'workspaces/:ws/members', element: <MembersPage /> },
  { path: 'workspaces/:ws/keys', element: <KeysPage /> },
  { path: 'workspaces/:ws/audit', element: <AuditPage /> },
  { path: 'workspaces/:ws/settings', element: <SettingsPage /> },
];
