// The plans of an API (/apis/:api/plans): in the order the portal lists them, with their terms,
// visibility, whether they are offered, subscribers and their sale at the payments provider. Editors
// create, edit, reorder (Up and Down renumber `sort` from 0) and delete or deactivate them; a
// private plan's link is copied from its row.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { api, call } from '../../api/client.js';
import type { ApiOut } from '../../api/records.js';
import { canEdit } from '../../app/roles.js';
import { useApiAndList, useApiId } from '../../app/use-api.js';
import { FormError } from '../../components/field.js';
import { PageHeader } from '../../components/page.js';
import { Empty, QueryState } from '../../components/states.js';
import { PlanForm } from './plan-form.js';
import { PlanRow } from './plan-row.js';
import { plansKey, type PlanOut } from './types.js';

const ordered = (plans: PlanOut[]) => [...plans].sort((a, b) => a.sort - b.sort || a.created_at.localeCompare(b.created_at));

function PlansTable({ apiOut, plans, onEdit }: { apiOut: ApiOut; plans: PlanOut[]; onEdit: (plan: PlanOut) => void }) {
  const editable = canEdit(apiOut.role);
  const queryClient = useQueryClient();
  const reorder = useMutation({
    // Only the plans whose place changed are written.
    mutationFn: async (order: PlanOut[]) => {
      for (const [index, plan] of order.entries()) {
        if (plan.sort !== index) await call(api.PATCH('/api/apis/{api}/plans/{id}', { params: { path: { api: apiOut.id, id: plan.id } }, body: { sort: index } }));
      }
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: plansKey(apiOut.id) }),
  });
  if (plans.length === 0) {
    return (
      <Empty title="No plans yet">
        <p>{editable ? 'Create a plan below: a monthly price with its credit and limits, which customers subscribe to on the portal.' : 'An editor creates the plans customers subscribe to.'}</p>
      </Empty>
    );
  }
  const move = (index: number, direction: -1 | 1) => {
    const order = [...plans];
    [order[index], order[index + direction]] = [order[index + direction]!, order[index]!];
    reorder.mutate(order);
  };
  return (
    <>
      <FormError error={reorder.error} />
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">Plans, in the order the portal lists them</caption>
          <thead>
            <tr>
              <th scope="col">Plan</th>
              <th scope="col">Terms</th>
              <th scope="col">Subscribers</th>
              <th scope="col">Payments provider</th>
              {editable ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {plans.map((plan, index) => (
              <PlanRow key={plan.id} apiOut={apiOut} plan={plan} editable={editable} first={index === 0} last={index === plans.length - 1} moving={reorder.isPending} onMove={(direction) => move(index, direction)} onEdit={() => onEdit(plan)} />
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function PlansPage() {
  const apiId = useApiId();
  const apiConnected = useRef(false);
  const plans = useQuery({
    queryKey: plansKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/plans', { params: { path: { api: apiId } } })),
    select: (answer) => ordered(answer.plans ?? []),
    // A plan on its way to the provider shows its outcome without a reload; a refused one is asked
    // about less often (the job retries it every 5 minutes, "Try again" at once).
    refetchInterval: (query) => {
      const answer = query.state.data?.plans ?? [];
      if (answer.some((plan) => plan.active && plan.price_monthly_cents > 0 && !plan.provider_price_id && !plan.provider_sync_error && apiConnected.current)) return 3_000;
      return answer.some((plan) => plan.provider_sync_error) ? 10_000 : false;
    },
  });
  const both = useApiAndList(apiId, plans);
  apiConnected.current = both.data?.apiOut.payments.charges_enabled ?? false;
  const [editing, setEditing] = useState<PlanOut | 'new' | null>(null);
  return (
    <QueryState query={both} loading="Loading the plans…">
      {({ apiOut, list }) => (
        <>
          <PageHeader
            title={`Plans of ${apiOut.name}`}
            description={<>What customers of {apiOut.name} subscribe to: a monthly price with credit and limits. Changing a plan moves its subscribers to the new terms.</>}
            actions={
              canEdit(apiOut.role) && editing === null ? (
                <button type="button" onClick={() => setEditing('new')}>
                  New plan
                </button>
              ) : null
            }
          />
          {editing !== null ? <PlanForm key={editing === 'new' ? 'new' : editing.id} apiId={apiOut.id} plan={editing === 'new' ? undefined : editing} nextSort={Math.min(1000, list.length)} onDone={() => setEditing(null)} /> : null}
          <PlansTable apiOut={apiOut} plans={list} onEdit={setEditing} />
        </>
      )}
    </QueryState>
  );
}
