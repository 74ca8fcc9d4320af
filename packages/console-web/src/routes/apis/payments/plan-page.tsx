// The platform plan of an API (/apis/:api/plan): the plan it is on and its state, the past_due
// banner with the end of the grace, cancelling at the period's end and undoing it, and the
// catalogue to upgrade or downgrade from (owners; DESIGN 6). The provider's checkout sends the owner
// back here (?checkout=done or =canceled), a change of the live subscription too (?change=).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { isOwner } from '../../../app/roles.js';
import { apiKey, useApiId } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { FormError } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { formatCents, formatCount } from '../../../format/money.js';
import { formatTime } from '../../../format/time.js';
import { BackLinks } from './back-links.js';
import { PlatformCatalogue } from './platform-catalogue.js';

function Outcome({ apiOut, checkout, change }: { apiOut: ApiOut; checkout: string | null; change: string | null }) {
  if (change === 'done') return <p className="alert ok" role="status">Done: {apiOut.name} is on the {apiOut.plan.name} plan now.</p>;
  if (change === 'canceled') return <p className="alert info" role="status">The {apiOut.plan.name} plan ends with its paid period; {apiOut.name} is on Free after.</p>;
  if (checkout === 'canceled') return <p className="alert info" role="status">The checkout was canceled: nothing was bought and nothing changed.</p>;
  if (checkout !== 'done') return null;
  return apiOut.plan.price_monthly_cents > 0 ? (
    <p className="alert ok" role="status">
      Checkout done: {apiOut.name} is on the {apiOut.plan.name} plan.
    </p>
  ) : (
    <p className="alert info" role="status">
      Checkout done. The payment is being confirmed by the provider; {apiOut.name} moves to the plan you bought once it is. This page updates by itself.
    </p>
  );
}

/** The renewal failed: the plan stays until the grace ends, then the API is on Free. */
export function PastDueBanner({ apiOut }: { apiOut: ApiOut }) {
  if (apiOut.plan_status !== 'past_due') return null;
  return (
    <div className="alert warning banner" role="alert" data-testid="past-due">
      <p>
        <strong>The payment of the {apiOut.plan.name} plan failed.</strong> {apiOut.name} keeps the plan until {apiOut.plan_grace_until ? formatTime(apiOut.plan_grace_until) : 'the grace ends'}; if it is still unpaid then, it goes back to Free. Pay the invoice from the payments provider’s mail, or with another card.
      </p>
    </div>
  );
}

function CancelOrKeep({ apiOut }: { apiOut: ApiOut }) {
  const queryClient = useQueryClient();
  const done = () => queryClient.invalidateQueries({ queryKey: apiKey(apiOut.id) });
  const cancel = useMutation({ mutationFn: () => call(api.POST('/api/apis/{api}/plan/cancel', { params: { path: { api: apiOut.id } } })), onSuccess: done });
  const resume = useMutation({ mutationFn: () => call(api.POST('/api/apis/{api}/plan/resume', { params: { path: { api: apiOut.id } } })), onSuccess: done });
  if (apiOut.plan.price_monthly_cents === 0) return null;
  if (apiOut.plan_status === 'canceled') {
    return (
      <>
        <button type="button" onClick={() => resume.mutate()} disabled={resume.isPending}>
          Keep the {apiOut.plan.name} plan
        </button>
        <FormError error={resume.error} />
      </>
    );
  }
  return (
    <ConfirmButton label="Cancel the plan" title={`Cancel the ${apiOut.plan.name} plan`} confirmLabel="Cancel at period end" onOpen={() => cancel.reset()} onConfirm={() => cancel.mutateAsync()}>
      <p>
        {apiOut.name} keeps the {apiOut.plan.name} plan until the end of the paid period{apiOut.plan_period_end ? `, ${formatTime(apiOut.plan_period_end)}` : ''}, then goes to Free and its limits. You can undo this until then.
      </p>
      <FormError error={cancel.error} />
    </ConfirmButton>
  );
}

export function PlanReturnPage() {
  const apiId = useApiId();
  const [search] = useSearchParams();
  const checkout = search.get('checkout');
  const change = search.get('change');
  // Back from a paid checkout before the provider's event arrived: ask again until the plan moves.
  const apiQuery = useQuery({
    queryKey: apiKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}', { params: { path: { api: apiId } } })),
    refetchInterval: (query) => (checkout === 'done' && query.state.data?.plan.price_monthly_cents === 0 ? 3_000 : false),
  });
  return (
    <QueryState query={apiQuery} loading="Loading the platform plan…">
      {(apiOut) => (
        <>
          <PageHeader title={`Platform plan of ${apiOut.name}`} description={checkout ? 'Back from the checkout.' : 'The plan Gatehouse bills this API on.'} />
          <PastDueBanner apiOut={apiOut} />
          <Outcome apiOut={apiOut} checkout={checkout} change={change} />
          <div className="card">
            <p data-testid="plan-now">
              {apiOut.name} is on the <strong>{apiOut.plan.name}</strong> plan <StatusBadge status={apiOut.plan_status} />
            </p>
            <p className="small muted">
              {apiOut.plan.price_monthly_cents > 0 ? `${formatCents(apiOut.plan.price_monthly_cents)} a month` : 'Free'}:{' '}
              {apiOut.plan.monthly_requests > 0 ? `${formatCount(apiOut.plan.monthly_requests)} requests a month` : 'no request limit'},{' '}
              {apiOut.plan.max_customers > 0 ? `up to ${formatCount(apiOut.plan.max_customers)} customers` : 'no customer limit'}.
              {apiOut.plan_period_end ? ` This period ends ${formatTime(apiOut.plan_period_end)}.` : ''}
              {apiOut.plan_grace_until ? ` Payment is due by ${formatTime(apiOut.plan_grace_until)}.` : ''}
            </p>
            {apiOut.plan_status === 'canceled' && apiOut.plan.price_monthly_cents > 0 ? (
              <p data-testid="plan-ends">Canceled: the {apiOut.plan.name} plan ends {apiOut.plan_period_end ? formatTime(apiOut.plan_period_end) : 'with its period'}, then {apiOut.name} is on Free.</p>
            ) : null}
            {isOwner(apiOut.role) ? (
              <div className="actions">
                <CancelOrKeep apiOut={apiOut} />
              </div>
            ) : null}
          </div>
          <PlatformCatalogue apiOut={apiOut} />
          <BackLinks apiId={apiOut.id} />
        </>
      )}
    </QueryState>
  );
}
