// Suspending an API refuses every customer's requests until it resumes (admins); deleting removes
// it with its customers, keys, plans and ledger, confirmed by typing its name (admins).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { canAdmin } from '../../../app/roles.js';
import { apiKey } from '../../../app/use-api.js';
import { StatusBadge } from '../../../components/badge.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { secretKey } from '../connect/secret-card.js';

export function StatusSection({ apiOut }: { apiOut: ApiOut }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const path = { params: { path: { api: apiOut.id } } };
  const settle = (updated: ApiOut) => {
    queryClient.setQueryData(apiKey(apiOut.id), updated);
    void queryClient.invalidateQueries({ queryKey: ['/api/workspaces/{ws}/apis', apiOut.workspace_id] });
  };
  const suspend = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/suspend', { ...path, body: reason.trim() ? { reason: reason.trim() } : {} })),
    onSuccess: (updated) => {
      settle(updated);
      setReason('');
    },
  });
  const resume = useMutation({ mutationFn: () => call(api.POST('/api/apis/{api}/resume', path)), onSuccess: settle });
  const suspended = apiOut.status === 'suspended';
  return (
    <section className="card settings-section" aria-labelledby="status-heading">
      <h2 id="status-heading">Status</h2>
      <p data-testid="api-status">
        <StatusBadge status={apiOut.status} />{' '}
        {suspended ? `Every customer's requests are refused${apiOut.suspended_reason ? `. Reason: ${apiOut.suspended_reason}` : ''}.` : 'Customers can use the API.'}
      </p>
      {canAdmin(apiOut.role) ? (
        suspended ? (
          <>
            <button type="button" onClick={() => resume.mutate()} disabled={resume.isPending}>
              Resume API
            </button>
            <FormError error={resume.error} />
          </>
        ) : (
          <ConfirmButton label="Suspend API" title={`Suspend ${apiOut.name}`} onConfirm={() => suspend.mutateAsync()}>
            <p>Every request of every customer is refused (403) until you resume the API. Usage already made is still counted.</p>
            <Field label="Reason (optional)" name="reason" maxLength={300} value={reason} onChange={(event) => setReason(event.target.value)} error={fieldErrors(suspend.error).reason} />
            <FormError error={suspend.error} fields={['reason']} />
          </ConfirmButton>
        )
      ) : (
        <p className="small muted">Admins suspend and resume APIs.</p>
      )}
    </section>
  );
}

export function DeleteSection({ apiOut }: { apiOut: ApiOut }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}', { params: { path: { api: apiOut.id } } })),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['/api/workspaces/{ws}/apis', apiOut.workspace_id] });
      void navigate(`/workspaces/${apiOut.workspace_id}/apis`, { replace: true });
      // After leaving: the pages of the deleted API must not ask for it again.
      queryClient.removeQueries({ queryKey: apiKey(apiOut.id) });
      queryClient.removeQueries({ queryKey: secretKey(apiOut.id) });
    },
  });
  if (!canAdmin(apiOut.role)) return null;
  return (
    <section className="card settings-section danger-zone" aria-labelledby="delete-heading">
      <h2 id="delete-heading">Delete this API</h2>
      <p>Its customers, their keys and credit, its plans and its ledger are deleted for good; the audit log keeps its events.</p>
      <ConfirmButton label="Delete API" title={`Delete ${apiOut.name}`} typeToConfirm={apiOut.name} onConfirm={() => remove.mutateAsync()}>
        <p>This cannot be undone. Customers' keys stop working at once.</p>
        <FormError error={remove.error} />
      </ConfirmButton>
    </section>
  );
}
