// Recovery codes, shown once (spec 5.1): each signs in one time when the authenticator is lost.
// They can be copied or downloaded as a text file made in the page (a Blob behind an <a download>;
// a download is no fetch and no image, so the CSP has nothing to say about it).
import { useEffect, useState } from 'react';
import { CopyButton } from '../../components/copy.js';

export const RECOVERY_FILE = 'gatehouse-recovery-codes.txt';

export function recoveryFile(email: string, codes: string[]): string {
  return [`Gatehouse recovery codes for ${email}`, 'Each code signs in once, in place of an authenticator code.', '', ...codes, ''].join('\n');
}

export function RecoveryCodes({ codes, email, onDone }: { codes: string[]; email: string; onDone: () => void }) {
  const file = recoveryFile(email, codes);
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([file], { type: 'text/plain;charset=utf-8' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [file]);
  return (
    <div className="recovery">
      <div className="alert warning" role="status">
        <p>
          <strong>Save your recovery codes now.</strong> Each one signs in once if you lose your authenticator app. This is the only time they are shown.
        </p>
      </div>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="actions">
        <CopyButton value={codes.join('\n')} label="Copy codes" />
        {href ? (
          <a className="button secondary" href={href} download={RECOVERY_FILE}>
            Download as a text file
          </a>
        ) : null}
        <button type="button" onClick={onDone}>
          I have saved my recovery codes
        </button>
      </div>
    </div>
  );
}
