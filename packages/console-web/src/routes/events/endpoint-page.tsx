// One webhook endpoint (/apis/:api/webhooks/:endpoint): its address, the types it hears, its state,
// its actions for editors, its deliveries and a replay of past events. A rotated secret is shown
// once, in this page's state only.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, call } from '../../api/client.js';
import { canEdit } from '../../app/roles.js';
import { useApiAndList, useApiId } from '../../app/use-api.js';
import { ShownOnce } from '../../components/copy.js';
import { PageHeader } from '../../components/page.js';
import { QueryState } from '../../components/states.js';
import { formatTime } from '../../format/time.js';
import { Deliveries } from './deliveries.js';
import { EndpointActions } from './endpoint-actions.js';
import { EndpointState, typesText } from './endpoint-state.js';
import { ReplayForm } from './replay-form.js';
import { webhookKey } from './types.js';

export function EndpointPage() {
  const apiId = useApiId();
  const endpointId = useParams().endpoint ?? '';
  const endpoint = useQuery({
    queryKey: webhookKey(apiId, endpointId),
    queryFn: () => call(api.GET('/api/apis/{api}/webhooks/{endpoint}', { params: { path: { api: apiId, endpoint: endpointId } } })),
  });
  const both = useApiAndList(apiId, endpoint);
  const [secret, setSecret] = useState<string | null>(null);
  return (
    <QueryState query={both} loading="Loading the endpoint…">
      {({ apiOut, list: hook }) => {
        const editable = canEdit(apiOut.role);
        return (
          <>
            <PageHeader title={`Webhook endpoint of ${apiOut.name}`} description={hook.description || undefined} actions={<Link to={`/apis/${apiOut.id}/webhooks`}>All endpoints</Link>} />
            {secret ? (
              <div className="shown-once">
                <ShownOnce value={secret} label="The new signing secret; the old one signs beside it for 24 hours." testId="webhook-secret" />
                <div className="actions">
                  <button type="button" className="secondary" onClick={() => setSecret(null)}>
                    I have copied it
                  </button>
                </div>
              </div>
            ) : null}
            <section className="card" aria-labelledby="endpoint-heading">
              <h2 id="endpoint-heading">Endpoint</h2>
              <dl className="details">
                <dt>URL</dt>
                <dd>
                  <code data-testid="endpoint-url">{hook.url}</code>
                </dd>
                <dt>Event types</dt>
                <dd>{typesText(hook.event_types)}</dd>
                <dt>State</dt>
                <dd data-testid="endpoint-state">
                  <EndpointState endpoint={hook} />
                </dd>
                {hook.previous_secret_expires_at ? (
                  <>
                    <dt>Previous secret</dt>
                    <dd>signs beside the new one until {formatTime(hook.previous_secret_expires_at)}</dd>
                  </>
                ) : null}
                <dt>Added</dt>
                <dd>{formatTime(hook.created_at)}</dd>
              </dl>
            </section>
            {editable ? <EndpointActions apiId={apiOut.id} endpoint={hook} onSecret={setSecret} /> : null}
            <Deliveries apiId={apiOut.id} endpointId={hook.id} editable={editable} />
            {editable ? <ReplayForm apiId={apiOut.id} endpointId={hook.id} /> : null}
          </>
        );
      }}
    </QueryState>
  );
}
