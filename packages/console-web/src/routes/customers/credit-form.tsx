// Credit or debit a customer by hand (POST …/credit): the amount typed in units and read exactly by
// parseMicro, its sign from the credit/debit choice, a note, and an idempotency reference filled
// with a fresh random value, so submitting the same form twice applies it once (the API answers
// `applied: false` for a reference it has seen, and the page says "already applied").
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { CreditBody } from '../../api/records.js';
import { key } from '../../app/query-keys.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { formatMicro, parseMicro } from '../../format/money.js';
import { useRefreshCustomerViews } from './use-customer-change.js';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** "console-" and 20 random characters; crypto.getRandomValues works on plain http too. */
export function freshReference(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(20));
  return `console-${Array.from(bytes, (b) => ALPHABET[b % 36]).join('')}`;
}

type Direction = 'credit' | 'debit';

interface Outcome {
  answer: CreditBody;
  amountMicro: number;
  ref: string | undefined;
}

export function CreditForm({ apiId, customerId }: { apiId: string; customerId: string }) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCustomerViews(apiId, customerId);
  const [direction, setDirection] = useState<Direction>('credit');
  const [amount, setAmount] = useState('');
  const [note, setNote] = useState('');
  const [ref, setRef] = useState(freshReference);
  const [amountError, setAmountError] = useState<string | null>(null);
  const credit = useMutation({
    mutationFn: async (body: { amount_micro: number; note: string; ref?: string }): Promise<Outcome> => ({
      answer: await call(api.POST('/api/apis/{api}/customers/{id}/credit', { params: { path: { api: apiId, id: customerId } }, body })),
      amountMicro: body.amount_micro,
      ref: body.ref,
    }),
    // Applied or already applied, what was asked for is done: the form starts again with a fresh
    // reference, so a further submit is a new credit only when the person types one.
    onSuccess: () => {
      refresh();
      void queryClient.invalidateQueries({ queryKey: key('/api/apis/{api}/ledger', apiId) });
      setAmount('');
      setNote('');
      setRef(freshReference());
    },
  });
  const errors = fieldErrors(credit.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const micro = parseMicro(amount);
    if (micro === null || micro <= 0) {
      setAmountError('Type an amount above zero in units, with at most six decimals (for example 5 or 0.25); choose credit or debit for its sign.');
      return;
    }
    setAmountError(null);
    // An emptied reference is left out: the credit then applies however often it is sent.
    credit.mutate({ amount_micro: direction === 'credit' ? micro : -micro, note, ...(ref.trim() ? { ref: ref.trim() } : {}) });
  };
  const outcome = credit.data;
  return (
    <form className="card credit-form" onSubmit={submit} noValidate aria-labelledby="credit-title">
      <h2 id="credit-title">Credit or debit</h2>
      <FormError error={credit.error} fields={['amount_micro', 'note', 'ref']} />
      {outcome && !credit.isPending && !credit.error ? (
        outcome.answer.applied ? (
          <p className="alert ok" role="status">
            {outcome.amountMicro > 0 ? 'Credited' : 'Debited'} {formatMicro(Math.abs(outcome.amountMicro))}. The balance is now {formatMicro(outcome.answer.balance_micro)}.
          </p>
        ) : (
          <p className="alert warning" role="status">
            Already applied: the reference {outcome.ref} was used before, so nothing changed. The balance is {formatMicro(outcome.answer.balance_micro)}.
          </p>
        )
      ) : null}
      <fieldset>
        <legend>Direction</legend>
        <label className="check">
          <input type="radio" name="direction" value="credit" checked={direction === 'credit'} onChange={() => setDirection('credit')} /> Credit: add to the balance
        </label>
        <label className="check">
          <input type="radio" name="direction" value="debit" checked={direction === 'debit'} onChange={() => setDirection('debit')} /> Debit: take from the balance
        </label>
      </fieldset>
      <Field
        label="Amount"
        hint="In units of the API's currency, up to six decimals: 0.001 is 1,000 micro units."
        name="amount"
        inputMode="decimal"
        autoComplete="off"
        value={amount}
        onChange={(event) => setAmount(event.target.value)}
        error={amountError ?? errors.amount_micro}
      />
      <Field label="Note" hint="Why, for the ledger (1 to 300 characters)." name="note" maxLength={300} autoComplete="off" value={note} onChange={(event) => setNote(event.target.value)} error={errors.note} />
      <Field
        label="Reference"
        hint="Sending the same reference again changes nothing, so a double submit applies once. Use your invoice number to tie the entry to it."
        name="ref"
        maxLength={200}
        autoComplete="off"
        value={ref}
        onChange={(event) => setRef(event.target.value)}
        error={errors.ref}
      />
      <button type="submit" disabled={credit.isPending}>
        {direction === 'credit' ? 'Add credit' : 'Debit balance'}
      </button>
    </form>
  );
}
