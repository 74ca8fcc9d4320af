// The webhook endpoints of an API (/apis/:api/webhooks): where its events are sent, what each one
// hears and whether it is getting them. Editors add one (its secret shown once, in this page's state
// only); each endpoint's own page has its deliveries and actions.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../api/client.js';
import type { ApiOut } from '../../api/records.js';
import { canEdit } from '../../app/roles.js';
import { useApiAndList, useApiId } from '../../app/use-api.js';
import { ShownOnce } from '../../components/copy.js';
import { PageHeader } from '../../components/page.js';
import { Empty, QueryState } from '../../components/states.js';
import { EndpointForm } from './endpoint-form.js';
import { EndpointState, typesText } from './endpoint-state.js';
import { webhooksKey, type WebhookOut } from './types.js';

function EndpointsTable({ apiOut, endpoints }: { apiOut: ApiOut; endpoints: WebhookOut[] }) {
  if (endpoints.length === 0) {
    return (
      <Empty title="No endpoints yet">
        <p>{canEdit(apiOut.role) ? 'Add the address of a receiver below: events are sent there as they happen, signed with its secret.' : 'An editor adds the addresses events are sent to.'}</p>
      </Empty>
    );
  }
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">Webhook endpoints</caption>
        <thead>
          <tr>
            <th scope="col">Endpoint</th>
            <th scope="col">Event types</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id} data-testid={`endpoint-${endpoint.id}`}>
              <td>
                <Link to={`/apis/${apiOut.id}/webhooks/${endpoint.id}`}>{endpoint.url}</Link>
                {endpoint.description ? <div className="small muted">{endpoint.description}</div> : null}
              </td>
              <td className="small">{typesText(endpoint.event_types)}</td>
              <td>
                <EndpointState endpoint={endpoint} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function EndpointsPage() {
  const apiId = useApiId();
  const list = useQuery({
    queryKey: webhooksKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/webhooks', { params: { path: { api: apiId } } })),
    select: (answer) => answer.webhooks,
  });
  const both = useApiAndList(apiId, list);
  const [shown, setShown] = useState<{ url: string; id: string; secret: string } | null>(null);
  return (
    <QueryState query={both} loading="Loading the webhook endpoints…">
      {({ apiOut, list: endpoints }) => (
        <>
          <PageHeader title={`Webhooks of ${apiOut.name}`} description={<>Events of {apiOut.name} (customers, credit, payments, subscriptions, keys, the SDK) sent to your own servers, signed by the Standard Webhooks scheme and retried for about a day until they answer 2xx.</>} />
          {shown ? (
            <div className="shown-once">
              <ShownOnce value={shown.secret} label={`${shown.url} is added. Its signing secret:`} testId="webhook-secret" />
              <div className="actions">
                <Link to={`/apis/${apiOut.id}/webhooks/${shown.id}`}>Open the endpoint</Link>
                <button type="button" className="secondary" onClick={() => setShown(null)}>
                  I have copied it
                </button>
              </div>
            </div>
          ) : null}
          <EndpointsTable apiOut={apiOut} endpoints={endpoints} />
          {canEdit(apiOut.role) ? <EndpointForm apiId={apiOut.id} onCreated={(endpoint) => setShown({ url: endpoint.url, id: endpoint.id, secret: endpoint.secret })} /> : null}
        </>
      )}
    </QueryState>
  );
}
