// Helpers of the tests of apps people connect (test/connected-apps): registration over real HTTP,
// an https server of metadata documents signed by the test authority, and the sign-in of a public
// client with PKCE.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { patchSettings } from './issuer-flows.js';
import { authorize, pkcePair, postForm, rememberConsent, startIssuer, tenantFetch, type IssuerFixture } from './issuer.js';
import { decodeEntities } from './tenant-client.js';
import { startHttpsServer, type TestHttpsServer } from './test-ca.js';

/** An issuer fixture with apps people connect turned on; documents may be served from loopback. */
export async function startConnected(apiName: string, env: Record<string, string> = {}): Promise<IssuerFixture> {
  const f = await startIssuer(apiName, { UNSAFE_OUTBOUND_PRIVATE: 'true', TRUST_PROXY: 'true', ...env });
  await patchSettings(f, { connected_apps: 'on' });
  return f;
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

let sender = 0;
/**
 * A client address from TEST-NET-2 (RFC 5737), another for each request: the fixture trusts a
 * proxy (TRUST_PROXY), so tests that are not about the 20-per-network limit stay clear of it.
 */
export const nextSenderAddress = () => `198.51.100.${(sender++ % 250) + 1}`;

/** POST /oauth/register with a JSON body (or a raw text body with its own content type). */
export async function register(f: Pick<IssuerFixture, 'issuer'>, body: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const response = await tenantFetch(f.issuer + '/oauth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextSenderAddress(), ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, body: json, text };
}

/** Asserts a refusal in OAuth's shape (RFC 7591 3.2.2), never problem+json. */
export function assertRegistrationError(answer: JsonAnswer, status: number, error: string, what = '') {
  assert.equal(answer.status, status, `${what} ${answer.text}`.trim());
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(answer.body.error, error, `${what} ${answer.text}`.trim());
  assert.equal(typeof answer.body.error_description, 'string');
  assert.equal(answer.headers.get('cache-control'), 'no-store');
}

/** Registers a native app with a loopback redirect URI and asserts it worked. */
export async function registerApp(f: IssuerFixture, metadata: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
  const answer = await register(f, { client_name: 'Agent', redirect_uris: ['http://127.0.0.1/callback'], ...metadata }, headers);
  assert.equal(answer.status, 201, answer.text);
  return answer.body as { client_id: string; redirect_uris: string[]; grant_types: string[] };
}

/** What the document server answers at one path. */
export interface ServedDocument {
  status?: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
}

/** An https server of client metadata documents, counting the fetches of each path. */
export interface DocumentServer {
  origin: string;
  /** The metadata document URL of `path`. */
  url(path: string): string;
  serve(path: string, document: ServedDocument): void;
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startDocumentServer(): Promise<DocumentServer> {
  const documents = new Map<string, ServedDocument>();
  const hits = new Map<string, number>();
  const server: TestHttpsServer = await startHttpsServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const document = documents.get(path);
    if (!document) {
      response.writeHead(404).end();
      return;
    }
    const body = typeof document.body === 'string' ? document.body : JSON.stringify(document.body ?? {});
    response.writeHead(document.status ?? 200, { 'content-type': 'application/json', ...document.headers }).end(body);
  });
  return {
    origin: server.origin,
    url: (path) => server.origin + path,
    serve: (path, document) => documents.set(path, document),
    hits: (path) => hits.get(path) ?? 0,
    close: () => server.close(),
  };
}

/** A metadata document for `url` with a loopback redirect URI, plus `extra`. */
export function metadataDocument(url: string, extra: Record<string, unknown> = {}) {
  return { client_id: url, client_name: 'Doc Agent', redirect_uris: ['http://127.0.0.1/callback'], ...extra };
}

/** A path no other test uses. */
export const freshPath = (name: string) => `/${name}-${randomBytes(4).toString('hex')}/client.json`;

/**
 * Where the error page of an app not trusted yet (RFC 9700 4.11.2) offers to take the person back
 * (its `return-to-app` link), or null when the page has none.
 */
export function returnLinkOf(html: string, issuer: string): URL | null {
  const match = /<a id="return-to-app" href="([^"]+)"/.exec(html);
  return match ? new URL(decodeEntities(match[1]!), issuer) : null;
}

/**
 * GET /oauth/authorize of a public client with prompt=none and no browser session: found clients
 * answer login_required, on the error page with a link back (they are apps people connect, not
 * trusted to be redirected to before a person consented). `location` is the redirect, or the link.
 */
export async function probeClient(f: IssuerFixture, clientId: string, redirectUri = 'http://127.0.0.1/callback') {
  const url = new URL(f.issuer + '/oauth/authorize');
  const pkce = pkcePair();
  for (const [name, value] of Object.entries({ response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'openid', state: 'probe', code_challenge: pkce.challenge, code_challenge_method: 'S256', prompt: 'none' })) {
    url.searchParams.set(name, value);
  }
  const response = await tenantFetch(url);
  const html = await response.text();
  const header = response.headers.get('location');
  const location = header ? new URL(header, f.issuer) : returnLinkOf(html, f.issuer);
  return { status: response.status, html, location, found: location?.searchParams.get('error') === 'login_required' };
}

/**
 * A code for a public client whose consent the person already gave (remembered), with its
 * verifier: the authorization request of an MCP client, `resource` and all.
 */
export async function connectedCode(f: IssuerFixture, cookie: string, personId: string, clientId: string, options: { redirectUri?: string; scope?: string; resource?: string | null } = {}) {
  const redirectUri = options.redirectUri ?? 'http://127.0.0.1/callback';
  const scope = options.scope ?? 'openid read:weather';
  const resource = options.resource === undefined ? f.server.resource : options.resource;
  // A metadata document app has a row once its document was first fetched; the consent names it.
  if (clientId.includes(':')) assert.ok((await probeClient(f, clientId, redirectUri)).found, 'the metadata document app is found');
  await rememberConsent(f, personId, clientId, resource, scope.split(' '));
  const pkce = pkcePair();
  const answer = await authorize(f, cookie, {
    response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope, state: 'st', code_challenge: pkce.challenge, code_challenge_method: 'S256', ...(resource ? { resource } : {}),
  });
  assert.equal(answer.get('error'), null, `authorize: ${answer.get('error')} ${answer.get('error_description')}`);
  return { code: answer.get('code')!, verifier: pkce.verifier, redirectUri, resource };
}

/** The token request of a public client (client_id in the form, no secret). */
export function publicTokenRequest(f: IssuerFixture, clientId: string, fields: Record<string, string>) {
  return postForm(f, '/oauth/token', { client_id: clientId, ...fields });
}

/** Exchanges a public client's code. */
export async function exchangePublic(f: IssuerFixture, clientId: string, got: { code: string; verifier: string; redirectUri: string; resource: string | null }) {
  return publicTokenRequest(f, clientId, {
    grant_type: 'authorization_code', code: got.code, code_verifier: got.verifier, redirect_uri: got.redirectUri, ...(got.resource ? { resource: got.resource } : {}),
  });
}

/** The claims of a JWT, unchecked (the tests read exp and iat). */
export function jwtClaims(token: string): Record<string, any> {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}
