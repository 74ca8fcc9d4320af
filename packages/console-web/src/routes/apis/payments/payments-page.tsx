// Where the payments provider's onboarding sends the owner back (/apis/:api/payments?connect=done
// or =again): what happened, in plain words, from the API's `payments` as it is now. The full page
// of the payments connection comes with a later issue.
import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { canAdmin } from '../../../app/roles.js';
import { useApiId, useApiQuery } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { formatTime } from '../../../format/time.js';
import { BackLinks } from './back-links.js';

function ContinueOnboarding({ apiOut, label }: { apiOut: ApiOut; label: string }) {
  const connect = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/payments/connect', { params: { path: { api: apiOut.id } } })),
    // The provider's onboarding is a page of its own: the browser goes there and comes back here.
    onSuccess: (answer) => window.location.assign(answer.url),
  });
  if (!canAdmin(apiOut.role)) return <p className="small muted">An admin of the workspace finishes the onboarding.</p>;
  return (
    <>
      <button type="button" onClick={() => connect.mutate()} disabled={connect.isPending || connect.isSuccess}>
        {connect.isPending || connect.isSuccess ? 'Opening the onboarding…' : label}
      </button>
      <FormError error={connect.error} />
    </>
  );
}

function State({ apiOut, returned }: { apiOut: ApiOut; returned: string | null }) {
  const payments = apiOut.payments;
  if (!payments.configured) {
    return <p className="alert info" role="status">Payments are not set up on this Gatehouse server, so {apiOut.name} cannot take payments yet.</p>;
  }
  if (payments.connected && payments.charges_enabled) {
    return (
      <>
        <p className="alert ok" role="status">
          <StatusBadge status="connected" /> {payments.account_name ?? payments.account_id} is connected{payments.livemode ? '' : ' in test mode'}: {apiOut.name}'s customers can pay.
        </p>
        {payments.connected_at ? <p className="small muted">Connected at {formatTime(payments.connected_at)}.</p> : null}
      </>
    );
  }
  const words = payments.connected
    ? 'The payments account is connected, but its onboarding is not finished: it cannot take charges yet.'
    : returned === 'again'
      ? 'The onboarding link expired or was left before the end. Continue where you stopped.'
      : `${apiOut.name} has no payments account connected.`;
  return (
    <>
      <p className="alert warning" role="status">
        {words}
      </p>
      <ContinueOnboarding apiOut={apiOut} label={payments.connected || returned === 'again' ? 'Continue onboarding' : 'Connect a payments account'} />
    </>
  );
}

export function PaymentsReturnPage() {
  const apiId = useApiId();
  const apiQuery = useApiQuery(apiId);
  const [search] = useSearchParams();
  const returned = search.get('connect');
  return (
    <QueryState query={apiQuery} loading="Loading the payments connection…">
      {(apiOut) => (
        <>
          <PageHeader
            title={`Payments of ${apiOut.name}`}
            description={returned === 'done' ? 'Back from the payments provider.' : returned === 'again' ? 'The payments provider sent you back before the end.' : 'The payments account customers pay into.'}
          />
          <div className="card">
            <State apiOut={apiOut} returned={returned} />
          </div>
          <BackLinks apiId={apiOut.id} />
        </>
      )}
    </QueryState>
  );
}
