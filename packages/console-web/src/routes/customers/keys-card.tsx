// A customer's API keys: the active ones (name, start, when made and last used), a new key shown
// once with a copy button, and revoking, confirmed.
import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import type { CustomerDetail, CustomerKey } from '../../api/records.js';
import { ConfirmButton } from '../../components/confirm.js';
import { ShownOnce } from '../../components/copy.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { formatAgo, formatTime } from '../../format/time.js';
import { useRefreshCustomerViews } from './use-customer-change.js';

function KeyRow({ apiId, customerId, customerKey, editable, onError }: { apiId: string; customerId: string; customerKey: CustomerKey; editable: boolean; onError: (error: unknown) => void }) {
  const refresh = useRefreshCustomerViews(apiId, customerId);
  const revoke = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/customers/{id}/keys/{key_id}', { params: { path: { api: apiId, id: customerId, key_id: customerKey.id } } })),
    onSuccess: () => refresh(),
    onError,
  });
  return (
    <tr>
      <td>{customerKey.name}</td>
      <td>
        <code>{customerKey.prefix}…</code>
      </td>
      <td className="nowrap">{formatTime(customerKey.created_at)}</td>
      <td className="nowrap">{formatAgo(customerKey.last_used_at)}</td>
      {editable ? (
        <td>
          <ConfirmButton label={`Revoke ${customerKey.name}`} title={`Revoke the key ${customerKey.name}?`} confirmLabel="Revoke key" onConfirm={() => revoke.mutateAsync().catch(() => undefined)}>
            <p>
              Requests with <code>{customerKey.prefix}…</code> are refused once the SDK next syncs. This cannot be undone.
            </p>
          </ConfirmButton>
        </td>
      ) : null}
    </tr>
  );
}

export function KeysCard({ apiId, customer, editable }: { apiId: string; customer: CustomerDetail; editable: boolean }) {
  const refresh = useRefreshCustomerViews(apiId, customer.id);
  const [name, setName] = useState('');
  const [revokeError, setRevokeError] = useState<unknown>(null);
  const create = useMutation({
    mutationFn: (keyName: string) => call(api.POST('/api/apis/{api}/customers/{id}/keys', { params: { path: { api: apiId, id: customer.id } }, body: { name: keyName } })),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim());
  };
  const keys = customer.keys ?? [];
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      {create.data ? <ShownOnce value={create.data.key} label={`The key ${create.data.name}:`} testId="new-key" /> : null}
      <FormError error={revokeError} />
      {keys.length ? (
        <div className="table-wrap">
          <table data-testid="keys">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Made</th>
                <th scope="col">Last used</th>
                {editable ? <th scope="col"><span className="visually-hidden">Actions</span></th> : null}
              </tr>
            </thead>
            <tbody>
              {keys.map((k) => (
                <KeyRow key={k.id} apiId={apiId} customerId={customer.id} customerKey={k} editable={editable} onError={setRevokeError} />
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="muted">No active keys. Customers make their own on the portal{editable ? ', or you can make one here' : ''}.</p>
      )}
      {editable ? (
        <form className="row key-form" onSubmit={submit} noValidate>
          <FormError error={create.error} fields={['name']} />
          <Field label="New key's name" name="name" maxLength={80} autoComplete="off" value={name} onChange={(event) => setName(event.target.value)} error={fieldErrors(create.error).name} />
          <button type="submit" disabled={create.isPending}>
            Create key
          </button>
        </form>
      ) : null}
    </section>
  );
}
