// A customer's plan: which one and how it came (by hand, or a subscription through payments), and
// assigning one by hand (PATCH plan_id; null takes it off). The API's plans are asked for only
// when the person opens the control, so the page costs one request on open.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { CustomerDetail } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { FormError, SelectField, fieldErrors } from '../../components/field.js';
import { Loading } from '../../components/states.js';
import { formatCents } from '../../format/money.js';
import { formatDay, formatTime } from '../../format/time.js';
import { StatusBadge } from '../../components/badge.js';
import { SubscriptionActions } from './subscription-actions.js';
import { useCustomerChange } from './use-customer-change.js';

function PlanChooser({ apiId, customer, onDone }: { apiId: string; customer: CustomerDetail; onDone: () => void }) {
  const plans = useQuery({ queryKey: key('/api/apis/{api}/plans', apiId), queryFn: () => call(api.GET('/api/apis/{api}/plans', { params: { path: { api: apiId } } })) });
  const [choice, setChoice] = useState(customer.plan_id ?? '');
  const assign = useCustomerChange(apiId, customer.id, (planId: string | null) =>
    call(api.PATCH('/api/apis/{api}/customers/{id}', { params: { path: { api: apiId, id: customer.id } }, body: { plan_id: planId } })),
  );
  if (plans.isPending) return <Loading label="Loading the API's plans…" />;
  if (plans.error) return <FormError error={plans.error} />;
  const active = (plans.data.plans ?? []).filter((plan) => plan.active);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    assign.mutate(choice || null, { onSuccess: onDone });
  };
  return (
    <form onSubmit={submit} noValidate className="plan-chooser">
      <FormError error={assign.error} fields={['plan_id']} />
      {active.length ? null : <p className="muted">This API has no active plans; the customer can only be taken off its plan.</p>}
      <SelectField label="Plan to assign" name="plan_id" value={choice} onChange={(event) => setChoice(event.target.value)} error={fieldErrors(assign.error).plan_id}>
        <option value="">No plan</option>
        {active.map((plan) => (
          <option key={plan.id} value={plan.id}>
            {plan.name} ({formatCents(plan.price_monthly_cents)} a month{plan.visibility === 'private' ? ', private' : ''})
          </option>
        ))}
      </SelectField>
      <div className="actions">
        <button type="submit" disabled={assign.isPending}>
          Save plan
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function PlanCard({ apiId, customer, editable }: { apiId: string; customer: CustomerDetail; editable: boolean }) {
  const [open, setOpen] = useState(false);
  // A live provider subscription is changed through the provider (a PATCH of plan_id is 409).
  const subscribed = customer.plan_source === 'provider' && ['active', 'trialing', 'past_due'].includes(customer.subscription_status ?? '');
  const how = customer.plan_source === 'manual' ? 'assigned by hand' : customer.plan_source === 'provider' ? `a subscription through payments${customer.subscription_status ? ` (${customer.subscription_status.replace(/_/g, ' ')})` : ''}` : '';
  return (
    <section className="card" aria-labelledby="plan-title">
      <h2 id="plan-title">Plan</h2>
      {customer.plan_id ? (
        <p data-testid="plan">
          <strong>{customer.plan_name ?? customer.plan_id}</strong>, {how}
          {customer.subscription_period_end ? `; the period ends ${formatDay(customer.subscription_period_end)}` : ''}.
        </p>
      ) : (
        <p data-testid="plan">No plan: the customer pays as it goes, at its effective price.</p>
      )}
      {customer.plan_source === 'provider' && customer.subscription_status ? (
        <p className="small" data-testid="subscription">
          Subscription <StatusBadge status={customer.subscription_status} />
          {customer.subscription_period_end ? ` · current period ends ${formatTime(customer.subscription_period_end)}` : ''}
        </p>
      ) : null}
      {editable && subscribed ? <SubscriptionActions apiId={apiId} customer={customer} /> : null}
      {editable && !subscribed && !open ? (
        <button type="button" className="secondary" onClick={() => setOpen(true)}>
          Change plan
        </button>
      ) : null}
      {editable && !subscribed && open ? <PlanChooser apiId={apiId} customer={customer} onDone={() => setOpen(false)} /> : null}
    </section>
  );
}
