// Adding a server (an API or MCP server tokens are for): its name, resource URL (the token's
// audience, exactly as given), a per-person limit of requests a minute (empty: none) and its
// permissions. Its `rs_` client ID and secret (for introspection) come back once.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.js';
import type { SigninServerOut } from '../../../api/records.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { parseWhole } from '../settings/parse.js';
import { serversKey } from './keys.js';
import { PermissionsEditor, type PermissionDraft } from './permissions-editor.js';

const EMPTY = { name: '', resource: '', rpm: '', permissions: [] as PermissionDraft[] };

export function ServerForm({ apiId, onCreated }: { apiId: string; onCreated: (server: SigninServerOut & { client_secret: string }) => void }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(EMPTY);
  const [local, setLocal] = useState<Record<string, string>>({});
  const create = useMutation({
    mutationFn: (body: { name: string; resource_url: string; requests_per_minute: number | null; permissions: { name: string; description: string; sensitive: boolean }[] }) =>
      call(api.POST('/api/apis/{api}/signin/servers', { params: { path: { api: apiId } }, body })),
    onSuccess: (server) => {
      setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: serversKey(apiId) });
      onCreated(server);
    },
  });
  const errors = Object.keys(local).length ? local : fieldErrors(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let rpm: number | null = null;
    if (draft.rpm.trim()) {
      const parsed = parseWhole(draft.rpm);
      if (!parsed.ok) return setLocal({ requests_per_minute: parsed.message });
      rpm = parsed.value;
    }
    setLocal({});
    create.mutate({
      name: draft.name.trim(),
      resource_url: draft.resource.trim(),
      requests_per_minute: rpm,
      permissions: draft.permissions.map((p) => ({ name: p.name.trim(), description: p.description.trim(), sensitive: p.sensitive })),
    });
  };
  const edited = () => {
    if (Object.keys(local).length) setLocal({});
    if (create.isError) create.reset();
  };
  return (
    <section className="card" aria-labelledby="new-server-heading">
      <h2 id="new-server-heading">Add a server</h2>
      <form onSubmit={submit} onChange={edited} noValidate aria-labelledby="new-server-heading">
        <Field label="Name" name="name" maxLength={100} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={errors.name} />
        <Field label="Resource URL" name="resource_url" type="url" maxLength={2000} spellCheck={false} placeholder="https://api.example.com/mcp" value={draft.resource} onChange={(e) => setDraft({ ...draft, resource: e.target.value })} hint="The resource apps ask for and the tokens' audience, exactly as written: http(s), no fragment." error={errors.resource_url} />
        <Field label="Requests a minute, per person" name="requests_per_minute" inputMode="numeric" value={draft.rpm} onChange={(e) => setDraft({ ...draft, rpm: e.target.value })} hint="1 to 1,000,000; empty for no limit." error={errors.requests_per_minute} />
        <PermissionsEditor
          rows={draft.permissions}
          onChange={(permissions) => {
            edited();
            setDraft({ ...draft, permissions });
          }}
          errors={errors}
        />
        <FormError error={create.error} fields={Object.keys(errors)} />
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            {create.isPending ? 'Adding…' : 'Add server'}
          </button>
        </div>
      </form>
    </section>
  );
}
