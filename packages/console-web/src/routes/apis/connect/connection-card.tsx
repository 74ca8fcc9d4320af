// Whether the SDK is connected (ConnectionBody), asked every 3 seconds until it is, so the page
// turns to connected by itself when the SDK first fetches its snapshot; then the asking stops.
import { useQuery } from '@tanstack/react-query';
import { api, call } from '../../../api/client.js';
import type { ConnectionBody } from '../../../api/records.js';
import { key } from '../../../app/query-keys.js';
import { StatusBadge } from '../../../components/badge.js';
import { QueryState } from '../../../components/states.js';
import { formatCount } from '../../../format/money.js';
import { formatAgo, formatTime } from '../../../format/time.js';

const POLL_MS = 3_000;

export const connectionKey = (apiId: string) => key('/api/apis/{api}/connection', apiId);

function Facts({ connection }: { connection: ConnectionBody }) {
  return (
    <dl className="connection-facts">
      <dt>SDK first seen</dt>
      <dd>{formatTime(connection.sdk_first_seen_at)}</dd>
      <dt>SDK last seen</dt>
      <dd>{connection.sdk_last_seen_at ? `${formatTime(connection.sdk_last_seen_at)} (${formatAgo(connection.sdk_last_seen_at)})` : 'never'}</dd>
      <dt>SDK agent</dt>
      <dd>{connection.sdk_agent ?? 'none yet'}</dd>
      <dt>First usage</dt>
      <dd>{formatTime(connection.first_usage_at)}</dd>
      <dt>Test requests</dt>
      <dd>{formatCount(connection.test_requests)}</dd>
      <dt>Customers</dt>
      <dd>{formatCount(connection.customers)}</dd>
      <dt>Payments</dt>
      <dd>{connection.payments_ready ? 'ready to take payments' : 'not connected'}</dd>
    </dl>
  );
}

export function ConnectionCard({ apiId }: { apiId: string }) {
  const connection = useQuery({
    queryKey: connectionKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/connection', { params: { path: { api: apiId } } })),
    refetchInterval: (query) => (query.state.data?.sdk_connected ? false : POLL_MS),
  });
  return (
    <section className="card" aria-labelledby="connection-heading">
      <h2 id="connection-heading">Connection</h2>
      <QueryState query={connection} loading="Asking whether the SDK is connected…">
        {(body) => (
          <>
            <p role="status" className="connection-status" data-testid="connection-status">
              {body.sdk_connected ? (
                <>
                  <StatusBadge status="connected" /> The SDK fetched its snapshot in the last 10 minutes.
                </>
              ) : (
                <>
                  <StatusBadge status="pending" label="waiting for the SDK" /> Start your API with the SDK; this page turns to connected by itself when it first
                  syncs.
                </>
              )}
            </p>
            <Facts connection={body} />
          </>
        )}
      </QueryState>
    </section>
  );
}
