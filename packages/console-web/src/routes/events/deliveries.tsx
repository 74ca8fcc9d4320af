// An endpoint's deliveries, newest first and paged by cursor: each event's status, attempts, the
// receiver's last answer (its status code and the first 2 KB of its body, or why it failed) and
// when the next attempt is due. An editor sends one again now, as a new delivery.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, call } from '../../api/client.js';
import { StatusBadge } from '../../components/badge.js';
import { FormError } from '../../components/field.js';
import { Pager, useCursorStack } from '../../components/pager.js';
import { Empty, QueryState } from '../../components/states.js';
import { formatTime } from '../../format/time.js';
import { deliveriesKey, type DeliveryOut } from './types.js';

const STATUS_BADGE: Record<DeliveryOut['status'], string> = { succeeded: 'active', pending: 'pending', failed: 'failed' };

function RetryButton({ apiId, endpointId, delivery }: { apiId: string; endpointId: string; delivery: DeliveryOut }) {
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => call(api.POST('/api/apis/{api}/webhooks/{endpoint}/deliveries/{delivery}/retry', { params: { path: { api: apiId, endpoint: endpointId, delivery: delivery.id } } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deliveriesKey(apiId, endpointId) }),
  });
  return (
    <>
      <button type="button" className="secondary" onClick={() => retry.mutate()} disabled={retry.isPending}>
        {retry.isSuccess ? 'Sent again' : 'Retry'}
        <span className="visually-hidden"> {delivery.event_type} {delivery.event_id}</span>
      </button>
      <FormError error={retry.error} />
    </>
  );
}

function LastAnswer({ delivery }: { delivery: DeliveryOut }) {
  if (!delivery.last_attempt_at) return <span className="muted">not tried yet</span>;
  return (
    <>
      {delivery.status_code !== undefined ? <span>HTTP {delivery.status_code}</span> : null}
      {delivery.error ? <div className="small" data-testid="delivery-error">{delivery.error}</div> : null}
      <div className="small muted">{formatTime(delivery.last_attempt_at)}</div>
      {delivery.response_excerpt ? (
        <details className="audit-details">
          <summary>Response</summary>
          <pre data-testid="response-excerpt">{delivery.response_excerpt}</pre>
        </details>
      ) : null}
    </>
  );
}

export function Deliveries({ apiId, endpointId, editable }: { apiId: string; endpointId: string; editable: boolean }) {
  const pages = useCursorStack(endpointId);
  const deliveries = useQuery({
    queryKey: [...deliveriesKey(apiId, endpointId), pages.cursor],
    queryFn: () => call(api.GET('/api/apis/{api}/webhooks/{endpoint}/deliveries', { params: { path: { api: apiId, endpoint: endpointId }, query: { limit: 50, ...(pages.cursor ? { cursor: pages.cursor } : {}) } } })),
  });
  return (
    <section className="card" aria-labelledby="deliveries-heading">
      <h2 id="deliveries-heading">Deliveries</h2>
      <QueryState query={deliveries} loading="Loading the deliveries…">
        {(answer) =>
          answer.deliveries.length === 0 ? (
            <Empty title="No deliveries yet">
              <p>Events this endpoint hears are listed here as they are sent. "Send a test event" sends one now.</p>
            </Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Deliveries, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Event</th>
                      <th scope="col">Status</th>
                      <th scope="col">Last answer</th>
                      <th scope="col">Next attempt</th>
                      {editable ? <th scope="col">Actions</th> : null}
                    </tr>
                  </thead>
                  <tbody>
                    {answer.deliveries.map((delivery) => (
                      <tr key={delivery.id} data-testid={`delivery-${delivery.id}`}>
                        <td>
                          <code>{delivery.event_type}</code>
                          <div className="small muted">
                            {delivery.event_id}, {formatTime(delivery.created_at)}
                          </div>
                        </td>
                        <td>
                          <StatusBadge status={STATUS_BADGE[delivery.status]} label={delivery.status} />
                          <div className="small muted">
                            {delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
                          </div>
                        </td>
                        <td>
                          <LastAnswer delivery={delivery} />
                        </td>
                        <td className="small">{delivery.next_attempt_at ? formatTime(delivery.next_attempt_at) : <span className="muted">none</span>}</td>
                        {editable ? (
                          <td>
                            <RetryButton apiId={apiId} endpointId={endpointId} delivery={delivery} />
                          </td>
                        ) : null}
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager pages={pages} nextCursor={answer.next_cursor} label="Pages of deliveries" />
            </>
          )
        }
      </QueryState>
    </section>
  );
}
