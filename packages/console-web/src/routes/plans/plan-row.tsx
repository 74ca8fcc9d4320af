// One plan in the list: its terms, where it is offered, its subscribers, its sale at the payments
// provider (synced, or the provider's error with "Try again"), and an editor's controls.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.js';
import type { ApiOut } from '../../api/records.js';
import { StatusBadge } from '../../components/badge.js';
import { ConfirmButton } from '../../components/confirm.js';
import { CopyButton } from '../../components/copy.js';
import { FormError } from '../../components/field.js';
import { formatCents, formatCount, formatMicro } from '../../format/money.js';
import { formatTime } from '../../format/time.js';
import { plansKey, type PlanOut } from './types.js';

function ProviderSync({ apiOut, plan, editable }: { apiOut: ApiOut; plan: PlanOut; editable: boolean }) {
  const queryClient = useQueryClient();
  // A PATCH that changes nothing asks the provider again for a plan whose sync failed.
  const retry = useMutation({
    mutationFn: () => call(api.PATCH('/api/apis/{api}/plans/{id}', { params: { path: { api: apiOut.id, id: plan.id } }, body: {} })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: plansKey(apiOut.id) }),
  });
  if (plan.price_monthly_cents === 0) return <span className="muted">free: nothing to sell</span>;
  if (plan.provider_sync_error) {
    return (
      <div data-testid="sync-error">
        <StatusBadge status="failed" label="not on sale" />
        <div className="small">{plan.provider_sync_error}</div>
        {editable ? (
          <button type="button" className="secondary" onClick={() => retry.mutate()} disabled={retry.isPending}>
            Try again<span className="visually-hidden"> to put {plan.name} on sale</span>
          </button>
        ) : null}
        <FormError error={retry.error} />
      </div>
    );
  }
  if (plan.provider_price_id) {
    return (
      <>
        <StatusBadge status="active" label="on sale" />
        {plan.provider_synced_at ? <div className="small muted">since {formatTime(plan.provider_synced_at)}</div> : null}
      </>
    );
  }
  if (!apiOut.payments.connected) return <span className="small muted">Connect a payments account to sell it; until then customers ask for it by mail.</span>;
  return <StatusBadge status="pending" label="being put on sale" />;
}

function DeletePlan({ apiId, plan }: { apiId: string; plan: PlanOut }) {
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/plans/{id}', { params: { path: { api: apiId, id: plan.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: plansKey(apiId) }),
  });
  const kept = plan.subscribers > 0;
  return (
    <ConfirmButton label={<>{kept ? 'Deactivate' : 'Delete'}<span className="visually-hidden"> {plan.name}</span></>} title={kept ? `Deactivate ${plan.name}` : `Delete ${plan.name}`} confirmLabel={kept ? 'Deactivate plan' : 'Delete plan'} onOpen={() => remove.reset()} onConfirm={() => remove.mutateAsync()}>
      <p>{kept ? `${formatCount(plan.subscribers)} ${plan.subscribers === 1 ? 'customer is' : 'customers are'} on it, so it is deactivated instead of deleted: they keep it, nobody new can choose it, and checkouts still open for it are closed.` : 'Nobody is on it. Checkouts still open for it are closed. This cannot be undone.'}</p>
      <FormError error={remove.error} />
    </ConfirmButton>
  );
}

export interface RowProps {
  apiOut: ApiOut;
  plan: PlanOut;
  editable: boolean;
  first: boolean;
  last: boolean;
  onMove: (direction: -1 | 1) => void;
  moving: boolean;
  onEdit: () => void;
}

export function PlanRow({ apiOut, plan, editable, first, last, onMove, moving, onEdit }: RowProps) {
  return (
    <tr data-testid={`plan-${plan.id}`}>
      <td>
        <strong>{plan.name}</strong> {plan.visibility === 'private' ? <StatusBadge status="off" label="private" /> : null} {!plan.active ? <StatusBadge status="canceled" label="inactive" /> : null}
        {plan.description ? <div className="small muted">{plan.description}</div> : null}
        {plan.portal_url ? (
          <div className="small">
            <CopyButton value={plan.portal_url} label={plan.visibility === 'private' ? `Copy the link to ${plan.name}` : `Copy the link to ${plan.name}`} className="link" />
          </div>
        ) : null}
      </td>
      <td>
        {plan.price_monthly_cents > 0 ? `${formatCents(plan.price_monthly_cents)} a month` : 'Free'}
        <div className="small muted">
          {plan.credit_micro > 0 ? `${formatMicro(plan.credit_micro)} credit an invoice. ` : ''}
          {plan.price_per_request_micro !== null ? `${formatMicro(plan.price_per_request_micro)} a request. ` : ''}
          {plan.monthly_quota !== null ? (plan.monthly_quota === 0 ? 'No monthly limit. ' : `${formatCount(plan.monthly_quota)} requests a month. `) : ''}
          {plan.rps !== null ? (plan.rps === 0 ? 'No rate limit.' : `${formatCount(plan.rps)} a second.`) : ''}
        </div>
      </td>
      <td data-testid="subscribers">{formatCount(plan.subscribers)}</td>
      <td>
        <ProviderSync apiOut={apiOut} plan={plan} editable={editable} />
      </td>
      {editable ? (
        <td>
          <div className="actions">
            <button type="button" className="secondary" onClick={() => onMove(-1)} disabled={first || moving}>
              Up<span className="visually-hidden"> {plan.name}</span>
            </button>
            <button type="button" className="secondary" onClick={() => onMove(1)} disabled={last || moving}>
              Down<span className="visually-hidden"> {plan.name}</span>
            </button>
            <button type="button" className="secondary" onClick={onEdit}>
              Edit<span className="visually-hidden"> {plan.name}</span>
            </button>
            <DeletePlan apiId={apiOut.id} plan={plan} />
          </div>
        </td>
      ) : null}
    </tr>
  );
}
