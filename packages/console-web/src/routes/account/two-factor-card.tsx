// Two-factor sign-in with an authenticator app: set up and turned on when off; when on, new
// recovery codes or turning it off. Recovery codes from either answer are shown once, here, until
// the person says they saved them (they are a secret of that answer, never read again).
import { useState } from 'react';
import type { UserOut } from '../../api/records.js';
import { RecoveryCodes } from './recovery-codes.js';
import { TwoFactorOn } from './two-factor-on.js';
import { TwoFactorSetup } from './two-factor-setup.js';

export function TwoFactorCard({ user }: { user: UserOut }) {
  const [codes, setCodes] = useState<string[] | null>(null);
  if (codes) return <RecoveryCodes codes={codes} email={user.email} onDone={() => setCodes(null)} />;
  return user.two_factor ? <TwoFactorOn onNewCodes={setCodes} /> : <TwoFactorSetup onEnabled={setCodes} />;
}
