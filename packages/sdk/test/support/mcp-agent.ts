// An agent as the MCP TypeScript SDK's own client makes one: an OAuthClientProvider kept in memory,
// the streamable HTTP transport's auth() flow, and a person who signs up and consents on the real
// pages of the API's sign-in service (driven over HTTP by test/support/tenant-client.ts).
import assert from 'node:assert/strict';
import { fetch as undiciFetch } from 'undici';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { localhostAgent } from '../../../server/test/support/issuer.js';
import { TenantBrowser, type Page } from '../../../server/test/support/tenant-client.js';

/**
 * fetch for the agent: tenant hosts (`<slug>.localhost`) resolve to loopback as a browser resolves
 * them (DESIGN 10); redirects are followed as usual.
 */
export const agentFetch = ((url: string | URL, init?: RequestInit) => undiciFetch(url, { ...(init as object), dispatcher: localhostAgent } as never)) as unknown as typeof fetch;

/** A loopback redirect URI (RFC 8252 7.3): the issuer matches any port of it. */
export const AGENT_REDIRECT = 'http://127.0.0.1:7777/callback';

/** What an agent's client keeps between runs, in memory; `authorizationUrl` is where it would open the browser. */
export class MemoryOAuthProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;
  /** Set: the client identifies itself by this metadata document URL; unset: it registers dynamically. */
  readonly clientMetadataUrl: string | undefined;

  constructor(clientMetadataUrl?: string) {
    this.clientMetadataUrl = clientMetadataUrl;
  }

  get redirectUrl(): string {
    return AGENT_REDIRECT;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Test agent', redirect_uris: [AGENT_REDIRECT], grant_types: ['authorization_code'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }

  codeVerifier() {
    return this.verifier;
  }
}

export function agentTransport(mcpUrl: string, provider: OAuthClientProvider, fetchFn: typeof fetch = agentFetch): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider, fetch: fetchFn });
}

/** The client's first connection: the server answers 401, the client discovers and sends the person to sign in. */
export async function startSignIn(mcpUrl: string, provider: MemoryOAuthProvider, fetchFn: typeof fetch = agentFetch): Promise<{ transport: StreamableHTTPClientTransport; authorizationUrl: URL }> {
  const transport = agentTransport(mcpUrl, provider, fetchFn);
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await assert.rejects(client.connect(transport), UnauthorizedError);
  assert.ok(provider.authorizationUrl, 'the client asked to open the authorization URL');
  return { transport, authorizationUrl: provider.authorizationUrl };
}

export interface PageSignup {
  email: string;
  name?: string;
  password?: string;
  /** The six-digit code mailed to `email`. */
  code(): Promise<string>;
  /** Runs once the account exists, before the person answers the consent screen (the owner gives a role, say). */
  beforeConsent?(consentPage: Page): Promise<void>;
}

/**
 * A person opens the authorization URL, creates an account on the sign-up pages, allows the app
 * on the consent screen, and the browser goes back to the app's redirect URI: the code is there.
 */
export async function signUpAndConsent(issuer: string, authorizationUrl: URL, person: PageSignup): Promise<{ code: string; consentPage: Page; back: URL }> {
  const browser = new TenantBrowser(issuer);
  const signin = await browser.get(authorizationUrl.href);
  const signupLink = /id="to-signup" href="([^"]+)"/.exec(signin.html)?.[1];
  assert.ok(signupLink, `the sign-in page links to sign-up: ${signin.html.slice(0, 300)}`);
  const signup = await browser.get(signupLink.replace(/&amp;/g, '&'));
  const codePage = await browser.submit(signup, 'signup-send', { email: person.email });
  const consentPage = await browser.submit(codePage, 'signup-complete', { code: await person.code(), name: person.name ?? 'Agent Person', password: person.password ?? 'a long enough secret' });
  assert.match(consentPage.html, /id="consent-allow"/, `the consent screen after sign-up: ${consentPage.html.slice(0, 400)}`);
  await person.beforeConsent?.(consentPage);
  const back = await browser.submit(consentPage, 'consent-allow');
  assert.ok(back.leftTo, `the browser goes back to the app, got ${back.status}: ${back.html.slice(0, 300)}`);
  const code = back.leftTo.searchParams.get('code');
  assert.ok(code, `a code on the redirect: ${back.leftTo.href}`);
  return { code, consentPage, back: back.leftTo };
}

/** After the code: the client trades it for tokens, then connects for real. */
export async function finishSignIn(mcpUrl: string, provider: MemoryOAuthProvider, transport: StreamableHTTPClientTransport, code: string, fetchFn: typeof fetch = agentFetch): Promise<Client> {
  await transport.finishAuth(code);
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  await client.connect(agentTransport(mcpUrl, provider, fetchFn));
  return client;
}
