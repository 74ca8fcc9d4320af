// The link of a workspace invitation mail ({BASE_URL}/invites/<token>): what the invitation is for
// (GET /api/invites/{token}), then accepting it as this browser stands. A new address sets a name
// and a password; an address with an account must be signed in as it (the API answers 409
// otherwise), so a visitor signed out, or signed in as someone else, is sent to sign in as the
// invited address and brought back here.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, call, isUnauthenticated, ProblemError } from '../../api/client.js';
import type { InviteInfo } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { meKey, useMeQuery } from '../../app/session.js';
import { ErrorState, Loading } from '../../components/states.js';
import { Solo } from '../../components/solo.js';
import { formatTime } from '../../format/time.js';
import { AcceptAsNewAddress, AcceptAsSignedIn, type Accept } from './invite-forms.js';

export function InvitePage() {
  const { token = '' } = useParams();
  const info = useQuery({
    queryKey: key('/api/invites/{token}', token),
    queryFn: () => call(api.GET('/api/invites/{token}', { params: { path: { token } } })),
  });
  const me = useMeQuery();

  if (info.isPending || me.isPending) {
    return (
      <Solo title="Invitation">
        <Loading label="Opening the invitation…" />
      </Solo>
    );
  }
  if (info.error instanceof ProblemError && info.error.status === 404) return <Unusable />;
  if (info.error || !info.data) {
    return (
      <Solo title="Invitation">
        <ErrorState error={info.error} retry={() => void info.refetch()} />
      </Solo>
    );
  }
  if (me.error && !isUnauthenticated(me.error)) {
    return (
      <Solo title="Invitation">
        <ErrorState error={me.error} retry={() => void me.refetch()} />
      </Solo>
    );
  }
  return <Invitation token={token} invitation={info.data} signedInAs={me.data?.user.email ?? null} />;
}

function Unusable() {
  return (
    <Solo title="This invitation cannot be used">
      <p>It is unknown, was used already, was revoked, or has expired. Ask whoever invited you for a new invitation.</p>
      <div className="links">
        <Link to="/login">Sign in</Link>
        <Link to="/signup">Create an account</Link>
      </div>
    </Solo>
  );
}

/** Sign-in as the invited address, coming back to this invitation after. */
const signInPath = (token: string, email: string) => `/login?${new URLSearchParams({ next: `/invites/${token}`, email })}`;

function Invitation({ token, invitation, signedInAs }: { token: string; invitation: InviteInfo; signedInAs: string | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const accept: Accept = useMutation({
    mutationFn: (body: { name?: string; password?: string }) => call(api.POST('/api/invites/{token}/accept', { params: { path: { token } }, body })),
    onSuccess: (answer) => {
      // A new account comes with a session; an existing one gained a workspace: read /me again.
      queryClient.clear();
      void navigate(answer.workspace_id ? `/workspaces/${answer.workspace_id}/apis` : '/', { replace: true });
    },
  });
  const signOut = useMutation({
    mutationFn: () => call(api.POST('/api/auth/logout')),
    onSettled: () => queryClient.resetQueries({ queryKey: meKey }),
  });
  const signIn = signInPath(token, invitation.email);
  const isInvitee = signedInAs === invitation.email;

  let body;
  if (signedInAs && !isInvitee) {
    body = (
      <>
        <p className="alert warning" role="status">
          You are signed in as <strong>{signedInAs}</strong>, but this invitation is for <strong>{invitation.email}</strong>. Only that address can accept it.
        </p>
        <button type="button" className="block" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
          Sign out of {signedInAs}
        </button>
      </>
    );
  } else if (isInvitee) {
    body = <AcceptAsSignedIn accept={accept} workspace={invitation.workspace} email={invitation.email} signIn={signIn} />;
  } else if (invitation.account_exists) {
    body = (
      <>
        <p>
          <strong>{invitation.email}</strong> already has a Gatehouse account. Sign in as it to accept; you come back here after.
        </p>
        <Link className="button block" to={signIn}>
          Sign in to accept
        </Link>
      </>
    );
  } else {
    body = <AcceptAsNewAddress accept={accept} workspace={invitation.workspace} signIn={signIn} />;
  }

  return (
    <Solo title={`Join ${invitation.workspace}`}>
      <p>
        {invitation.invited_by ? <strong>{invitation.invited_by}</strong> : 'A member'} invited <strong>{invitation.email}</strong> to the Gatehouse workspace{' '}
        <strong>{invitation.workspace}</strong> as <strong>{invitation.role}</strong>.
      </p>
      <p className="muted small">The invitation works once and expires on {formatTime(invitation.expires_at)}.</p>
      {body}
    </Solo>
  );
}
