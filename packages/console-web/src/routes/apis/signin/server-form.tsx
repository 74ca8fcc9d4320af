// Adding or changing a server (an API or MCP server tokens are for): its name, resource URL (the
// token's audience, exactly as given), a per-person limit of requests a minute (empty: none) and
// its permissions. A new server's `rs_` client ID and secret (for introspection) come back once; a
// change sends the whole permission list, which replaces the old one (roles lose removed ones).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.js';
import type { SigninServerOut } from '../../../api/records.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { parseWhole } from '../settings/parse.js';
import { rolesKey, serversKey } from './keys.js';
import { PermissionsEditor, type PermissionDraft } from './permissions-editor.js';

const EMPTY = { name: '', resource: '', rpm: '', permissions: [] as PermissionDraft[] };
const draftOf = (server: SigninServerOut) => ({
  name: server.name,
  resource: server.resource_url,
  rpm: server.requests_per_minute === null ? '' : String(server.requests_per_minute),
  permissions: server.permissions.map((p) => ({ ...p })),
});

interface Body {
  name: string;
  resource_url: string;
  requests_per_minute: number | null;
  permissions: { name: string; description: string; sensitive: boolean }[];
}

interface ServerFormProps {
  apiId: string;
  /** The server to change; without it the form adds one. */
  server?: SigninServerOut;
  labelledBy: string;
  onSaved: (server: SigninServerOut & { client_secret?: string }) => void;
  onCancel?: () => void;
}

export function ServerForm({ apiId, server, labelledBy, onSaved, onCancel }: ServerFormProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => (server ? draftOf(server) : EMPTY));
  const [local, setLocal] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (body: Body) =>
      server
        ? call(api.PATCH('/api/apis/{api}/signin/servers/{id}', { params: { path: { api: apiId, id: server.id } }, body }))
        : call(api.POST('/api/apis/{api}/signin/servers', { params: { path: { api: apiId } }, body })),
    onSuccess: (saved) => {
      if (!server) setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: serversKey(apiId) });
      // Removed permissions leave every role.
      if (server) void queryClient.invalidateQueries({ queryKey: rolesKey(apiId) });
      onSaved(saved);
    },
  });
  const errors = Object.keys(local).length ? local : fieldErrors(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    let rpm: number | null = null;
    if (draft.rpm.trim()) {
      const parsed = parseWhole(draft.rpm);
      if (!parsed.ok) return setLocal({ requests_per_minute: parsed.message });
      rpm = parsed.value;
    }
    setLocal({});
    save.mutate({
      name: draft.name.trim(),
      resource_url: draft.resource.trim(),
      requests_per_minute: rpm,
      permissions: draft.permissions.map((p) => ({ name: p.name.trim(), description: p.description.trim(), sensitive: p.sensitive })),
    });
  };
  const edited = () => {
    if (Object.keys(local).length) setLocal({});
    if (save.isError) save.reset();
  };
  return (
    <form onSubmit={submit} onChange={edited} noValidate aria-labelledby={labelledBy}>
      <Field label="Name" name="name" maxLength={100} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} error={errors.name} />
      <Field
        label="Resource URL"
        name="resource_url"
        type="url"
        maxLength={2000}
        spellCheck={false}
        placeholder="https://api.example.com/mcp"
        value={draft.resource}
        onChange={(e) => setDraft({ ...draft, resource: e.target.value })}
        hint={server ? 'The tokens’ audience, exactly as written: tokens issued before a change still name the old URL.' : 'The resource apps ask for and the tokens’ audience, exactly as written: http(s), no fragment.'}
        error={errors.resource_url}
      />
      <Field label="Requests a minute, per person" name="requests_per_minute" inputMode="numeric" value={draft.rpm} onChange={(e) => setDraft({ ...draft, rpm: e.target.value })} hint="1 to 1,000,000; empty for no limit." error={errors.requests_per_minute} />
      <PermissionsEditor
        rows={draft.permissions}
        onChange={(permissions) => {
          edited();
          setDraft({ ...draft, permissions });
        }}
        errors={errors}
      />
      {server ? <p className="hint">A permission removed here leaves every role that gave it.</p> : null}
      <FormError error={save.error} fields={Object.keys(errors)} />
      <div className="actions">
        {onCancel ? (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? (server ? 'Saving…' : 'Adding…') : server ? 'Save server' : 'Add server'}
        </button>
      </div>
    </form>
  );
}
