// Adding a webhook endpoint: its address, a description and the event types it hears (none ticked:
// every type). Its `whsec_` secret comes back once, to the page that shows it.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { EVENT_TYPES, webhooksKey, type EventType, type NewWebhookBody, type WebhookOut } from './types.js';

const EMPTY = { url: '', description: '', types: [] as EventType[] };

export function EndpointForm({ apiId, onCreated }: { apiId: string; onCreated: (endpoint: WebhookOut & { secret: string }) => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(EMPTY);
  const create = useMutation({
    mutationFn: (body: NewWebhookBody) => call(api.POST('/api/apis/{api}/webhooks', { params: { path: { api: apiId } }, body })),
    onSuccess: (endpoint) => {
      setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: webhooksKey(apiId) });
      onCreated(endpoint);
    },
  });
  const errors = fieldErrors(create.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate({ url: draft.url.trim(), description: draft.description.trim(), event_types: draft.types });
  };
  const toggle = (type: EventType, on: boolean) => setDraft({ ...draft, types: on ? EVENT_TYPES.filter((t) => t === type || draft.types.includes(t)) : draft.types.filter((t) => t !== type) });
  return (
    <section className="card" aria-labelledby="new-endpoint-heading">
      <h2 id="new-endpoint-heading">Add an endpoint</h2>
      <form onSubmit={submit} onChange={() => create.isError && create.reset()} noValidate aria-labelledby="new-endpoint-heading">
        <Field label="Endpoint URL" name="url" type="url" maxLength={2000} spellCheck={false} placeholder="https://example.com/webhooks/gatehouse" value={draft.url} onChange={(e) => setDraft({ ...draft, url: e.target.value })} hint="A public https address that answers 2xx to each event." error={errors.url} />
        <Field label="Description" name="description" maxLength={200} value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} hint="Optional, up to 200 characters: what listens there." error={errors.description} />
        <fieldset aria-describedby="event-types-hint">
          <legend>Event types</legend>
          <p className="hint" id="event-types-hint">
            Tick none to send every type, including those added later.
          </p>
          <div className="event-types">
            {EVENT_TYPES.map((type) => (
              <label className="check" key={type}>
                <input type="checkbox" checked={draft.types.includes(type)} onChange={(e) => toggle(type, e.target.checked)} />
                <code>{type}</code>
              </label>
            ))}
          </div>
          {errors.event_types ? <p className="field-error">{errors.event_types}</p> : null}
        </fieldset>
        <FormError error={create.error} fields={Object.keys(errors)} />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add endpoint'}
          </button>
        </div>
      </form>
    </section>
  );
}
