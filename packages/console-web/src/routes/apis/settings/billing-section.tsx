// How customers pay: prepaid credit (pay-as-you-go) with its top-up amounts, minimum, low-balance
// line and automatic recharge; and subscription plans.
import { useState } from 'react';
import { Link } from 'react-router';
import type { ApiOut, UpdateAPIInBody } from '../../../api/records.js';
import { Field } from '../../../components/field.js';
import { Switch } from '../../../components/switch.js';
import { formatMicro } from '../../../format/money.js';
import { dollars, parseAmount, parseDollarList, parseDollars } from './parse.js';
import { errorOf, SettingsSection, shownErrors, useSaveSettings, type Errors } from './section.js';

const draftOf = (a: ApiOut) => ({
  payg: a.payg_enabled,
  plans: a.plans_enabled,
  amounts: (a.topup_amounts_cents ?? []).map(dollars).join(', '),
  minimum: dollars(a.min_topup_cents),
  low: formatMicro(a.low_balance_micro),
  recharge: a.auto_recharge_allowed,
});

export function BillingSection({ apiOut }: { apiOut: ApiOut }) {
  const [draft, setDraft] = useState(() => draftOf(apiOut));
  const [local, setLocal] = useState<Errors>({});
  const save = useSaveSettings(apiOut, (updated) => setDraft(draftOf(updated)));
  const errors = shownErrors(local, save.mutation.error);
  const build = (): { body: UpdateAPIInBody } | { errors: Errors } => {
    const amounts = parseDollarList(draft.amounts);
    const minimum = parseDollars(draft.minimum);
    const low = parseAmount(draft.low);
    const bad: Errors = {};
    if (!amounts.ok) bad.topup_amounts_cents = amounts.message;
    if (!minimum.ok) bad.min_topup_cents = minimum.message;
    if (!low.ok) bad.low_balance_micro = low.message;
    if (!amounts.ok || !minimum.ok || !low.ok) return { errors: bad };
    return {
      body: {
        payg_enabled: draft.payg,
        plans_enabled: draft.plans,
        topup_amounts_cents: amounts.value,
        min_topup_cents: minimum.value,
        low_balance_micro: low.value,
        auto_recharge_allowed: draft.recharge,
      },
    };
  };
  const payments = apiOut.payments;
  return (
    <SettingsSection
      apiOut={apiOut}
      id="billing"
      title="How customers pay"
      description={
        payments.connected ? (
          'Customers pay through your connected payments account.'
        ) : (
          <>
            Customers can pay once your payments account is connected (<Link to={`/apis/${apiOut.id}/payments`}>payments</Link>).
          </>
        )
      }
      saveLabel="Save payment settings"
      build={build}
      save={save}
      localErrors={local}
      setLocalErrors={setLocal}
      fields={['payg_enabled', 'plans_enabled', 'topup_amounts_cents', 'min_topup_cents', 'low_balance_micro', 'auto_recharge_allowed']}
    >
      <Switch label="Pay as you go: customers buy prepaid credit" checked={draft.payg} onChange={(payg) => setDraft({ ...draft, payg })} />
      <Switch label="Plans: customers subscribe to your public plans" checked={draft.plans} onChange={(plans) => setDraft({ ...draft, plans })} />
      <div className="grid-2">
        <Field
          label="Top-up amounts (dollars)"
          name="topup_amounts_cents"
          value={draft.amounts}
          onChange={(event) => setDraft({ ...draft, amounts: event.target.value })}
          hint="The buttons on the portal, separated by commas, from 1 to 1000 each; at most 10."
          error={errorOf(errors, 'topup_amounts_cents')}
        />
        <Field
          label="Smallest top-up (dollars)"
          name="min_topup_cents"
          inputMode="decimal"
          value={draft.minimum}
          onChange={(event) => setDraft({ ...draft, minimum: event.target.value })}
          hint="From 1 to 1000; no offered amount may be below it."
          error={errorOf(errors, 'min_topup_cents')}
        />
        <Field
          label="Low balance line"
          name="low_balance_micro"
          inputMode="decimal"
          value={draft.low}
          onChange={(event) => setDraft({ ...draft, low: event.target.value })}
          hint="A customer whose balance falls below it is mailed once; 0 mails nobody."
          error={errorOf(errors, 'low_balance_micro')}
        />
      </div>
      <Switch label="Customers may turn on automatic recharge" checked={draft.recharge} onChange={(recharge) => setDraft({ ...draft, recharge })} />
      {errorOf(errors, 'payg_enabled') || errorOf(errors, 'plans_enabled') || errorOf(errors, 'auto_recharge_allowed') ? (
        <p className="field-error">{errorOf(errors, 'payg_enabled') ?? errorOf(errors, 'plans_enabled') ?? errorOf(errors, 'auto_recharge_allowed')}</p>
      ) : null}
    </SettingsSection>
  );
}
