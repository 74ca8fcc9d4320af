// Open invitations to become a customer: who was invited and until when the link works; an editor
// sends one again (a new link, good for 7 more days) or revokes it (confirmed). Asked for only when
// opened, so the customers page keeps its requests on open.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../api/client.js';
import type { ResponseOf } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormError } from '../../components/field.js';
import { Empty, QueryState } from '../../components/states.js';
import { formatTime } from '../../format/time.js';

type InviteOut = ResponseOf<'/api/apis/{api}/customers/invites', 'get'>['invites'][number];
export const customerInvitesKey = (apiId: string) => key('/api/apis/{api}/customers/invites', apiId);

function InviteRow({ apiId, invite, onResent }: { apiId: string; invite: InviteOut; onResent: (email: string) => void }) {
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: customerInvitesKey(apiId) });
  const path = { api: apiId, invite: invite.id };
  // A resent invitation is a new one (a new link), so its row is replaced: the page says it was sent.
  const resend = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/customers/invites/{invite}/resend', { params: { path } })),
    onSuccess: () => {
      onResent(invite.email);
      refresh();
    },
  });
  const revoke = useMutation({ mutationFn: () => call(api.DELETE('/api/apis/{api}/customers/invites/{invite}', { params: { path } })), onSuccess: refresh });
  return (
    <tr data-testid={`customer-invite-${invite.id}`}>
      <td>{invite.email}</td>
      <td className="small">{formatTime(invite.created_at)}</td>
      <td className="small">{formatTime(invite.expires_at)}</td>
      <td>
        <div className="actions">
          <button type="button" className="secondary" onClick={() => resend.mutate()} disabled={resend.isPending}>
            Resend
            <span className="visually-hidden"> to {invite.email}</span>
          </button>
          <ConfirmButton label={<>Revoke<span className="visually-hidden"> the invitation of {invite.email}</span></>} title={`Revoke the invitation of ${invite.email}`} confirmLabel="Revoke invitation" onOpen={() => revoke.reset()} onConfirm={() => revoke.mutateAsync()}>
            <p>The link in the mail stops working. You can invite the address again later.</p>
            <FormError error={revoke.error} />
          </ConfirmButton>
        </div>
        <FormError error={resend.error} />
      </td>
    </tr>
  );
}

function InvitesTable({ apiId }: { apiId: string }) {
  const [resent, setResent] = useState<string | null>(null);
  const invites = useQuery({ queryKey: customerInvitesKey(apiId), queryFn: () => call(api.GET('/api/apis/{api}/customers/invites', { params: { path: { api: apiId } } })) });
  return (
    <QueryState query={invites} loading="Loading the invitations…">
      {(answer) =>
        answer.invites.length === 0 ? (
          <Empty title="No open invitations" />
        ) : (
          <div className="table-wrap">
            {resent ? (
              <p className="alert ok" role="status">
                Invitation sent again to {resent}, with a new link good for 7 days.
              </p>
            ) : null}
            <table>
              <caption className="visually-hidden">Open invitations, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Sent</th>
                  <th scope="col">Link works until</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {answer.invites.map((invite) => (
                  <InviteRow key={invite.id} apiId={apiId} invite={invite} onResent={setResent} />
                ))}
              </tbody>
            </table>
          </div>
        )
      }
    </QueryState>
  );
}

export function CustomerInvites({ apiId }: { apiId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="card" aria-labelledby="customer-invites-title">
      <h2 id="customer-invites-title">Open invitations</h2>
      {open ? (
        <InvitesTable apiId={apiId} />
      ) : (
        <button type="button" className="secondary" onClick={() => setOpen(true)}>
          Show open invitations
        </button>
      )}
    </section>
  );
}
