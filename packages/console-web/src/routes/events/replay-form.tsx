// Sending every event since a time again to one endpoint (a receiver that lost its data): the time
// is typed in the browser's own time zone and sent as an instant; the API holds 30 days of events.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client.js';
import { Field, FormError, fieldErrors } from '../../components/field.js';
import { formatCount } from '../../format/money.js';
import { localInput } from './local-time.js';
import { deliveriesKey } from './types.js';

export function ReplayForm({ apiId, endpointId }: { apiId: string; endpointId: string }) {
  const queryClient = useQueryClient();
  const [since, setSince] = useState(() => localInput(new Date(Date.now() - 86_400_000)));
  const [local, setLocal] = useState<string | null>(null);
  const replay = useMutation({
    mutationFn: (at: string) => call(api.POST('/api/apis/{api}/webhooks/{endpoint}/replay', { params: { path: { api: apiId, endpoint: endpointId } }, body: { since: at } })),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: deliveriesKey(apiId, endpointId) }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const at = new Date(since);
    if (!since || Number.isNaN(at.getTime())) return setLocal('Enter a date and time.');
    setLocal(null);
    replay.mutate(at.toISOString());
  };
  const error = local ?? fieldErrors(replay.error).since;
  return (
    <section className="card" aria-labelledby="replay-heading">
      <h2 id="replay-heading">Replay events</h2>
      <form onSubmit={submit} onChange={() => replay.reset()} noValidate aria-labelledby="replay-heading" className="row">
        <Field label="Send every event since" name="since" type="datetime-local" value={since} onChange={(e) => setSince(e.target.value)} hint="In your time zone; up to 30 days back. Each event is sent as a new delivery with its own retries." error={error} />
        <button type="submit" disabled={replay.isPending}>
          {replay.isPending ? 'Replaying…' : 'Replay'}
        </button>
      </form>
      <FormError error={replay.error} fields={['since']} />
      {replay.isSuccess ? (
        <p className="alert ok" role="status" data-testid="replayed">
          {replay.data.deliveries === 0 ? 'No event of this endpoint’s types since then: nothing was sent.' : `${formatCount(replay.data.deliveries)} ${replay.data.deliveries === 1 ? 'event is' : 'events are'} being sent again.`}
        </p>
      ) : null}
    </section>
  );
}
