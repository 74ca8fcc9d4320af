// Copying a value (a key, a secret, a line of code) to the clipboard, and saying so.
import { useState } from 'react';

export function CopyButton({ value, label = 'Copy', className = 'secondary' }: { value: string; label?: string; className?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      {copied ? 'Copied' : label}
      <span className="visually-hidden" aria-live="polite">
        {copied ? ' to the clipboard' : ''}
      </span>
    </button>
  );
}

/** A value shown once (a new key or secret): the value, a copy button and a warning. */
export function ShownOnce({ value, label, testId }: { value: string; label: string; testId?: string }) {
  return (
    <div className="alert warning" role="status">
      <p>
        <strong>{label}</strong> This is the only time it is shown: copy it now.
      </p>
      <div className="secret">
        <code data-testid={testId}>{value}</code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}
