// The owner's notes about a customer (PATCH notes, up to 2,000 characters), never shown to it.
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { CustomerDetail } from '../../api/records.js';
import { FormError, TextAreaField, fieldErrors } from '../../components/field.js';
import { useCustomerChange } from './use-customer-change.js';

export function NotesCard({ apiId, customer, editable }: { apiId: string; customer: CustomerDetail; editable: boolean }) {
  const [notes, setNotes] = useState(customer.notes);
  const save = useCustomerChange(apiId, customer.id, (text: string) => call(api.PATCH('/api/apis/{api}/customers/{id}', { params: { path: { api: apiId, id: customer.id } }, body: { notes: text } })));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(notes);
  };
  if (!editable) {
    return (
      <section className="card" aria-labelledby="notes-title">
        <h2 id="notes-title">Notes</h2>
        <p className="notes">{customer.notes || <span className="muted">No notes.</span>}</p>
      </section>
    );
  }
  return (
    <form className="card" onSubmit={submit} noValidate aria-labelledby="notes-title">
      <h2 id="notes-title">Notes</h2>
      <FormError error={save.error} fields={['notes']} />
      {save.isSuccess && notes === customer.notes ? (
        <p className="alert ok" role="status">
          Notes saved.
        </p>
      ) : null}
      <TextAreaField label="Notes for your team" hint="Only people of your workspace see them." name="notes" maxLength={2000} value={notes} onChange={(event) => setNotes(event.target.value)} error={fieldErrors(save.error).notes} />
      <button type="submit" disabled={save.isPending}>
        Save notes
      </button>
    </form>
  );
}
