// Where the owner's API runs, the header customers send their key in, and the prefix of new keys.
import { useState } from 'react';
import type { ApiOut } from '../../../api/records.js';
import { Field } from '../../../components/field.js';
import { errorOf, SettingsSection, shownErrors, useSaveSettings, type Errors } from './section.js';

const draftOf = (a: ApiOut) => ({ api_base_url: a.api_base_url, key_header: a.key_header, secret_prefix: a.secret_prefix });

export function ApiSection({ apiOut }: { apiOut: ApiOut }) {
  const [draft, setDraft] = useState(() => draftOf(apiOut));
  const [local, setLocal] = useState<Errors>({});
  const save = useSaveSettings(apiOut, (updated) => setDraft(draftOf(updated)));
  const errors = shownErrors(local, save.mutation.error);
  const set = (name: keyof typeof draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  return (
    <SettingsSection
      apiOut={apiOut}
      id="api"
      title="Your API"
      saveLabel="Save API details"
      build={() => ({ body: { api_base_url: draft.api_base_url.trim(), key_header: draft.key_header.trim(), secret_prefix: draft.secret_prefix.trim() } })}
      save={save}
      localErrors={local}
      setLocalErrors={setLocal}
      fields={['api_base_url', 'key_header', 'secret_prefix']}
    >
      <Field label="Where your API runs" name="api_base_url" type="url" maxLength={300} placeholder="https://api.example.com" value={draft.api_base_url} onChange={set('api_base_url')} hint="Shown in the portal's quickstart; may be empty." error={errorOf(errors, 'api_base_url')} />
      <div className="grid-2">
        <Field label="Key header" name="key_header" maxLength={40} value={draft.key_header} onChange={set('key_header')} hint="The request header customers send their key in." spellCheck={false} error={errorOf(errors, 'key_header')} />
        <Field label="Key prefix" name="secret_prefix" maxLength={10} value={draft.secret_prefix} onChange={set('secret_prefix')} hint="2 to 10 lowercase letters or digits, starting with a letter; for new keys only." spellCheck={false} error={errorOf(errors, 'secret_prefix')} />
      </div>
    </SettingsSection>
  );
}
