// The logo: an https address the portal fetches and serves from its own host (PUT /apis/{api}/logo),
// or none ({"logo_url": null}).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { canEdit } from '../../../app/roles.js';
import { apiKey } from '../../../app/use-api.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { formatTime } from '../../../format/time.js';

export function LogoSection({ apiOut }: { apiOut: ApiOut }) {
  const queryClient = useQueryClient();
  const editor = canEdit(apiOut.role);
  const [url, setUrl] = useState('');
  const [done, setDone] = useState<{ what: string; at: string } | null>(null);
  const put = useMutation({
    mutationFn: (logoUrl: string | null) => call(api.PUT('/api/apis/{api}/logo', { params: { path: { api: apiOut.id } }, body: { logo_url: logoUrl } })),
    onMutate: () => setDone(null),
    onSuccess: (updated, logoUrl) => {
      queryClient.setQueryData(apiKey(apiOut.id), updated);
      void queryClient.invalidateQueries({ queryKey: ['/api/workspaces/{ws}/apis', apiOut.workspace_id] });
      setDone({ what: logoUrl === null ? 'Logo removed' : 'Logo set', at: new Date().toISOString() });
      setUrl('');
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    put.mutate(url.trim());
  };
  return (
    <section className="card settings-section" aria-labelledby="logo-heading">
      <h2 id="logo-heading">Logo</h2>
      <p data-testid="current-logo">
        {apiOut.logo_url ? (
          <>
            Current logo:{' '}
            <a href={apiOut.logo_url} rel="noopener noreferrer" className="break">
              {apiOut.logo_url}
            </a>
          </>
        ) : (
          <span className="muted">No logo: the portal shows the name alone.</span>
        )}
      </p>
      {editor ? (
        <>
          <form onSubmit={submit} noValidate aria-labelledby="logo-heading">
            <Field
              label="Logo address"
              name="logo_url"
              type="url"
              maxLength={2000}
              placeholder="https://example.com/logo.png"
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              hint="An https address of a PNG, JPEG, GIF, WebP or icon, up to 256 KB."
              error={fieldErrors(put.error).logo_url}
            />
            <FormError error={put.error} fields={['logo_url']} />
            <div className="actions">
              <button type="submit" disabled={put.isPending || url.trim() === ''}>
                Set logo
              </button>
              {apiOut.logo_url ? (
                <ConfirmButton label="Remove logo" title="Remove the logo" onConfirm={() => put.mutateAsync(null)}>
                  <p>The portal and sign-in pages show the name alone from now on.</p>
                </ConfirmButton>
              ) : null}
              <span className="saved" role="status">
                {done && !put.isPending ? `${done.what} at ${formatTime(done.at)}` : ''}
              </span>
            </div>
          </form>
        </>
      ) : null}
    </section>
  );
}
