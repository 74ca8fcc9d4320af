// Leaving a workspace: anyone may, except its last owner (the API refuses, and the dialog says so).
// After leaving the person goes to another workspace of theirs, or to make a new one.
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import type { WorkspaceOut } from '../../api/records.js';
import { useSession } from '../../app/session.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormError } from '../../components/field.js';
import { LastOwnerHint } from './member-roles.js';
import { useRefreshSession } from './queries.js';

export function LeaveButton({ workspace }: { workspace: WorkspaceOut }) {
  const me = useSession();
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const leave = useMutation({
    mutationFn: () => call(api.DELETE('/api/workspaces/{ws}/members/{user_id}', { params: { path: { ws: workspace.id, user_id: me.user.id } } })),
    onSuccess: async () => {
      const next = (me.workspaces ?? []).find((w) => w.id !== workspace.id);
      await navigate(next ? `/workspaces/${next.id}/apis` : '/workspaces/new', { replace: true });
      await refreshSession();
    },
  });
  return (
    <ConfirmButton label="Leave workspace" className="secondary" title={`Leave ${workspace.name}?`} onOpen={() => leave.reset()} onConfirm={() => leave.mutateAsync()}>
      <p>You lose access to its APIs, keys and audit log at once. Someone who runs it can invite you again.</p>
      <FormError error={leave.error} />
      <LastOwnerHint error={leave.error} />
    </ConfirmButton>
  );
}
