// `/`: the APIs of the workspace the person was last in, or making a first workspace.
import { Navigate } from 'react-router';
import { useWorkspace } from '../app/workspace.js';

export function HomePage() {
  const workspace = useWorkspace();
  return <Navigate to={workspace ? `/workspaces/${workspace.id}/apis` : '/workspaces/new'} replace />;
}
