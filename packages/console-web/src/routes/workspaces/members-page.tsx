// /workspaces/:ws/members: who is in the workspace and with what role, the open invitations, and
// leaving. Opening it asks one thing of the API (GET members, which carries the invitations too).
import type { WorkspaceOut } from '../../api/records.js';
import { canAdmin } from '../../app/roles.js';
import { useSession } from '../../app/session.js';
import { Empty, QueryState } from '../../components/states.js';
import { PageHeader } from '../../components/page.js';
import { Invitations } from './invitations.js';
import { LeaveButton } from './leave-button.js';
import { MembersTable } from './members-table.js';
import { useMembers } from './queries.js';
import { WorkspaceGate } from './workspace-gate.js';

function Members({ workspace }: { workspace: WorkspaceOut }) {
  const me = useSession();
  const members = useMembers(workspace.id);
  return (
    <>
      <PageHeader
        title="Members"
        description={`The people of ${workspace.name} and what each may do. ${canAdmin(workspace.role) ? 'You manage members as ' : 'Your role is '}${workspace.role}.`}
        actions={<LeaveButton workspace={workspace} />}
      />
      <QueryState query={members} loading="Loading members…">
        {(body) => (
          <>
            {body.members?.length ? (
              <MembersTable ws={workspace.id} members={body.members} callerRole={workspace.role} selfId={me.user.id} />
            ) : (
              <Empty title="No members">
                <p>Nobody is in this workspace.</p>
              </Empty>
            )}
            <Invitations ws={workspace.id} invites={body.invites ?? []} callerRole={workspace.role} />
          </>
        )}
      </QueryState>
    </>
  );
}

export function MembersPage() {
  return <WorkspaceGate>{(workspace) => <Members workspace={workspace} />}</WorkspaceGate>;
}
