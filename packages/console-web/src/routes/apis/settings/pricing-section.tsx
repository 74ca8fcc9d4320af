// Price and limits: what a billable request costs, the rate and monthly quota of each customer,
// the welcome credit, and which response statuses are billable.
import { useState } from 'react';
import type { ApiOut, UpdateAPIInBody } from '../../../api/records.js';
import { Field } from '../../../components/field.js';
import { formatMicro } from '../../../format/money.js';
import { parseAmount, parseStatusCodes, parseWhole, type Parsed } from './parse.js';
import { errorOf, SettingsSection, shownErrors, useSaveSettings, type Errors } from './section.js';

const draftOf = (a: ApiOut) => ({
  price: formatMicro(a.price_per_request_micro),
  rps: String(a.rps),
  quota: String(a.monthly_quota),
  welcome: formatMicro(a.welcome_credit_micro),
  codes: (a.billable_status_codes ?? []).join(', '),
});

export function PricingSection({ apiOut }: { apiOut: ApiOut }) {
  const [draft, setDraft] = useState(() => draftOf(apiOut));
  const [local, setLocal] = useState<Errors>({});
  const save = useSaveSettings(apiOut, (updated) => setDraft(draftOf(updated)));
  const errors = shownErrors(local, save.mutation.error);
  const set = (name: keyof typeof draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const build = () => {
    const parsed: [string, Parsed<unknown>][] = [
      ['price_per_request_micro', parseAmount(draft.price)],
      ['rps', parseWhole(draft.rps)],
      ['monthly_quota', parseWhole(draft.quota)],
      ['welcome_credit_micro', parseAmount(draft.welcome)],
      ['billable_status_codes', parseStatusCodes(draft.codes)],
    ];
    const bad = Object.fromEntries(parsed.flatMap(([name, p]) => (p.ok ? [] : [[name, p.message]])));
    if (Object.keys(bad).length) return { errors: bad };
    return { body: Object.fromEntries(parsed.map(([name, p]) => [name, (p as { value: unknown }).value])) as UpdateAPIInBody };
  };
  return (
    <SettingsSection
      apiOut={apiOut}
      id="pricing"
      title="Price and limits"
      description="Every customer gets these unless a plan or their own limits say otherwise."
      saveLabel="Save price and limits"
      build={build}
      save={save}
      localErrors={local}
      setLocalErrors={setLocal}
      fields={['price_per_request_micro', 'rps', 'monthly_quota', 'welcome_credit_micro', 'billable_status_codes']}
    >
      <div className="grid-2">
        <Field label="Price per billable request" name="price_per_request_micro" inputMode="decimal" value={draft.price} onChange={set('price')} hint="In your currency's units, up to six decimals: 0.001 is a tenth of a cent." error={errorOf(errors, 'price_per_request_micro')} />
        <Field label="Requests per second, per customer" name="rps" inputMode="numeric" value={draft.rps} onChange={set('rps')} hint="0 means no limit; at most 100,000." error={errorOf(errors, 'rps')} />
        <Field label="Requests per month, per customer" name="monthly_quota" inputMode="numeric" value={draft.quota} onChange={set('quota')} hint="0 means no quota." error={errorOf(errors, 'monthly_quota')} />
        <Field label="Welcome credit" name="welcome_credit_micro" inputMode="decimal" value={draft.welcome} onChange={set('welcome')} hint="Given to each new customer." error={errorOf(errors, 'welcome_credit_micro')} />
      </div>
      <Field
        label="Billable status codes"
        name="billable_status_codes"
        value={draft.codes}
        onChange={set('codes')}
        hint="Responses with these statuses are charged; every request counts toward limits. Separate with commas; at most 40."
        error={errorOf(errors, 'billable_status_codes')}
      />
    </SettingsSection>
  );
}
