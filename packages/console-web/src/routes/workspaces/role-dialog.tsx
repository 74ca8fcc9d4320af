// Changing a member's role in a native <dialog> (focus kept inside, Escape closes, focus returns to
// the button): the roles offered are only those the caller may grant, and a refusal of the API
// (the last owner, a role too small) stays in the dialog in the API's words.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { MemberOut } from '../../api/records.js';
import type { Role } from '../../app/roles.js';
import { meKey } from '../../app/session.js';
import { FormError, fieldErrors } from '../../components/field.js';
import { LastOwnerHint, ROLE_HINTS, grantableRoles } from './member-roles.js';
import { membersKey } from './queries.js';

export function RoleDialog({ ws, member, callerRole, self }: { ws: string; member: MemberOut; callerRole: string; self: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const client = useQueryClient();
  const change = useMutation({
    mutationFn: (role: Role) => call(api.PUT('/api/workspaces/{ws}/members/{user_id}/role', { params: { path: { ws, user_id: member.user_id } }, body: { role } })),
    onSuccess: async () => {
      // One's own role is also the session's (what the pages show and hide).
      await Promise.all([client.invalidateQueries({ queryKey: membersKey(ws) }), self ? client.invalidateQueries({ queryKey: meKey }) : null]);
      dialog.current?.close();
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    change.mutate(String(new FormData(event.currentTarget).get('role')) as Role);
  };
  const roles = grantableRoles(callerRole);
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          change.reset();
          dialog.current?.showModal();
        }}
      >
        Change role<span className="visually-hidden"> of {member.name}</span>
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <h2 id={titleId}>Change the role of {member.name}</h2>
        <form onSubmit={submit}>
          <FormError error={change.error} fields={['role']} />
          <fieldset key={member.role}>
            <legend>Role (now {member.role})</legend>
            {roles.map((role) => (
              <label key={role} className="check">
                <input type="radio" name="role" value={role} defaultChecked={role === member.role} />
                <span>
                  <strong>{role}</strong> <span className="muted small">{ROLE_HINTS[role]}</span>
                </span>
              </label>
            ))}
          </fieldset>
          {fieldErrors(change.error).role ? <p className="field-error">{fieldErrors(change.error).role}</p> : null}
          <LastOwnerHint error={change.error} />
          <div className="actions">
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Cancel
            </button>
            <button type="submit" disabled={change.isPending}>
              Change role
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
