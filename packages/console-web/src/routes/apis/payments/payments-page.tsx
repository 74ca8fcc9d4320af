// The payments account of an API (/apis/:api/payments), where its customers' payments go: its status
// (GET /payments, PaymentsOut), connecting it or continuing the provider's onboarding, and
// disconnecting it (admins). The provider's onboarding sends the owner back here
// (?connect=done or =again), and the page says what happened, in plain words.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut, ResponseOf } from '../../../api/records.js';
import { key } from '../../../app/query-keys.js';
import { canAdmin } from '../../../app/roles.js';
import { apiKey, useApiAndList, useApiId } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { formatTime } from '../../../format/time.js';
import { BackLinks } from './back-links.js';

type PaymentsOut = ResponseOf<'/api/apis/{api}/payments', 'get'>;
const paymentsKey = (apiId: string) => key('/api/apis/{api}/payments', apiId);

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

function Disconnect({ apiOut, payments }: { apiOut: ApiOut; payments: PaymentsOut }) {
  const queryClient = useQueryClient();
  const disconnect = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/payments', { params: { path: { api: apiOut.id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: paymentsKey(apiOut.id) });
      void queryClient.invalidateQueries({ queryKey: apiKey(apiOut.id) });
    },
  });
  if (!canAdmin(apiOut.role)) return null;
  const name = payments.account_name ?? payments.account_id ?? 'the account';
  return (
    <ConfirmButton label="Disconnect" title={`Disconnect ${name}`} confirmLabel="Disconnect account" onOpen={() => disconnect.reset()} onConfirm={() => disconnect.mutateAsync()}>
      <p>
        {apiOut.name}’s customers cannot pay until an account is connected again: top-ups and new subscriptions stop. Payments already taken are still credited, and subscriptions on this account are left to its own dashboard. Nothing changes at the provider.
      </p>
      <FormError error={disconnect.error} />
    </ConfirmButton>
  );
}

function State({ apiOut, payments, returned }: { apiOut: ApiOut; payments: PaymentsOut; returned: string | null }) {
  if (!payments.configured) {
    return <p className="alert info" role="status">Payments are not set up on this Gatehouse server, so {apiOut.name} cannot take payments yet.</p>;
  }
  if (payments.connected && payments.charges_enabled) {
    return (
      <>
        <p className="alert ok" role="status">
          <StatusBadge status="connected" /> {payments.account_name ?? payments.account_id} is connected{payments.livemode ? '' : ' in test mode'}: {apiOut.name}'s customers can pay.
        </p>
        <dl className="details" data-testid="payments-account">
          <dt>Account</dt>
          <dd>
            <code>{payments.account_id}</code>
          </dd>
          <dt>Mode</dt>
          <dd>{payments.livemode ? 'live' : 'test'}</dd>
          <dt>Takes charges</dt>
          <dd>yes</dd>
        </dl>
        {payments.connected_at ? <p className="small muted">Connected at {formatTime(payments.connected_at)}.</p> : null}
        <div className="actions">
          <Disconnect apiOut={apiOut} payments={payments} />
        </div>
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
      <div className="actions">
        <ContinueOnboarding apiOut={apiOut} label={payments.connected || returned === 'again' ? 'Continue onboarding' : 'Connect a payments account'} />
        {payments.connected ? <Disconnect apiOut={apiOut} payments={payments} /> : null}
      </div>
    </>
  );
}

export function PaymentsReturnPage() {
  const apiId = useApiId();
  const payments = useQuery({ queryKey: paymentsKey(apiId), queryFn: () => call(api.GET('/api/apis/{api}/payments', { params: { path: { api: apiId } } })) });
  const both = useApiAndList(apiId, payments);
  const [search] = useSearchParams();
  const returned = search.get('connect');
  return (
    <QueryState query={both} loading="Loading the payments connection…">
      {({ apiOut, list }) => (
        <>
          <PageHeader
            title={`Payments of ${apiOut.name}`}
            description={returned === 'done' ? 'Back from the payments provider.' : returned === 'again' ? 'The payments provider sent you back before the end.' : 'The payments account customers pay into.'}
          />
          <div className="card">
            <State apiOut={apiOut} payments={list} returned={returned} />
          </div>
          <BackLinks apiId={apiOut.id} />
        </>
      )}
    </QueryState>
  );
}
