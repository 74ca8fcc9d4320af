// Where the platform plan's checkout sends the owner back (/apis/:api/plan?checkout=done or
// =canceled): what happened, and the plan the API is on now (ApiOut plan and plan_status). The
// full page of platform plans comes with a later issue.
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { apiKey, useApiId } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { formatCents, formatCount } from '../../../format/money.js';
import { formatTime } from '../../../format/time.js';
import { BackLinks } from './back-links.js';

function Outcome({ apiOut, checkout }: { apiOut: ApiOut; checkout: string | null }) {
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

export function PlanReturnPage() {
  const apiId = useApiId();
  const [search] = useSearchParams();
  const checkout = search.get('checkout');
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
          <Outcome apiOut={apiOut} checkout={checkout} />
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
          </div>
          <BackLinks apiId={apiOut.id} />
        </>
      )}
    </QueryState>
  );
}
