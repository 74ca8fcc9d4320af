import { StatusBadge } from '../../components/badge.js';
import { formatTime } from '../../format/time.js';
import type { WebhookOut } from './types.js';

/** Whether an endpoint gets deliveries, and why not: disabled by hand, or after 5 days of failures. */
export function EndpointState({ endpoint }: { endpoint: WebhookOut }) {
  if (!endpoint.enabled) {
    return (
      <>
        <StatusBadge status="off" label="disabled" />
        <div className="small muted">
          {endpoint.disabled_reason === 'failing' ? 'every delivery failed for 5 days' : 'by hand'}
          {endpoint.disabled_at ? `, ${formatTime(endpoint.disabled_at)}` : ''}
        </div>
      </>
    );
  }
  if (endpoint.failing_since) {
    return (
      <>
        <StatusBadge status="past_due" label="failing" />
        <div className="small muted">since {formatTime(endpoint.failing_since)}</div>
      </>
    );
  }
  return <StatusBadge status="active" label="enabled" />;
}

/** The types an endpoint hears: all of them when its list is empty. */
export const typesText = (types: string[]) => (types.length === 0 ? 'every event type' : types.join(', '));
