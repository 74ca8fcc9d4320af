// A customer's effective limits and where each comes from (DESIGN 7: custom, else the plan's
// non-null value, else the API's default), and the form of its custom limits (PUT …/limits):
// an empty field is "not set", so the plan's or the API's value applies.
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { ApiOut, CustomerDetail, LimitsBody } from '../../api/records.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { formatCount, formatMicro, parseMicro } from '../../format/money.js';
import { useCustomerChange } from './use-customer-change.js';

type Limit = 'price_per_request_micro' | 'rps' | 'monthly_quota';

const SOURCE_NAMES = { custom: 'custom limits', plan: 'its plan', payg: "the API's pay-as-you-go defaults" } as const;

const writeLimit = (field: Limit, value: number) =>
  field === 'price_per_request_micro' ? `${formatMicro(value)} per request` : value === 0 ? (field === 'rps' ? 'no limit' : 'no quota') : field === 'rps' ? `${formatCount(value)} per second` : `${formatCount(value)} a month`;

/** Where one field's effective value comes from, in words. */
function originOf(field: Limit, customer: CustomerDetail, apiRecord: ApiOut, value: number): string {
  if (customer.custom[field] !== null) return 'Custom limit';
  const apiValue = apiRecord[field];
  const planInForce = customer.effective.billing_model === 'subscription';
  if (planInForce && value !== apiValue) return `Plan ${customer.plan_name ?? ''}`.trim();
  if (field === 'price_per_request_micro' && !apiRecord.payg_enabled && value === 0 && apiValue !== 0) return 'API default, not charged: pay-as-you-go is off';
  return 'API default';
}

export function EffectiveLimits({ customer, apiRecord }: { customer: CustomerDetail; apiRecord: ApiOut }) {
  const rows: { field: Limit; label: string; value: number }[] = [
    { field: 'price_per_request_micro', label: 'Price', value: customer.effective.price_per_request_micro },
    { field: 'rps', label: 'Rate', value: customer.effective.rps },
    { field: 'monthly_quota', label: 'Monthly quota', value: customer.effective.monthly_quota ?? 0 },
  ];
  return (
    <>
      <p className="muted small">
        Billing: <strong>{customer.effective.billing_model === 'none' ? 'not charged' : customer.effective.billing_model === 'payg' ? 'pay as you go' : 'subscription'}</strong>, from{' '}
        {SOURCE_NAMES[customer.effective.source]}.
      </p>
      <div className="table-wrap">
        <table data-testid="effective-limits">
          <thead>
            <tr>
              <th scope="col">Limit</th>
              <th scope="col">In force</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.field}>
                <th scope="row">{row.label}</th>
                <td>{writeLimit(row.field, row.value)}</td>
                <td>{originOf(row.field, customer, apiRecord, row.value)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

const draftOf = (custom: CustomerDetail['custom']) => ({
  price: custom.price_per_request_micro === null ? '' : formatMicro(custom.price_per_request_micro).replace(/,/g, ''),
  rps: custom.rps === null ? '' : String(custom.rps),
  quota: custom.monthly_quota === null ? '' : String(custom.monthly_quota),
});

const wholeNumber = (text: string): number | null | undefined => (text.trim() === '' ? null : /^\s*\d+\s*$/.test(text) && Number(text) <= Number.MAX_SAFE_INTEGER ? Number(text) : undefined);

export function CustomLimitsForm({ apiId, customer }: { apiId: string; customer: CustomerDetail }) {
  const [draft, setDraft] = useState(() => draftOf(customer.custom));
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useCustomerChange(apiId, customer.id, (body: LimitsBody) => call(api.PUT('/api/apis/{api}/customers/{id}/limits', { params: { path: { api: apiId, id: customer.id } }, body })));
  const errors = { ...fieldErrors(save.error), ...local };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const price = draft.price.trim() === '' ? null : parseMicro(draft.price);
    const rps = wholeNumber(draft.rps);
    const quota = wholeNumber(draft.quota);
    const problems: Record<string, string> = {};
    if (price === null && draft.price.trim() !== '') problems.price_per_request_micro = 'Type a price in units with at most six decimals, or leave it empty.';
    if (rps === undefined) problems.rps = 'Type a whole number, or leave it empty.';
    if (quota === undefined) problems.monthly_quota = 'Type a whole number, or leave it empty.';
    setLocal(problems);
    if (Object.keys(problems).length) return;
    save.mutate({ price_per_request_micro: price, rps: rps ?? null, monthly_quota: quota ?? null });
  };
  const set = (name: keyof typeof draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  return (
    <form onSubmit={submit} noValidate aria-labelledby="custom-limits-title">
      <h3 id="custom-limits-title">Custom limits</h3>
      <p className="muted small">Empty means not set: the plan's value, or the API's default, applies.</p>
      <FormError error={save.error} fields={['price_per_request_micro', 'rps', 'monthly_quota']} />
      {save.isSuccess ? (
        <p className="alert ok" role="status">
          Custom limits saved.
        </p>
      ) : null}
      <div className="grid-3">
        <Field label="Price per request" hint="In units, e.g. 0.001" name="price_per_request_micro" inputMode="decimal" autoComplete="off" value={draft.price} onChange={set('price')} error={errors.price_per_request_micro} />
        <Field label="Requests per second" hint="0 = no limit" name="rps" inputMode="numeric" autoComplete="off" value={draft.rps} onChange={set('rps')} error={errors.rps} />
        <Field label="Monthly quota" hint="Requests a month; 0 = no quota" name="monthly_quota" inputMode="numeric" autoComplete="off" value={draft.quota} onChange={set('quota')} error={errors.monthly_quota} />
      </div>
      <button type="submit" disabled={save.isPending}>
        Save custom limits
      </button>
    </form>
  );
}
