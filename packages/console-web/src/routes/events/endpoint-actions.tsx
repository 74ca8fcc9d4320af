// What an editor does to one endpoint: send a test event, disable it or enable it again (its
// pending deliveries resume), rotate its secret (the new one shown once, the old one signing beside
// it for 24 hours) and delete it. Destructive ones are confirmed.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { api, call } from '../../api/client.js';
import { ConfirmButton } from '../../components/confirm.js';
import { FormError } from '../../components/field.js';
import { deliveriesKey, webhookKey, webhooksKey, type WebhookOut } from './types.js';

interface Props {
  apiId: string;
  endpoint: WebhookOut;
  onSecret: (secret: string) => void;
}

function useEndpointChange<T, V = void>(apiId: string, endpointId: string, fn: (variables: V) => Promise<T>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: webhookKey(apiId, endpointId) });
      void queryClient.invalidateQueries({ queryKey: webhooksKey(apiId) });
      void queryClient.invalidateQueries({ queryKey: deliveriesKey(apiId, endpointId) });
    },
  });
}

export function EndpointActions({ apiId, endpoint, onSecret }: Props) {
  const navigate = useNavigate();
  const path = { api: apiId, endpoint: endpoint.id };
  const test = useEndpointChange(apiId, endpoint.id, () => call(api.POST('/api/apis/{api}/webhooks/{endpoint}/test', { params: { path } })));
  const toggle = useEndpointChange(apiId, endpoint.id, (enabled: boolean) => call(api.PATCH('/api/apis/{api}/webhooks/{endpoint}', { params: { path }, body: { enabled } })));
  const rotate = useEndpointChange(apiId, endpoint.id, () => call(api.POST('/api/apis/{api}/webhooks/{endpoint}/rotate-secret', { params: { path } })));
  const remove = useMutation({
    mutationFn: () => call(api.DELETE('/api/apis/{api}/webhooks/{endpoint}', { params: { path } })),
  });
  const queryClient = useQueryClient();
  return (
    <section className="card" aria-labelledby="endpoint-actions-heading">
      <h2 id="endpoint-actions-heading">Actions</h2>
      <div className="actions">
        <button type="button" className="secondary" onClick={() => test.mutate()} disabled={test.isPending || !endpoint.enabled}>
          {test.isPending ? 'Sending…' : 'Send a test event'}
        </button>
        {endpoint.enabled ? (
          <ConfirmButton label="Disable" danger={false} title={`Disable ${endpoint.url}`} confirmLabel="Disable endpoint" onOpen={() => toggle.reset()} onConfirm={() => toggle.mutateAsync(false)}>
            <p>No new deliveries are sent while it is disabled; those already waiting are kept and resume when you enable it again.</p>
            <FormError error={toggle.error} />
          </ConfirmButton>
        ) : (
          <button type="button" onClick={() => toggle.mutate(true)} disabled={toggle.isPending}>
            Enable
          </button>
        )}
        <ConfirmButton
          label="Rotate secret"
          danger={false}
          title={`Rotate the secret of ${endpoint.url}`}
          confirmLabel="Rotate secret"
          onOpen={() => rotate.reset()}
          onConfirm={async () => {
            const rotated = await rotate.mutateAsync();
            onSecret(rotated.secret);
          }}
        >
          <p>A new signing secret is made now and shown once. For 24 hours every delivery is signed with both, time to deploy the new one to your receiver.</p>
          <FormError error={rotate.error} />
        </ConfirmButton>
        <ConfirmButton
          label="Delete endpoint"
          title={`Delete ${endpoint.url}`}
          onOpen={() => remove.reset()}
          onConfirm={async () => {
            await remove.mutateAsync();
            void queryClient.invalidateQueries({ queryKey: webhooksKey(apiId) });
            void navigate(`/apis/${apiId}/webhooks`);
          }}
        >
          <p>Its deliveries are deleted with it and nothing more is sent there. This cannot be undone.</p>
          <FormError error={remove.error} />
        </ConfirmButton>
      </div>
      {test.isSuccess ? (
        <p className="alert ok" role="status">
          A <code>webhook.test</code> event is on its way: see it under Deliveries.
        </p>
      ) : null}
      <FormError error={test.error ?? (toggle.variables === true ? toggle.error : null)} />
    </section>
  );
}
