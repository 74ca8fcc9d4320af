// Adding or changing one of the owner's apps: its kind (fixed once made), redirect and sign-out
// addresses one a line, refresh tokens and whether it is the owner's own app (which may get the
// roles scope). A web app's client secret comes back in the creation's answer, and the page shows
// it once; a change (PATCH) never carries a secret.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, call } from '../../../api/client.js';
import type { NewSigninAppIn, SigninAppOut } from '../../../api/records.js';
import { Field, FormError, TextAreaField, fieldErrors } from '../../../components/field.js';
import { listError, uriLines } from './uri-lines.js';
import { appsKey } from './keys.js';

type Kind = NewSigninAppIn['kind'];
const KINDS: { kind: Kind; title: string; description: string }[] = [
  { kind: 'web', title: 'Web app', description: 'Runs on a server; gets a client secret.' },
  { kind: 'spa', title: 'Single-page app', description: 'Runs in the browser; no secret, PKCE only.' },
  { kind: 'native', title: 'Native app', description: 'Desktop or mobile; no secret, may use a custom scheme.' },
];
const EMPTY = { name: '', kind: 'web' as Kind, redirects: '', signouts: '', refresh: true, own: false };
const draftOf = (app: SigninAppOut) => ({
  name: app.name,
  kind: app.kind,
  redirects: app.redirect_uris.join('\n'),
  signouts: app.post_logout_redirect_uris.join('\n'),
  refresh: app.refresh_tokens,
  own: app.own_app,
});

interface AppFormProps {
  apiId: string;
  /** The app to change; without it the form adds one. */
  app?: SigninAppOut;
  /** The form's name, the heading that labels it. */
  labelledBy: string;
  onSaved: (app: SigninAppOut & { client_secret?: string }) => void;
  onCancel?: () => void;
}

export function AppForm({ apiId, app, labelledBy, onSaved, onCancel }: AppFormProps) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => (app ? draftOf(app) : EMPTY));
  const save = useMutation({
    mutationFn: (body: NewSigninAppIn) => {
      if (!app) return call(api.POST('/api/apis/{api}/signin/apps', { params: { path: { api: apiId } }, body }));
      const { kind: _fixed, ...changes } = body;
      return call(api.PATCH('/api/apis/{api}/signin/apps/{id}', { params: { path: { api: apiId, id: app.id } }, body: changes }));
    },
    onSuccess: (saved) => {
      if (!app) setDraft(EMPTY);
      void queryClient.invalidateQueries({ queryKey: appsKey(apiId) });
      onSaved(saved);
    },
  });
  const errors = fieldErrors(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate({
      name: draft.name.trim(),
      kind: draft.kind,
      redirect_uris: uriLines(draft.redirects),
      post_logout_redirect_uris: uriLines(draft.signouts),
      refresh_tokens: draft.refresh,
      own_app: draft.own,
    });
  };
  return (
    <form onSubmit={submit} onChange={() => save.isError && save.reset()} noValidate aria-labelledby={labelledBy}>
      <Field label="Name" name="name" maxLength={100} value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} hint="Shown to people on the consent page." error={errors.name} />
      {app ? (
        <p className="muted">
          {KINDS.find((k) => k.kind === app.kind)!.title}: the kind is fixed once the app is made.
        </p>
      ) : (
        <fieldset aria-describedby={errors.kind ? 'kind-error' : undefined}>
          <legend>Kind</legend>
          {KINDS.map((option) => (
            <label key={option.kind} className="check">
              <input type="radio" name="kind" value={option.kind} checked={draft.kind === option.kind} onChange={() => setDraft({ ...draft, kind: option.kind })} />
              <span>
                <strong>{option.title}.</strong> {option.description}
              </span>
            </label>
          ))}
          {errors.kind ? <p className="field-error" id="kind-error">{errors.kind}</p> : null}
        </fieldset>
      )}
      <TextAreaField
        label="Redirect URIs"
        name="redirect_uris"
        rows={3}
        spellCheck={false}
        value={draft.redirects}
        onChange={(e) => setDraft({ ...draft, redirects: e.target.value })}
        hint="One a line, at least one, at most 20: https, or http on localhost; native apps may use a reverse-domain scheme (com.example.app:/callback)."
        error={listError(errors, 'redirect_uris')}
      />
      <TextAreaField
        label="Sign-out URIs"
        name="post_logout_redirect_uris"
        rows={2}
        spellCheck={false}
        value={draft.signouts}
        onChange={(e) => setDraft({ ...draft, signouts: e.target.value })}
        hint="Where people may be sent after signing out; one a line, may be empty."
        error={listError(errors, 'post_logout_redirect_uris')}
      />
      <label className="check">
        <input type="checkbox" name="refresh_tokens" checked={draft.refresh} onChange={(e) => setDraft({ ...draft, refresh: e.target.checked })} />
        <span>Refresh tokens (the app may ask for offline_access)</span>
      </label>
      <label className="check">
        <input type="checkbox" name="own_app" checked={draft.own} onChange={(e) => setDraft({ ...draft, own: e.target.checked })} />
        <span>Your own app (it may get the roles scope)</span>
      </label>
      <FormError error={save.error} fields={['name', 'kind', ...Object.keys(errors).filter((k) => /^(redirect_uris|post_logout_redirect_uris)/.test(k))]} />
      <div className="actions">
        {onCancel ? (
          <button type="button" className="secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
        <button type="submit" disabled={save.isPending}>
          {save.isPending ? (app ? 'Saving…' : 'Adding…') : app ? 'Save app' : 'Add app'}
        </button>
      </div>
    </form>
  );
}
