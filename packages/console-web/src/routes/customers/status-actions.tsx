// What can happen to a customer's standing (customers/routes.ts): approve or refuse a pending
// sign-up, suspend and reactivate (never the test customer), and remove, which deletes a customer
// with nothing on record and archives any other. Refusing, suspending and removing are confirmed.
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import type { CustomerDetail, CustomerStatus } from '../../api/records.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormError } from '../../components/field.js';
import { useCustomerChange, useRefreshCustomerViews } from './use-customer-change.js';

// A refusal shows above the buttons (the mutation's error); the dialog closes either way.
const ignore = () => undefined;

export function StatusActions({ apiId, customer }: { apiId: string; customer: CustomerDetail }) {
  const navigate = useNavigate();
  const path = { api: apiId, id: customer.id };
  const setStatus = useCustomerChange(apiId, customer.id, (status: CustomerStatus) => call(api.PATCH('/api/apis/{api}/customers/{id}', { params: { path }, body: { status } })));
  const refresh = useRefreshCustomerViews(apiId, customer.id);
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/customers/{id}', { params: { path } })),
    onSuccess: (archived) => {
      refresh(archived ?? undefined);
      if (!archived) void navigate(`/apis/${apiId}/customers`, { replace: true });
    },
  });
  const busy = setStatus.isPending || remove.isPending;
  return (
    <div className="status-actions">
      <FormError error={setStatus.error ?? remove.error} />
      <div className="actions">
        {customer.status === 'pending' ? (
          <>
            <button type="button" disabled={busy} onClick={() => setStatus.mutate('active')}>
              Approve
            </button>
            <ConfirmButton label="Refuse" title={`Refuse ${customer.name}?`} disabled={busy} onConfirm={() => setStatus.mutateAsync('suspended').catch(ignore)}>
              <p>The customer is suspended and {customer.email} is told by mail that the sign-up was declined. You can reactivate it later.</p>
            </ConfirmButton>
          </>
        ) : null}
        {customer.status === 'active' && !customer.is_test ? (
          <ConfirmButton label="Suspend" title={`Suspend ${customer.name}?`} disabled={busy} onConfirm={() => setStatus.mutateAsync('suspended').catch(ignore)}>
            <p>Its keys stop working at your API (403) as soon as the SDK next syncs; the balance and ledger are kept.</p>
          </ConfirmButton>
        ) : null}
        {customer.status === 'suspended' ? (
          <button type="button" className="secondary" disabled={busy} onClick={() => setStatus.mutate('active')}>
            Reactivate
          </button>
        ) : null}
        {!customer.is_test ? (
          <ConfirmButton label="Remove customer" title={`Remove ${customer.name}?`} disabled={busy} onConfirm={() => remove.mutateAsync().catch(ignore)}>
            <p>A customer with nothing on record but its creation is deleted.</p>
            <p>
              One with ledger entries, usage or keys is archived instead: hidden from lists, the portal and the SDK, its keys revoked, its ledger and usage kept, and read-only from
              then on. This cannot be undone.
            </p>
          </ConfirmButton>
        ) : null}
      </div>
    </div>
  );
}
