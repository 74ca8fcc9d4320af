// An on/off setting: Radix's switch (a button with role=switch) with a visible label.
import * as RadixSwitch from '@radix-ui/react-switch';
import { useId, type ReactNode } from 'react';

export function Switch({ label, hint, checked, onChange, disabled }: { label: ReactNode; hint?: ReactNode; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <div className="field">
      <div className="row" style={{ alignItems: 'center' }}>
        <RadixSwitch.Root id={id} className="switch" checked={checked} onCheckedChange={onChange} disabled={disabled ?? false} aria-describedby={hint ? `${id}-hint` : undefined}>
          <RadixSwitch.Thumb className="switch-thumb" />
        </RadixSwitch.Root>
        <label htmlFor={id} style={{ margin: 0 }}>
          {label}
        </label>
      </div>
      {hint ? (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
