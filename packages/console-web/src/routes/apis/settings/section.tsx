// One section of an API's settings: a form of its own that saves only its own fields (PATCH
// /apis/{api}), shows a 422's errors on the fields they name, and says when it saved. Viewers see
// the values in a disabled form without a save button.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, call } from '../../../api/client.js';
import type { ApiOut, UpdateAPIInBody } from '../../../api/records.js';
import { canEdit } from '../../../app/roles.js';
import { apiKey } from '../../../app/use-api.js';
import { FormError, fieldErrors } from '../../../components/field.js';
import { formatTime } from '../../../format/time.js';

export type Errors = Record<string, string>;

/** The error for a field, including one about an item of it (`billable_status_codes.3`). */
export function errorOf(errors: Errors, name: string): string | undefined {
  if (errors[name]) return errors[name];
  const item = Object.keys(errors).find((key) => key.startsWith(`${name}.`));
  return item ? errors[item] : undefined;
}

/** Saving a section: the PATCH, the answer put into the cache, and when it last saved. */
export function useSaveSettings(apiOut: ApiOut, onSaved?: (updated: ApiOut) => void) {
  const queryClient = useQueryClient();
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const mutation = useMutation({
    mutationFn: (body: UpdateAPIInBody) => call(api.PATCH('/api/apis/{api}', { params: { path: { api: apiOut.id } }, body })),
    onMutate: () => setSavedAt(null),
    onSuccess: (updated) => {
      queryClient.setQueryData(apiKey(apiOut.id), updated);
      void queryClient.invalidateQueries({ queryKey: ['/api/workspaces/{ws}/apis', apiOut.workspace_id] });
      setSavedAt(new Date().toISOString());
      onSaved?.(updated);
    },
  });
  return { mutation, savedAt };
}

interface SectionProps {
  apiOut: ApiOut;
  id: string;
  title: string;
  description?: ReactNode;
  /** The save button's words: "Save prices and limits". */
  saveLabel: string;
  /** The body to send, or the errors found before sending (a value that is not a number). */
  build: () => { body: UpdateAPIInBody } | { errors: Errors };
  save: ReturnType<typeof useSaveSettings>;
  localErrors: Errors;
  setLocalErrors: (errors: Errors) => void;
  fields: string[];
  children: ReactNode;
  aside?: ReactNode;
}

/** The errors to show on fields: those found before sending, else the API's. */
export function shownErrors(localErrors: Errors, error: unknown): Errors {
  return Object.keys(localErrors).length ? localErrors : fieldErrors(error);
}

export function SettingsSection({ apiOut, id, title, description, saveLabel, build, save, localErrors, setLocalErrors, fields, children, aside }: SectionProps) {
  const editor = canEdit(apiOut.role);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const built = build();
    if ('errors' in built) {
      setLocalErrors(built.errors);
      return;
    }
    setLocalErrors({});
    save.mutation.mutate(built.body);
  };
  // An edit answers the complaint it corrects: errors leave their fields until the next save.
  const edited = () => {
    if (Object.keys(localErrors).length > 0) setLocalErrors({});
    if (save.mutation.isError) save.mutation.reset();
  };
  return (
    <section className="card settings-section" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {description ? <p className="muted">{description}</p> : null}
      <div className={aside ? 'section-with-aside' : undefined}>
        <form onSubmit={submit} onChange={edited} noValidate aria-labelledby={`${id}-heading`}>
          <fieldset className="plain" disabled={!editor}>
            {children}
          </fieldset>
          {Object.keys(localErrors).length ? null : <FormError error={save.mutation.error} fields={fields} />}
          {editor ? (
            <div className="actions">
              <button type="submit" disabled={save.mutation.isPending}>
                {save.mutation.isPending ? 'Saving…' : saveLabel}
              </button>
              <span className="saved" role="status">
                {save.savedAt && !save.mutation.isPending ? `Saved at ${formatTime(save.savedAt)}` : ''}
              </span>
            </div>
          ) : null}
        </form>
        {aside}
      </div>
    </section>
  );
}
