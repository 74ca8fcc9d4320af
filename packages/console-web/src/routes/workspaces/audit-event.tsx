// One event of the audit log: when, who, what; its details expand in a native <details> (a
// disclosure keyboards and screen readers know), with ways to narrow the log to its kind.
import type { AuditOut } from '../../api/records.js';
import { formatTime } from '../../format/time.js';
import { familyOf, type AuditFilter } from './audit-filters.js';

function Narrow({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <button type="button" className="secondary small-button" onClick={onClick}>
      {label}
    </button>
  );
}

export function AuditEventRow({ event, narrow }: { event: AuditOut; narrow: (filter: AuditFilter) => void }) {
  const details = Object.keys(event.details).length ? JSON.stringify(event.details, null, 2) : null;
  return (
    <tr>
      <td className="nowrap">{formatTime(event.created_at)}</td>
      <td className="nowrap">
        {event.actor_name || event.actor_id}
        <div className="muted small">{event.actor_type}</div>
      </td>
      <td>
        <code>{event.action}</code>
      </td>
      <td>
        <details className="audit-details">
          <summary>{event.summary}</summary>
          <dl>
            <dt>Actor</dt>
            <dd>
              {event.actor_name} ({event.actor_type} <code>{event.actor_id}</code>)
            </dd>
            <dt>Target</dt>
            <dd>
              {event.target_type} <code>{event.target_id}</code>
            </dd>
            {event.api_id ? (
              <>
                <dt>API</dt>
                <dd>
                  {event.api_name} <code>{event.api_id}</code>
                </dd>
              </>
            ) : null}
            {event.customer_id ? (
              <>
                <dt>Customer</dt>
                <dd>
                  {event.customer_name} <code>{event.customer_id}</code>
                </dd>
              </>
            ) : null}
            <dt>Address</dt>
            <dd>{event.ip || 'none (done by the service)'}</dd>
            <dt>Event</dt>
            <dd>
              <code>{event.id}</code>
            </dd>
          </dl>
          {details ? (
            <>
              <p className="small muted">Details</p>
              <pre>{details}</pre>
            </>
          ) : null}
          <div className="actions">
            <Narrow label={`Only events by ${event.actor_name || event.actor_id}`} onClick={() => narrow({ actor_id: event.actor_id })} />
            <Narrow label={`Only ${familyOf(event.action)} events`} onClick={() => narrow({ action: familyOf(event.action) })} />
            {event.customer_id ? <Narrow label={`Only events about ${event.customer_name || event.customer_id}`} onClick={() => narrow({ customer_id: event.customer_id! })} /> : null}
          </div>
        </details>
      </td>
    </tr>
  );
}
