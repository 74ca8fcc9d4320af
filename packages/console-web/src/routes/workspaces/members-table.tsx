// The members of a workspace: name, e-mail, role, two-factor and when they joined, with the role
// and removal controls the caller's role allows (none for viewers and editors).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.js';
import type { MemberOut } from '../../api/records.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormError } from '../../components/field.js';
import { StatusBadge } from '../../components/badge.js';
import { formatTime } from '../../format/time.js';
import { canChangeRole, canRemove } from './member-roles.js';
import { membersKey } from './queries.js';
import { RoleDialog } from './role-dialog.js';

function RemoveMember({ ws, member }: { ws: string; member: MemberOut }) {
  const client = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/workspaces/{ws}/members/{user_id}', { params: { path: { ws, user_id: member.user_id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey(ws) }),
  });
  return (
    <ConfirmButton label={
        <>
          Remove<span className="visually-hidden"> {member.name}</span>
        </>
      } confirmLabel="Remove member" title={`Remove ${member.name}?`} onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync()}>
      <p>
        {member.name} ({member.email}) loses access to this workspace at once. You can invite them again later.
      </p>
      <FormError error={remove.error} />
    </ConfirmButton>
  );
}

export function MembersTable({ ws, members, callerRole, selfId }: { ws: string; members: MemberOut[]; callerRole: string; selfId: string }) {
  const controls = members.some((m) => canChangeRole(callerRole, m) || canRemove(callerRole, m, selfId));
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Members</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">E-mail</th>
            <th scope="col">Role</th>
            <th scope="col">Two-factor</th>
            <th scope="col">Joined</th>
            {controls ? <th scope="col">Actions</th> : null}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => (
            <tr key={member.user_id}>
              <td>
                {member.name}
                {member.user_id === selfId ? <span className="muted"> (you)</span> : null}
              </td>
              <td>{member.email}</td>
              <td>
                <StatusBadge status={`role-${member.role}`} label={member.role} />
              </td>
              <td>{member.two_factor ? <StatusBadge status="active" label="on" /> : <StatusBadge status="off" label="off" />}</td>
              <td className="nowrap">{formatTime(member.joined_at)}</td>
              {controls ? (
                <td>
                  <div className="actions">
                    {canChangeRole(callerRole, member) ? <RoleDialog ws={ws} member={member} callerRole={callerRole} self={member.user_id === selfId} /> : null}
                    {canRemove(callerRole, member, selfId) ? <RemoveMember ws={ws} member={member} /> : null}
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
