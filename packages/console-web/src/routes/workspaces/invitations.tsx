// Invitations of a workspace: admins invite by e-mail with a role (owners are made by promotion,
// not invitation) and revoke open invitations; everyone sees who is invited and until when.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { InviteOut } from '../../api/records.js';
import { canAdmin } from '../../app/roles.js';
import { ConfirmButton } from '../../components/confirm.js';
import { Field, FormError, SelectField, fieldErrors } from '../../components/field.js';
import { formatTime } from '../../format/time.js';
import { INVITABLE_HINT } from './member-roles.js';
import { membersKey } from './queries.js';

type InvitableRole = 'admin' | 'editor' | 'viewer';

function InviteForm({ ws }: { ws: string }) {
  const client = useQueryClient();
  const invite = useMutation({
    mutationFn: (body: { email: string; role: InvitableRole }) => call(api.POST('/api/workspaces/{ws}/invites', { params: { path: { ws } }, body })),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey(ws) }),
  });
  const errors = fieldErrors(invite.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const element = event.currentTarget;
    const form = new FormData(element);
    invite.mutate({ email: String(form.get('email') ?? '').trim(), role: String(form.get('role')) as InvitableRole }, { onSuccess: () => element.reset() });
  };
  return (
    <form onSubmit={submit} aria-labelledby="invite-someone">
      <h3 id="invite-someone">Invite someone</h3>
      <FormError error={invite.error} fields={['email', 'role']} />
      {invite.isSuccess ? (
        <p className="alert ok" role="status">
          Invitation sent to {invite.data.email}. The link works for 7 days.
        </p>
      ) : null}
      <div className="toolbar inline-form">
        <Field label="E-mail" name="email" type="email" maxLength={254} required autoComplete="off" hint="A new address sets up an account from the link." error={errors.email} />
        <SelectField label="Role" name="role" defaultValue="editor" hint={INVITABLE_HINT} error={errors.role}>
          {(['admin', 'editor', 'viewer'] as const).map((role) => (
            <option key={role} value={role}>
              {role}
            </option>
          ))}
        </SelectField>
        <button type="submit" disabled={invite.isPending}>
          Send invitation
        </button>
      </div>
    </form>
  );
}

function RevokeInvite({ ws, invite }: { ws: string; invite: InviteOut }) {
  const client = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => call(api.DELETE('/api/workspaces/{ws}/invites/{id}', { params: { path: { ws, id: invite.id } } })),
    onSuccess: () => client.invalidateQueries({ queryKey: membersKey(ws) }),
  });
  return (
    <ConfirmButton label={
        <>
          Revoke<span className="visually-hidden"> the invitation of {invite.email}</span>
        </>
      } confirmLabel="Revoke invitation" title={`Revoke the invitation of ${invite.email}?`} onOpen={() => revoke.reset()} onConfirm={() => revoke.mutateAsync()}>
      <p>The link in their mail stops working at once.</p>
      <FormError error={revoke.error} />
    </ConfirmButton>
  );
}

export function Invitations({ ws, invites, callerRole }: { ws: string; invites: InviteOut[]; callerRole: string }) {
  const admin = canAdmin(callerRole);
  return (
    <section className="card" aria-labelledby="invitations">
      <h2 id="invitations">Invitations</h2>
      {admin ? <InviteForm ws={ws} /> : null}
      {invites.length === 0 ? (
        <p className="muted">No open invitations.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Open invitations</caption>
            <thead>
              <tr>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Sent</th>
                <th scope="col">Expires</th>
                {admin ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {invites.map((invite) => (
                <tr key={invite.id}>
                  <td>{invite.email}</td>
                  <td>{invite.role}</td>
                  <td className="nowrap">{formatTime(invite.created_at)}</td>
                  <td className="nowrap">{formatTime(invite.expires_at)}</td>
                  {admin ? (
                    <td>
                      <RevokeInvite ws={ws} invite={invite} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
