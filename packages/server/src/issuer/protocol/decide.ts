import type { AuthorizationRequest, InteractionResult } from '../tokens/authorization-request.js';
import type { OAuthErrorCode } from './oauth-error.js';

/** What the authorization endpoint needs before it can answer with a code. */
export type Step =
  | { kind: 'done' }
  | { kind: 'signin'; signup: boolean }
  | { kind: 'choose'; reason: 'create' | 'login_hint' }
  | { kind: 'consent' }
  | { kind: 'error'; error: OAuthErrorCode; description: string };

export interface DecisionInput {
  request: AuthorizationRequest;
  result: InteractionResult;
  session: { sessionId: string; email: string; status: string; authTime: Date } | null;
  /** Consent remembered for the scopes that would be granted. */
  consentRemembered: boolean;
  signupsOpen: boolean;
  now: Date;
}

/**
 * Spec 4.2 rules 3 to 6 and OIDC's prompt and max_age, as one pure function of what is known.
 * A sign-in during this interaction is "fresh": it satisfies prompt=login, max_age and the choices.
 */
export function decide(input: DecisionInput): Step {
  const { request, result, session } = input;
  const none = request.prompt.includes('none');
  if (result.consent === 'denied') return { kind: 'error', error: 'access_denied', description: 'The person declined' };
  if (result.suspended) return { kind: 'error', error: 'access_denied', description: 'The account is suspended' };
  const fresh = session !== null && result.signedInSessionId === session.sessionId;
  const tooOld = session !== null && request.maxAge !== null && input.now.getTime() - session.authTime.getTime() > request.maxAge * 1000;
  if (!session || (!fresh && (request.prompt.includes('login') || tooOld))) {
    if (none) return { kind: 'error', error: 'login_required', description: 'The person must sign in' };
    return { kind: 'signin', signup: request.prompt.includes('create') && input.signupsOpen };
  }
  if (session.status !== 'active') return { kind: 'error', error: 'access_denied', description: 'The account is suspended' };
  if (!fresh && !result.continued) {
    // Rule 3: prompt=create while signed in offers to continue or to create another account.
    const create = request.prompt.includes('create') && input.signupsOpen;
    // Rule 4: a login_hint naming someone else offers to continue or to sign in as them.
    const otherHint = request.loginHint !== null && request.loginHint.toLowerCase() !== session.email;
    if (create || otherHint) {
      // Rule 5: these choices cannot be made without the person.
      if (none) return { kind: 'error', error: 'login_required', description: 'The person must choose an account' };
      return { kind: 'choose', reason: create ? 'create' : 'login_hint' };
    }
  }
  const consented = result.consent === 'granted' || (input.consentRemembered && !request.prompt.includes('consent'));
  if (!consented) {
    if (none) return { kind: 'error', error: 'consent_required', description: 'The person must consent' };
    return { kind: 'consent' };
  }
  return { kind: 'done' };
}
