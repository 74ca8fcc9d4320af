// The sign-in service settings of an API (/apis/:api/signin): token and session lifetimes,
// sign-up for people, apps people connect (with the platform plan's gate), whether discovery
// advertises client ID metadata documents, and sensitive permissions on end-user keys. One form,
// one PATCH /apis/{api}/signin; a 422 lands on the fields it names. Opens on the API's record
// (shared with the frame) and the settings.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut, SigninSettingsIn, SigninSettingsOut } from '../../../api/records.js';
import { canEdit } from '../../../app/roles.js';
import { useApiId, useApiQuery } from '../../../app/use-api.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { Switch } from '../../../components/switch.js';
import { formatTime } from '../../../format/time.js';
import { parseWhole } from '../settings/parse.js';
import { describeSeconds } from './durations.js';
import { signinSettingsKey } from './keys.js';
import { SigninNav } from './signin-nav.js';

type Errors = Record<string, string>;
const LIFETIMES = [
  { name: 'access_token_ttl_s', label: 'Access token lifetime (seconds)', bounds: '60 to 86,400 (1 minute to 1 day); apps people connect get at most 600.' },
  { name: 'refresh_token_ttl_s', label: 'Refresh token lifetime (seconds)', bounds: '3,600 to 31,536,000 (1 hour to 365 days).' },
  { name: 'session_ttl_s', label: 'Sign-in session lifetime (seconds)', bounds: '300 to 31,536,000: how long a person stays signed in on the sign-in pages.' },
] as const;
type LifetimeName = (typeof LIFETIMES)[number]['name'];

const draftOf = (s: SigninSettingsOut) => ({
  access_token_ttl_s: String(s.access_token_ttl_s),
  refresh_token_ttl_s: String(s.refresh_token_ttl_s),
  session_ttl_s: String(s.session_ttl_s),
  signups: s.signups,
  connected_apps: s.connected_apps,
  metadata_documents_unadvertised: s.metadata_documents_unadvertised,
  sensitive_permissions_allowed: s.sensitive_permissions_allowed,
});

function SigninForm({ apiOut, settings }: { apiOut: ApiOut; settings: SigninSettingsOut }) {
  const editor = canEdit(apiOut.role);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [local, setLocal] = useState<Errors>({});
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: SigninSettingsIn) => call(api.PATCH('/api/apis/{api}/signin', { params: { path: { api: apiOut.id } }, body })),
    onMutate: () => setSavedAt(null),
    onSuccess: (updated) => {
      queryClient.setQueryData(signinSettingsKey(apiOut.id), updated);
      setDraft(draftOf(updated));
      setSavedAt(new Date().toISOString());
    },
  });
  const errors = Object.keys(local).length ? local : fieldErrors(save.error);
  const edited = () => {
    if (Object.keys(local).length) setLocal({});
    if (save.isError) save.reset();
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found: Errors = {};
    const numbers: Partial<Record<LifetimeName, number>> = {};
    for (const { name } of LIFETIMES) {
      const parsed = parseWhole(draft[name]);
      if (parsed.ok) numbers[name] = parsed.value;
      else found[name] = parsed.message;
    }
    setLocal(found);
    if (Object.keys(found).length) return;
    save.mutate({
      ...(numbers as Record<LifetimeName, number>),
      signups: draft.signups,
      connected_apps: draft.connected_apps,
      metadata_documents_unadvertised: draft.metadata_documents_unadvertised,
      sensitive_permissions_allowed: draft.sensitive_permissions_allowed,
    });
  };
  const planHasConnected = apiOut.plan.connected_apps;
  const connectedOn = draft.connected_apps === 'on';
  return (
    <form onSubmit={submit} onChange={edited} noValidate aria-label="Sign-in settings">
      <fieldset className="plain" disabled={!editor}>
        <section className="card settings-section" aria-labelledby="lifetimes-heading">
          <h2 id="lifetimes-heading">Lifetimes</h2>
          {LIFETIMES.map(({ name, label, bounds }) => {
            const parsed = parseWhole(draft[name]);
            return (
              <Field
                key={name}
                label={label}
                name={name}
                inputMode="numeric"
                value={draft[name]}
                onChange={(event) => setDraft({ ...draft, [name]: event.target.value })}
                hint={`${parsed.ok ? `${describeSeconds(parsed.value)}. ` : ''}${bounds}`}
                error={errors[name]}
              />
            );
          })}
        </section>
        <section className="card settings-section" aria-labelledby="people-heading">
          <h2 id="people-heading">People</h2>
          <fieldset aria-describedby={errors.signups ? 'signups-error' : undefined}>
            <legend>Sign-up for people</legend>
            <label className="check">
              <input type="radio" name="signups" value="open" checked={draft.signups === 'open'} onChange={() => setDraft({ ...draft, signups: 'open' })} />
              <span>
                <strong>Open.</strong> Anyone can make an account on the sign-in pages.
              </span>
            </label>
            <label className="check">
              <input type="radio" name="signups" value="closed" checked={draft.signups === 'closed'} onChange={() => setDraft({ ...draft, signups: 'closed' })} />
              <span>
                <strong>Closed.</strong> Only people who already have an account can sign in.
              </span>
            </label>
            {errors.signups ? (
              <p className="field-error" id="signups-error">
                {errors.signups}
              </p>
            ) : null}
          </fieldset>
          <Switch
            label="End-user keys may carry sensitive permissions"
            checked={draft.sensitive_permissions_allowed}
            onChange={(checked) => {
              edited();
              setDraft({ ...draft, sensitive_permissions_allowed: checked });
            }}
            disabled={!editor}
            hint="Off: permissions marked sensitive are given only through sign-in, never to a key a person makes."
          />
        </section>
        <section className="card settings-section" aria-labelledby="connected-heading">
          <h2 id="connected-heading">Apps people connect</h2>
          <p className="muted">Apps you did not add yourself, such as MCP clients, that register on their own or name themselves by a client ID metadata document.</p>
          {planHasConnected ? null : (
            <p className="alert info" data-testid="plan-gate">
              Your platform plan, {apiOut.plan.name}, does not include apps people connect: while it does not, they stay off whatever this switch says. <Link to={`/apis/${apiOut.id}/plan`}>See the platform plan</Link>.
            </p>
          )}
          <Switch
            label="Apps people connect"
            checked={connectedOn}
            onChange={(checked) => {
              edited();
              setDraft({ ...draft, connected_apps: checked ? 'on' : 'off' });
            }}
            disabled={!editor}
            hint={connectedOn && !planHasConnected ? 'On, but off in effect until the plan includes them.' : 'Discovery then offers dynamic registration and client ID metadata documents.'}
          />
          <Switch
            label="Stop advertising client ID metadata documents"
            checked={draft.metadata_documents_unadvertised}
            onChange={(checked) => {
              edited();
              setDraft({ ...draft, metadata_documents_unadvertised: checked });
            }}
            disabled={!editor}
            hint="Discovery no longer says metadata documents are supported, so MCP clients register instead; documents sent anyway are still accepted."
          />
        </section>
      </fieldset>
      {Object.keys(local).length ? null : <FormError error={save.error} fields={Object.keys(draft)} />}
      {editor ? (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save sign-in settings'}
          </button>
          <span className="saved" role="status">
            {savedAt && !save.isPending ? `Saved at ${formatTime(savedAt)}` : ''}
          </span>
        </div>
      ) : null}
    </form>
  );
}

export function SigninSettingsPage() {
  const apiId = useApiId();
  const apiQuery = useApiQuery(apiId);
  const settings = useQuery({
    queryKey: signinSettingsKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin', { params: { path: { api: apiId } } })),
  });
  const both = {
    data: apiQuery.data && settings.data ? { apiOut: apiQuery.data, settings: settings.data } : undefined,
    error: apiQuery.error ?? settings.error,
    isPending: apiQuery.isPending || settings.isPending,
    refetch: () => Promise.all([apiQuery.refetch(), settings.refetch()]),
  };
  return (
    <QueryState query={both} loading="Loading the sign-in settings…">
      {({ apiOut, settings: current }) => (
        <>
          <PageHeader
            title={`Sign-in of ${apiOut.name}`}
            description={<>How people sign in to {apiOut.name} and how long what they get lasts. Last changed {formatTime(current.updated_at)}.</>}
          />
          <SigninNav apiId={apiOut.id} />
          {canEdit(apiOut.role) ? null : <p className="alert info">You are a viewer of this workspace: you see the settings, and editors change them.</p>}
          <SigninForm apiOut={apiOut} settings={current} />
        </>
      )}
    </QueryState>
  );
}
