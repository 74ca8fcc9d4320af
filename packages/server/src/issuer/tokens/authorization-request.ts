/** A checked authorization request (spec 4.2), kept while the pages sign the person in. */
export interface AuthorizationRequest {
  clientId: string;
  redirectUri: string;
  responseMode: 'query' | 'form_post';
  state: string | null;
  nonce: string | null;
  codeChallenge: string;
  /** Standard scopes and permissions asked for, in the order asked, unsupported ones dropped. */
  scopes: string[];
  /** The one server (RFC 8707) the access token is for, as registered; null without permissions. */
  resource: string | null;
  prompt: Prompt[];
  maxAge: number | null;
  loginHint: string | null;
  /** The service's own portal: signing in to it asks no consent. */
  firstParty?: boolean;
  /** An app people connect (spec 4.3): its consent screens are counted (connected-apps/limits.ts). */
  connected?: boolean;
}

export type Prompt = 'none' | 'login' | 'consent' | 'create';

/** What the pages did during one interaction; the authorization endpoint reads it on resume. */
export interface InteractionResult {
  /** A sign-in (or sign-up) completed during this interaction, creating this session. */
  signedInSessionId?: string;
  /** The person chose to continue as the signed-in account (spec 4.2 rules 3 and 4). */
  continued?: boolean;
  /** A suspended person proved who they are: the app hears access_denied (spec 4.3 pages). */
  suspended?: boolean;
  /** The consent screen's answer. */
  consent?: 'granted' | 'denied';
  /** This interaction's consent screen was counted against its app's allowance (spec 7). */
  consentAsked?: boolean;
}
