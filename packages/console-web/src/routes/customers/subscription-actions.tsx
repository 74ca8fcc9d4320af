// A customer's subscription through payments, from the console (issue 23's operations): switching
// it to another plan (the provider prorates), cancelling at the period's end (or at once), and
// undoing a cancellation. Each calls the provider first; the customer's plan moves by the
// provider's event, so the answer shows what the provider bills.
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { CustomerDetail } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormError, SelectField, fieldErrors } from '../../components/field.js';
import { Loading } from '../../components/states.js';
import { formatCents } from '../../format/money.js';
import { formatDay } from '../../format/time.js';
import { useCustomerChange } from './use-customer-change.js';

function SwitchPlan({ apiId, customer, onDone }: { apiId: string; customer: CustomerDetail; onDone: () => void }) {
  const plans = useQuery({ queryKey: key('/api/apis/{api}/plans', apiId), queryFn: () => call(api.GET('/api/apis/{api}/plans', { params: { path: { api: apiId } } })) });
  const [choice, setChoice] = useState('');
  const change = useCustomerChange(apiId, customer.id, (planId: string) => call(api.POST('/api/apis/{api}/customers/{id}/subscription/switch', { params: { path: { api: apiId, id: customer.id } }, body: { plan_id: planId } })));
  if (plans.isPending) return <Loading label="Loading the API's plans…" />;
  if (plans.error) return <FormError error={plans.error} />;
  const others = (plans.data.plans ?? []).filter((plan) => plan.active && plan.id !== customer.plan_id && plan.price_monthly_cents > 0);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (choice) change.mutate(choice, { onSuccess: onDone });
  };
  if (others.length === 0) return <p className="muted">No other active paid plan to switch to.</p>;
  return (
    <form onSubmit={submit} noValidate className="plan-chooser" aria-label="Switch the subscription">
      <SelectField label="Switch to" name="plan_id" value={choice} onChange={(event) => setChoice(event.target.value)} hint="The provider prorates: the difference for the rest of the period is invoiced or credited." error={fieldErrors(change.error).plan_id}>
        <option value="">Choose a plan</option>
        {others.map((plan) => (
          <option key={plan.id} value={plan.id}>
            {plan.name} ({formatCents(plan.price_monthly_cents)} a month)
          </option>
        ))}
      </SelectField>
      <FormError error={change.error} fields={['plan_id']} />
      <div className="actions">
        <button type="submit" disabled={!choice || change.isPending}>
          Switch plan
        </button>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

export function SubscriptionActions({ apiId, customer }: { apiId: string; customer: CustomerDetail }) {
  const [switching, setSwitching] = useState(false);
  const path = { api: apiId, id: customer.id };
  const cancel = useCustomerChange(apiId, customer.id, (atPeriodEnd: boolean) => call(api.POST('/api/apis/{api}/customers/{id}/subscription/cancel', { params: { path }, body: { at_period_end: atPeriodEnd } })));
  const resume = useCustomerChange(apiId, customer.id, () => call(api.POST('/api/apis/{api}/customers/{id}/subscription/resume', { params: { path } })));
  const live = ['active', 'trialing', 'past_due'].includes(customer.subscription_status ?? '');
  if (!live) return null;
  const end = customer.subscription_period_end ? formatDay(customer.subscription_period_end) : 'the end of the period';
  if (customer.subscription_cancel_at_period_end) {
    return (
      <>
        <p data-testid="subscription-ends">Canceled by the end of the period: the plan stays until {end}.</p>
        <button type="button" onClick={() => resume.mutate(undefined)} disabled={resume.isPending}>
          Keep the subscription
        </button>
        <FormError error={resume.error} />
      </>
    );
  }
  if (switching) return <SwitchPlan apiId={apiId} customer={customer} onDone={() => setSwitching(false)} />;
  return (
    <div className="actions">
      <button type="button" className="secondary" onClick={() => setSwitching(true)}>
        Switch plan
      </button>
      <ConfirmButton label="Cancel subscription" title={`Cancel the subscription of ${customer.name}`} confirmLabel="Cancel at period end" onOpen={() => cancel.reset()} onConfirm={() => cancel.mutateAsync(true)}>
        <p>
          {customer.name} keeps the {customer.plan_name ?? 'plan'} and its limits until {end}; then the plan ends and its limits fall back. You can undo this until then. Nothing is refunded.
        </p>
        <FormError error={cancel.error} />
      </ConfirmButton>
      <ConfirmButton label="End it now" title={`End the subscription of ${customer.name} now`} confirmLabel="End subscription now" onOpen={() => cancel.reset()} onConfirm={() => cancel.mutateAsync(false)}>
        <p>The plan and its limits end at once; the provider prorates what was paid as it computes it. This cannot be undone.</p>
        <FormError error={cancel.error} />
      </ConfirmButton>
    </div>
  );
}
