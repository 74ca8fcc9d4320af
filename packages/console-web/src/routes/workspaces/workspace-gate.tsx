// The workspace of the address (/workspaces/:ws/…) as the session knows it: its name and the
// caller's role come with GET /api/me, so a workspace page asks nothing more to decide what to show.
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import type { WorkspaceOut } from '../../api/records.js';
import { useSession } from '../../app/session.js';
import { usePageTitle } from '../../components/page.js';

/** The `:ws` of the address; pages under /workspaces/:ws are only reached with one. */
export function useWorkspaceId(): string {
  const { ws } = useParams();
  if (!ws) throw new Error('no :ws in this route');
  return ws;
}

function NoSuchWorkspace() {
  usePageTitle('Workspace not found');
  return (
    <div className="state" role="alert">
      <h1>Workspace not found</h1>
      <p>No workspace of yours has this address. It may have been deleted, or you may have left it.</p>
    </div>
  );
}

/** Renders the page for the workspace of the address, or says it is not one of the person's. */
export function WorkspaceGate({ children }: { children: (workspace: WorkspaceOut) => ReactNode }) {
  const ws = useWorkspaceId();
  const workspace = (useSession().workspaces ?? []).find((w) => w.id === ws);
  return workspace ? <>{children(workspace)}</> : <NoSuchWorkspace />;
}
