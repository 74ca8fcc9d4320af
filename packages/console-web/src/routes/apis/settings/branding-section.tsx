// Branding: what the portal and sign-in pages show of the API (name, tagline, accent colour,
// support address and links), with a live preview of the portal's header.
import { useState } from 'react';
import type { ApiOut } from '../../../api/records.js';
import { Field } from '../../../components/field.js';
import { FALLBACK_ACCENT, validAccent } from './contrast.js';
import { logoSrc } from './logo-src.js';
import { PortalPreview } from './portal-preview.js';
import { errorOf, SettingsSection, shownErrors, useSaveSettings, type Errors } from './section.js';

const draftOf = (a: ApiOut) => ({
  name: a.name,
  tagline: a.tagline,
  accent_color: a.accent_color,
  support_email: a.support_email,
  website_url: a.website_url,
  docs_url: a.docs_url,
  terms_url: a.terms_url,
  privacy_url: a.privacy_url,
});

type Draft = ReturnType<typeof draftOf>;

const LINKS: { name: keyof Draft; label: string }[] = [
  { name: 'website_url', label: 'Website' },
  { name: 'docs_url', label: 'Documentation' },
  { name: 'terms_url', label: 'Terms of service' },
  { name: 'privacy_url', label: 'Privacy policy' },
];

export function BrandingSection({ apiOut }: { apiOut: ApiOut }) {
  const [draft, setDraft] = useState(() => draftOf(apiOut));
  const [local, setLocal] = useState<Errors>({});
  const save = useSaveSettings(apiOut, (updated) => setDraft(draftOf(updated)));
  const errors = shownErrors(local, save.mutation.error);
  const set = (name: keyof Draft) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const build = () => {
    const trimmed = Object.fromEntries(Object.entries(draft).map(([k, v]) => [k, v.trim()])) as Draft;
    return { body: trimmed };
  };
  return (
    <SettingsSection
      apiOut={apiOut}
      id="branding"
      title="Branding"
      description="Your portal and sign-in pages wear these."
      saveLabel="Save branding"
      build={build}
      save={save}
      localErrors={local}
      setLocalErrors={setLocal}
      fields={Object.keys(draft)}
      aside={<PortalPreview name={draft.name} tagline={draft.tagline} accent={draft.accent_color} logoSrc={logoSrc(apiOut.id, apiOut.logo_url)} />}
    >
      <Field label="Name" name="name" maxLength={80} value={draft.name} onChange={set('name')} error={errorOf(errors, 'name')} />
      <Field label="Tagline" name="tagline" maxLength={200} value={draft.tagline} onChange={set('tagline')} hint="A line under the name; may be empty." error={errorOf(errors, 'tagline')} />
      <div className="row accent-row">
        <Field label="Accent colour" name="accent_color" maxLength={7} value={draft.accent_color} onChange={set('accent_color')} hint="#rrggbb" spellCheck={false} error={errorOf(errors, 'accent_color')} />
        <div className="field">
          <label htmlFor="accent-picker">Pick a colour</label>
          <input id="accent-picker" type="color" value={validAccent(draft.accent_color) ? draft.accent_color.toLowerCase() : FALLBACK_ACCENT} onChange={set('accent_color')} />
        </div>
      </div>
      <Field label="Support e-mail" name="support_email" type="email" maxLength={254} value={draft.support_email} onChange={set('support_email')} hint="May be empty." error={errorOf(errors, 'support_email')} />
      {LINKS.map((link) => (
        <Field key={link.name} label={link.label} name={link.name} type="url" maxLength={300} placeholder="https://" value={draft[link.name]} onChange={set(link.name)} error={errorOf(errors, link.name)} />
      ))}
    </SettingsSection>
  );
}
