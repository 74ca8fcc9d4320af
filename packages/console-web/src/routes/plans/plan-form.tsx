// A plan's terms, for a new plan or an existing one: its name and description, the monthly price
// (dollars), the credit each paid invoice adds and the price per request (units), its limits
// (empty: the API's defaults), visibility and whether it is offered. Amounts are read exactly
// (parseCents, parseMicro); bounds are the API's, whose 422 lands on the field.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { Field, FormError, SelectField, TextAreaField, fieldErrors } from '../../components/field.js';
import { formatMicro } from '../../format/money.js';
import { dollars, parseAmount, parseDollars, parseWhole, type Parsed } from '../apis/settings/parse.js';
import { plansKey, type PlanFields, type PlanOut } from './types.js';

interface Draft {
  name: string;
  description: string;
  price: string;
  credit: string;
  perRequest: string;
  quota: string;
  rps: string;
  visibility: 'public' | 'private';
  active: boolean;
}

const units = (micro: number | null | undefined) => (micro === null || micro === undefined ? '' : formatMicro(micro).replace(/,/g, ''));

function draftOf(plan: PlanOut | undefined): Draft {
  return {
    name: plan?.name ?? '',
    description: plan?.description ?? '',
    price: plan ? dollars(plan.price_monthly_cents) : '',
    credit: plan && plan.credit_micro > 0 ? units(plan.credit_micro) : '',
    perRequest: units(plan?.price_per_request_micro),
    quota: plan?.monthly_quota === null || plan?.monthly_quota === undefined ? '' : String(plan.monthly_quota),
    rps: plan?.rps === null || plan?.rps === undefined ? '' : String(plan.rps),
    visibility: plan?.visibility === 'private' ? 'private' : 'public',
    active: plan?.active ?? true,
  };
}

/** An optional field: empty is null (the API's default), else parsed. */
const optional = <T,>(text: string, parse: (text: string) => Parsed<T>): Parsed<T | null> => (text.trim() ? parse(text) : { ok: true, value: null });

function read(draft: Draft): { body: PlanFields } | { errors: Record<string, string> } {
  const price = parseDollars(draft.price || '0');
  const credit = optional(draft.credit, parseAmount);
  const perRequest = optional(draft.perRequest, parseAmount);
  const quota = optional(draft.quota, parseWhole);
  const rps = optional(draft.rps, parseWhole);
  const errors: Record<string, string> = {};
  if (!price.ok) errors.price_monthly_cents = price.message;
  if (!credit.ok) errors.credit_micro = credit.message;
  if (!perRequest.ok) errors.price_per_request_micro = perRequest.message;
  if (!quota.ok) errors.monthly_quota = quota.message;
  if (!rps.ok) errors.rps = rps.message;
  if (!price.ok || !credit.ok || !perRequest.ok || !quota.ok || !rps.ok) return { errors };
  return {
    body: {
      name: draft.name.trim(),
      description: draft.description.trim(),
      price_monthly_cents: price.value,
      credit_micro: credit.value ?? 0,
      price_per_request_micro: perRequest.value,
      monthly_quota: quota.value,
      rps: rps.value,
      visibility: draft.visibility,
      active: draft.active,
    },
  };
}

export function PlanForm({ apiId, plan, nextSort, onDone }: { apiId: string; plan?: PlanOut; nextSort: number; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(plan));
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: PlanFields) =>
      plan
        ? call(api.PATCH('/api/apis/{api}/plans/{id}', { params: { path: { api: apiId, id: plan.id } }, body }))
        : call(api.POST('/api/apis/{api}/plans', { params: { path: { api: apiId } }, body: { ...body, sort: nextSort } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: plansKey(apiId) });
      onDone();
    },
  });
  const errors = Object.keys(local).length ? local : fieldErrors(save.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = read(draft);
    if ('errors' in parsed) return setLocal(parsed.errors);
    setLocal({});
    save.mutate(parsed.body);
  };
  const set = (patch: Partial<Draft>) => {
    setDraft({ ...draft, ...patch });
    if (Object.keys(local).length) setLocal({});
    if (save.isError) save.reset();
  };
  const title = plan ? `Edit ${plan.name}` : 'New plan';
  const headingId = plan ? `edit-plan-${plan.id}` : 'new-plan-heading';
  return (
    <section className="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <form onSubmit={submit} noValidate aria-labelledby={headingId}>
        <div className="grid-2">
          <div>
            <Field label="Name" name="name" maxLength={60} value={draft.name} onChange={(e) => set({ name: e.target.value })} error={errors.name} />
            <TextAreaField label="Description" name="description" maxLength={300} value={draft.description} onChange={(e) => set({ description: e.target.value })} hint="Shown on the portal's plans page; up to 300 characters." error={errors.description} />
            <Field label="Price a month, in dollars" name="price_monthly_cents" inputMode="decimal" value={draft.price} onChange={(e) => set({ price: e.target.value })} hint="0 for a free plan; up to $10,000." error={errors.price_monthly_cents} />
            <Field label="Credit added by each paid invoice" name="credit_micro" inputMode="decimal" value={draft.credit} onChange={(e) => set({ credit: e.target.value })} hint="In units of the balance; empty for none." error={errors.credit_micro} />
          </div>
          <div>
            <Field label="Price per request" name="price_per_request_micro" inputMode="decimal" value={draft.perRequest} onChange={(e) => set({ perRequest: e.target.value })} hint="In units; empty for the API's price." error={errors.price_per_request_micro} />
            <Field label="Requests a month" name="monthly_quota" inputMode="numeric" value={draft.quota} onChange={(e) => set({ quota: e.target.value })} hint="Empty for the API's default; 0 for no limit." error={errors.monthly_quota} />
            <Field label="Requests a second" name="rps" inputMode="numeric" value={draft.rps} onChange={(e) => set({ rps: e.target.value })} hint="Empty for the API's default; 0 for no limit; up to 100,000." error={errors.rps} />
            <SelectField label="Visibility" name="visibility" value={draft.visibility} onChange={(e) => set({ visibility: e.target.value === 'private' ? 'private' : 'public' })} hint="A private plan is not listed on the portal: you offer it by its link." error={errors.visibility}>
              <option value="public">Public: listed on the portal</option>
              <option value="private">Private: by its link only</option>
            </SelectField>
            <label className="check">
              <input type="checkbox" name="active" checked={draft.active} onChange={(e) => set({ active: e.target.checked })} />
              Active: customers can choose it
            </label>
          </div>
        </div>
        <FormError error={save.error} fields={Object.keys(errors)} />
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : plan ? 'Save plan' : 'Create plan'}
          </button>
          <button type="button" className="secondary" onClick={onDone}>
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}
