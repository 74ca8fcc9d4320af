// The server test helpers the account-keys helper's test uses, gathered.
import type { IssuerFixture } from '../../../server/test/support/issuer.js';
import { rememberConsent } from '../../../server/test/support/issuer.js';

export { atInstant, exchangeCode } from '../../../server/test/support/issuer-flows.js';

/** The person's consent to the web app for the account API, as a first sign-in would have left it. */
export function rememberConsentFor(f: IssuerFixture, personId: string) {
  return rememberConsent(f, personId, f.web.clientId, null, ['openid', 'platform:api_keys']);
}
