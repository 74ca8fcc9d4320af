// Who may become a customer through the portal (signup_mode).
import { useState } from 'react';
import type { ApiOut } from '../../../api/records.js';
import { errorOf, SettingsSection, shownErrors, useSaveSettings, type Errors } from './section.js';

type Mode = ApiOut['signup_mode'];

const MODES: { mode: Mode; title: string; description: string }[] = [
  { mode: 'open', title: 'Open', description: 'Anyone who signs up on the portal becomes an active customer.' },
  { mode: 'approval', title: 'Approval', description: 'People who sign up wait as pending customers until you approve them.' },
  { mode: 'invite', title: 'Invitation only', description: 'Only people you invite become customers.' },
];

export function SignupSection({ apiOut }: { apiOut: ApiOut }) {
  const [mode, setMode] = useState<Mode>(apiOut.signup_mode);
  const [local, setLocal] = useState<Errors>({});
  const save = useSaveSettings(apiOut, (updated) => setMode(updated.signup_mode));
  const error = errorOf(shownErrors(local, save.mutation.error), 'signup_mode');
  return (
    <SettingsSection
      apiOut={apiOut}
      id="signup"
      title="Sign-up"
      saveLabel="Save sign-up mode"
      build={() => ({ body: { signup_mode: mode } })}
      save={save}
      localErrors={local}
      setLocalErrors={setLocal}
      fields={['signup_mode']}
    >
      <fieldset aria-describedby={error ? 'signup-error' : undefined}>
        <legend>Who becomes a customer</legend>
        {MODES.map((option) => (
          <label key={option.mode} className="check">
            <input type="radio" name="signup_mode" value={option.mode} checked={mode === option.mode} onChange={() => setMode(option.mode)} />
            <span>
              <strong>{option.title}.</strong> {option.description}
            </span>
          </label>
        ))}
        {error ? (
          <p className="field-error" id="signup-error">
            {error}
          </p>
        ) : null}
      </fieldset>
    </SettingsSection>
  );
}
