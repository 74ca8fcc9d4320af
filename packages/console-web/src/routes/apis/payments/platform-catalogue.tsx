// The platform's plans (GET /platform/plans) beside the API's own: what each includes, and for an
// owner the way to it. Without a live subscription a paid plan opens the provider's checkout; with
// one, the subscription moves at once (an upgrade's difference is invoiced now, a downgrade's
// becomes credit); Free cancels at the end of the paid period. Each choice says so and is confirmed.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut, ResponseOf } from '../../../api/records.js';
import { isOwner } from '../../../app/roles.js';
import { apiKey } from '../../../app/use-api.js';
import { key } from '../../../app/query-keys.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { FormError } from '../../../components/field.js';
import { QueryState } from '../../../components/states.js';
import { formatCents, formatCount } from '../../../format/money.js';
import { formatDay } from '../../../format/time.js';

type PlatformPlan = ResponseOf<'/api/platform/plans', 'get'>['plans'][number];

const limit = (n: number) => (n > 0 ? formatCount(n) : 'no limit');

function Choose({ apiOut, plan }: { apiOut: ApiOut; plan: PlatformPlan }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const choose = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/plan/checkout', { params: { path: { api: apiOut.id } }, body: { plan_code: plan.code } })),
  });
  const current = apiOut.plan;
  const subscribed = current.price_monthly_cents > 0;
  const up = plan.price_monthly_cents > current.price_monthly_cents;
  const verb = up ? 'Upgrade' : 'Downgrade';
  const what =
    plan.price_monthly_cents === 0
      ? `The ${current.name} plan is canceled at the end of its paid period${apiOut.plan_period_end ? `, ${formatDay(apiOut.plan_period_end)}` : ''}; ${apiOut.name} is on Free after. You can keep the plan until then.`
      : subscribed
        ? up
          ? `Your subscription moves to ${plan.name} now; the difference for the rest of this period (${formatCents(plan.price_monthly_cents)} a month instead of ${formatCents(current.price_monthly_cents)}) is invoiced and paid at once.`
          : `Your subscription moves to ${plan.name} now (${formatCents(plan.price_monthly_cents)} a month); what is left of this period's price becomes credit on the next invoice.`
        : `You go to the payments provider's checkout for ${plan.name} at ${formatCents(plan.price_monthly_cents)} a month, and come back here.`;
  return (
    <ConfirmButton
      label={<>{verb}<span className="visually-hidden"> to {plan.name}</span></>}
      title={`${verb} to ${plan.name}`}
      confirmLabel={plan.price_monthly_cents === 0 ? 'Cancel at period end' : subscribed ? `Move to ${plan.name}` : 'Go to checkout'}
      danger={false}
      className={up ? undefined : 'secondary'}
      onOpen={() => choose.reset()}
      onConfirm={async () => {
        const answer = await choose.mutateAsync();
        const target = new URL(answer.url, window.location.href);
        // The checkout is the provider's page (the development provider's is on this host too, but
        // is no page of the app): a full load. A change answers this very page.
        if (target.origin !== window.location.origin || target.pathname !== `/apis/${apiOut.id}/plan`) return window.location.assign(answer.url);
        await queryClient.invalidateQueries({ queryKey: apiKey(apiOut.id) });
        void navigate(`${target.pathname}${target.search}`, { replace: true });
      }}
    >
      <p>{what}</p>
      <FormError error={choose.error} />
    </ConfirmButton>
  );
}

export function PlatformCatalogue({ apiOut }: { apiOut: ApiOut }) {
  const catalogue = useQuery({ queryKey: key('/api/platform/plans'), queryFn: () => call(api.GET('/api/platform/plans')), staleTime: 300_000 });
  const owner = isOwner(apiOut.role);
  return (
    <section className="card" aria-labelledby="catalogue-heading">
      <h2 id="catalogue-heading">Plans</h2>
      <QueryState query={catalogue} loading="Loading the platform plans…">
        {(answer) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Platform plans</caption>
              <thead>
                <tr>
                  <th scope="col">Plan</th>
                  <th scope="col">Price</th>
                  <th scope="col">Requests a month</th>
                  <th scope="col">Customers</th>
                  <th scope="col">Includes</th>
                  {owner ? <th scope="col">Choose</th> : null}
                </tr>
              </thead>
              <tbody>
                {answer.plans.map((plan) => {
                  const current = plan.code === apiOut.plan.code;
                  return (
                    <tr key={plan.code} data-testid={`platform-${plan.code}`}>
                      <td>
                        <strong>{plan.name}</strong> {current ? <StatusBadge status="active" label="current" /> : null}
                      </td>
                      <td>{plan.price_monthly_cents > 0 ? `${formatCents(plan.price_monthly_cents)} a month` : 'Free'}</td>
                      <td>{limit(plan.monthly_requests)}</td>
                      <td>{limit(plan.max_customers)}</td>
                      <td className="small">{[plan.custom_domain ? 'custom domain' : null, plan.remove_branding ? 'no Gatehouse branding' : null, plan.teams ? 'teams' : null, plan.connected_apps ? 'apps people connect' : null, plan.end_user_keys ? 'people’s own keys' : null].filter(Boolean).join(', ') || '—'}</td>
                      {owner ? (
                        <td>
                          {current && apiOut.plan_status !== 'canceled' ? (
                            <span className="muted small">your plan</span>
                          ) : current ? null : !plan.purchasable && plan.price_monthly_cents > 0 ? (
                            <span className="muted small">not for sale here</span>
                          ) : plan.price_monthly_cents === 0 && apiOut.plan_status === 'canceled' ? (
                            <span className="muted small">after this period</span>
                          ) : (
                            <Choose apiOut={apiOut} plan={plan} />
                          )}
                        </td>
                      ) : null}
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      {!owner ? <p className="small muted">Owners of the workspace buy and change the platform plan.</p> : null}
    </section>
  );
}
