// End-user key settings (/apis/:api/signin/keys): whether people may make their own API keys on
// the portal, the prefix of new keys, the longest lifetime of a new key, and whether keys may carry
// sensitive permissions. One PATCH; its 422 lands on the field it names, and turning keys on
// without a platform plan that includes them is the API's 402, shown with a link to the plan.
// Opens on the session, the API's record and the settings.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { api, call, ProblemError } from '../../../api/client.js';
import type { ApiOut } from '../../../api/records.js';
import { canEdit } from '../../../app/roles.js';
import { useApiAndList, useApiId } from '../../../app/use-api.js';
import { Field, FormError, fieldErrors } from '../../../components/field.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { Switch } from '../../../components/switch.js';
import { formatTime } from '../../../format/time.js';
import { parseWhole } from '../settings/parse.js';
import { keySettingsKey, signinSettingsKey } from './keys.js';
import { SigninNav } from './signin-nav.js';
import type { KeySettingsIn, KeySettingsOut } from './types.js';

const draftOf = (s: KeySettingsOut) => ({
  enabled: s.enabled,
  prefix: s.prefix,
  maxDays: s.max_lifetime_days === null ? '' : String(s.max_lifetime_days),
  sensitive: s.sensitive_permissions_allowed,
});

function KeySettingsForm({ apiOut, settings }: { apiOut: ApiOut; settings: KeySettingsOut }) {
  const editor = canEdit(apiOut.role);
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(settings));
  const [local, setLocal] = useState<Record<string, string>>({});
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: KeySettingsIn) => call(api.PATCH('/api/apis/{api}/signin/key-settings', { params: { path: { api: apiOut.id } }, body })),
    onMutate: () => setSavedAt(null),
    onSuccess: (updated) => {
      queryClient.setQueryData(keySettingsKey(apiOut.id), updated);
      // The sign-in settings show the same sensitive-permissions switch.
      void queryClient.invalidateQueries({ queryKey: signinSettingsKey(apiOut.id) });
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
    let maxDays: number | null = null;
    if (draft.maxDays.trim()) {
      const parsed = parseWhole(draft.maxDays);
      if (!parsed.ok) return setLocal({ max_lifetime_days: parsed.message });
      maxDays = parsed.value;
    }
    setLocal({});
    save.mutate({ enabled: draft.enabled, prefix: draft.prefix.trim(), max_lifetime_days: maxDays, sensitive_permissions_allowed: draft.sensitive });
  };
  const planError = save.error instanceof ProblemError && save.error.status === 402;
  return (
    <form onSubmit={submit} onChange={edited} noValidate aria-label="End-user key settings">
      <fieldset className="plain" disabled={!editor}>
        <section className="card settings-section" aria-labelledby="keys-heading">
          <h2 id="keys-heading">People's own keys</h2>
          {settings.plan_includes_keys ? null : (
            <p className="alert info" data-testid="keys-plan-gate">
              Your platform plan, {apiOut.plan.name}, does not include end-user keys: they cannot be turned on, and keys people already made answer inactive until it does. <Link to={`/apis/${apiOut.id}/plan`}>See the platform plan</Link>.
            </p>
          )}
          <Switch
            label="People may make their own API keys"
            checked={draft.enabled}
            onChange={(checked) => {
              edited();
              setDraft({ ...draft, enabled: checked });
            }}
            disabled={!editor}
            hint="People make them on the portal; a key carries permissions the person holds."
          />
          <Field
            label="Prefix of new keys"
            name="prefix"
            maxLength={10}
            spellCheck={false}
            value={draft.prefix}
            onChange={(e) => setDraft({ ...draft, prefix: e.target.value })}
            hint="2 to 10 lowercase letters or digits, starting with a letter. Keys already made keep theirs."
            error={errors.prefix}
          />
          <Field
            label="Longest lifetime of a new key (days)"
            name="max_lifetime_days"
            inputMode="numeric"
            value={draft.maxDays}
            onChange={(e) => setDraft({ ...draft, maxDays: e.target.value })}
            hint="1 to 3,650; empty for no limit, which also allows keys that never expire. Keys already made keep their expiry."
            error={errors.max_lifetime_days}
          />
          <Switch
            label="Keys may carry sensitive permissions"
            checked={draft.sensitive}
            onChange={(checked) => {
              edited();
              setDraft({ ...draft, sensitive: checked });
            }}
            disabled={!editor}
            hint="Off: permissions marked sensitive are given only through sign-in, and leave every key at its next check."
          />
        </section>
      </fieldset>
      {Object.keys(local).length ? null : <FormError error={save.error} fields={['prefix', 'max_lifetime_days', 'enabled', 'sensitive_permissions_allowed']} />}
      {planError ? (
        <p>
          <Link to={`/apis/${apiOut.id}/plan`}>See the platform plan</Link>
        </p>
      ) : null}
      {editor ? (
        <div className="actions">
          <button type="submit" disabled={save.isPending}>
            {save.isPending ? 'Saving…' : 'Save key settings'}
          </button>
          <span className="saved" role="status">
            {savedAt && !save.isPending ? `Saved at ${formatTime(savedAt)}` : ''}
          </span>
        </div>
      ) : null}
    </form>
  );
}

export function SigninKeySettingsPage() {
  const apiId = useApiId();
  const settings = useQuery({
    queryKey: keySettingsKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin/key-settings', { params: { path: { api: apiId } } })),
  });
  const both = useApiAndList(apiId, settings);
  return (
    <QueryState query={both} loading="Loading the key settings…">
      {({ apiOut, list: current }) => (
        <>
          <PageHeader title={`End-user keys of ${apiOut.name}`} description={<>API keys people make for themselves, for scripts and agents that cannot sign in. Last changed {formatTime(current.updated_at)}.</>} />
          <SigninNav apiId={apiOut.id} />
          {canEdit(apiOut.role) ? null : <p className="alert info">You are a viewer of this workspace: you see the settings, and editors change them.</p>}
          <KeySettingsForm apiOut={apiOut} settings={current} />
        </>
      )}
    </QueryState>
  );
}
