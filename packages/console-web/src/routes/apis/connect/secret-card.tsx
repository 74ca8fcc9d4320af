// The SDK secret (spec 5.3): issued at creation, revealed again by admins (GET /apis/{api}/secret,
// audited), rotated with a grace in which the old one still works (0..168 hours, default 24). The
// secret lives only in the query cache: the creation's answer puts it there, a reveal or a rotation
// replaces it, and nothing writes it to the address or to storage.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { key } from '../../../app/query-keys.js';
import { canAdmin } from '../../../app/roles.js';
import { apiKey } from '../../../app/use-api.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { CopyButton } from '../../../components/copy.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { formatTime } from '../../../format/time.js';

export const secretKey = (apiId: string) => key('/api/apis/{api}/secret', apiId);

const MAX_GRACE_HOURS = 168;

export function SecretCard({ apiOut, justCreated }: { apiOut: ApiOut; justCreated: boolean }) {
  const admin = canAdmin(apiOut.role);
  const queryClient = useQueryClient();
  const [hidden, setHidden] = useState(false);
  const [grace, setGrace] = useState('24');
  // Never fetched on open: only when an admin asks (or already in the cache from the creation).
  const secret = useQuery({
    queryKey: secretKey(apiOut.id),
    queryFn: () => call(api.GET('/api/apis/{api}/secret', { params: { path: { api: apiOut.id } } })),
    enabled: false,
    staleTime: Infinity,
  });
  const rotate = useMutation({
    mutationFn: (graceHours: number) => call(api.POST('/api/apis/{api}/secret/rotate', { params: { path: { api: apiOut.id } }, body: { grace_hours: graceHours } })),
    onSuccess: (body) => {
      queryClient.setQueryData(secretKey(apiOut.id), body);
      setHidden(false);
      void queryClient.invalidateQueries({ queryKey: apiKey(apiOut.id) });
    },
  });
  const reveal = () => {
    setHidden(false);
    if (!secret.data) void secret.refetch();
  };
  const shown = secret.data && !hidden ? secret.data.secret : null;
  const graceHours = /^\d{1,3}$/.test(grace.trim()) ? Number(grace.trim()) : Number.NaN;
  const graceError = fieldErrors(rotate.error).grace_hours ?? (Number.isInteger(graceHours) && graceHours <= MAX_GRACE_HOURS ? undefined : `A whole number of hours from 0 to ${MAX_GRACE_HOURS}`);
  return (
    <section className="card" aria-labelledby="secret-heading">
      <h2 id="secret-heading">SDK secret</h2>
      <p className="muted">The SDK in your API reads its customers and reports usage with this secret. Keep it on your server, in the environment variable <code>GATEHOUSE_SECRET_KEY</code>.</p>
      {justCreated && shown ? <p className="alert ok" role="status">Your API is created. Copy its SDK secret now; an admin can reveal it again here.</p> : null}
      <div className="secret">
        {shown ? (
          <>
            <code data-testid="sdk-secret">{shown}</code>
            <CopyButton value={shown} label="Copy secret" />
            <button type="button" className="secondary" onClick={() => setHidden(true)}>
              Hide secret
            </button>
          </>
        ) : (
          <>
            <code>
              <span aria-hidden="true">mas_••••••••••••••••</span>
              <span className="visually-hidden">The secret is hidden</span>
            </code>
            {admin ? (
              <button type="button" onClick={reveal} disabled={secret.isFetching}>
                {secret.isFetching ? 'Revealing…' : 'Reveal secret'}
              </button>
            ) : (
              <span className="muted small">Only admins can reveal it.</span>
            )}
          </>
        )}
      </div>
      {secret.error ? <FormError error={secret.error} /> : null}
      {apiOut.previous_secret_valid_until ? (
        <p className="small" data-testid="previous-secret">
          The previous secret keeps working until {formatTime(apiOut.previous_secret_valid_until)}.
        </p>
      ) : null}
      {admin ? (
        <div className="actions secret-actions">
          <ConfirmButton
            label="Rotate secret"
            title="Rotate the SDK secret"
            confirmLabel="Rotate secret"
            onConfirm={async () => {
              if (Number.isNaN(graceHours) || graceHours > MAX_GRACE_HOURS) throw new Error('grace hours out of range');
              await rotate.mutateAsync(graceHours);
            }}
          >
            <p>A new secret is made now. Deploy it to your API before the old one stops working.</p>
            <Field
              label="Hours the old secret keeps working"
              name="grace_hours"
              inputMode="numeric"
              value={grace}
              onChange={(event) => setGrace(event.target.value)}
              hint={`0 ends it at once; at most ${MAX_GRACE_HOURS} (a week).`}
              error={graceError}
            />
            {rotate.error && !fieldErrors(rotate.error).grace_hours ? <FormError error={rotate.error} /> : null}
          </ConfirmButton>
        </div>
      ) : null}
    </section>
  );
}
