// Issue 14 item 5: the MCP TypeScript SDK's own client, with its own OAuth support (auth() through
// the streamable HTTP transport's OAuthClientProvider), connects to an MCP server built with
// @gatehouse/sdk/mcp against a real Gatehouse: once identifying itself by a client ID metadata
// document served over https, once by dynamic registration. A person signs up and consents on the
// real pages, calls a tool that needs a permission, and the call shows in their customer's usage.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { freshPath, metadataDocument, startConnected, startDocumentServer, type DocumentServer } from '../../server/test/support/connected-apps.js';
import type { IssuerFixture } from '../../server/test/support/issuer.js';
import { codeIn } from '../../server/test/support/mailbox.js';
import { customerDetail } from '../../server/test/support/money.js';
import { AGENT_REDIRECT, finishSignIn, MemoryOAuthProvider, signUpAndConsent, startSignIn } from './support/mcp-agent.js';
import { giveRoles, personByEmail, startWeatherMcp, type WeatherMcp } from './support/mcp-weather.js';

let f: IssuerFixture;
let mcp: WeatherMcp;
let documents: DocumentServer;

before(async () => {
  f = await startConnected('Weather MCP');
  mcp = await startWeatherMcp(f);
  documents = await startDocumentServer();
});
after(async () => {
  await mcp?.close();
  await documents?.close();
  await f?.t.close();
});

/** Waits until `done` holds, checking every 20 ms, at most `ms`: for work the client does in the background. */
async function eventually(done: () => boolean, ms = 5_000) {
  for (const until = Date.now() + ms; !done() && Date.now() < until; ) await new Promise((resolve) => setTimeout(resolve, 20));
}

/**
 * The whole agent journey for one client: the first connection is refused 401, the client finds
 * the issuer through the protected resource metadata and sends the person to sign in; they sign up
 * on the pages, the owner gives them the forecaster role before they allow the app, the client
 * trades the code and connects; a tool call needing read:weather is billed to the person's customer.
 */
async function journey(provider: MemoryOAuthProvider) {
  const email = `agent-${randomUUID().slice(0, 8)}@people.test`;
  const { transport, authorizationUrl } = await startSignIn(mcp.url, provider);
  // What the client asks for: this server as the resource (RFC 8707), its permissions as scope, PKCE.
  assert.equal(authorizationUrl.origin, f.issuer);
  assert.equal(authorizationUrl.pathname, '/oauth/authorize');
  assert.equal(authorizationUrl.searchParams.get('resource'), mcp.url);
  assert.equal(authorizationUrl.searchParams.get('scope'), 'read:weather write:weather');
  assert.equal(authorizationUrl.searchParams.get('code_challenge_method'), 'S256');
  assert.equal(authorizationUrl.searchParams.get('redirect_uri'), AGENT_REDIRECT);

  let personId = '';
  const { code, consentPage, back } = await signUpAndConsent(f.issuer, authorizationUrl, {
    email,
    code: async () => codeIn(await f.t.mail.waitFor(email, /sign-up code/)),
    beforeConsent: async () => {
      personId = (await personByEmail(f, email)).id;
      await giveRoles(f, personId, [mcp.readerRoleId]);
    },
  });
  assert.equal(back.searchParams.get('iss'), f.issuer, 'RFC 9207');
  const seenAtConnect = mcp.seen.length;
  const client: Client = await finishSignIn(mcp.url, provider, transport, code);
  const tokens = provider.tokens()!;
  assert.equal(tokens.token_type.toLowerCase(), 'bearer');
  assert.equal(tokens.scope, 'read:weather', 'the permission the person holds; write:weather is left out');
  assert.ok(tokens.expires_in! <= 600, 'apps people connect get tokens of at most 10 minutes');

  const [membership] = await f.t.services.customerMembers.membershipsOf(f.apiId, personId);
  assert.ok(membership, 'the sign-up made the person a customer (signup_mode open)');
  const customerId = membership.customer_id;

  // The client opens its GET stream after initializing, in the background; the server refuses it
  // (405, stateless) but it is metered like every request, so it is waited for before counting.
  await eventually(() => mcp.seen.slice(seenAtConnect).includes('GET'));
  await mcp.meter.flush();
  const before = (await customerDetail(mcp.api, customerId)).month_requests;
  const result = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } });
  const answer = JSON.parse((result.content as { text: string }[])[0]!.text);
  assert.deepEqual(answer, { city: 'Oslo', forecast: 'sunny', customer: customerId, person: personId, scopes: ['read:weather'] });
  await mcp.meter.flush();
  assert.equal((await customerDetail(mcp.api, customerId)).month_requests, before + 1, 'the tool call shows in the customer\'s month_requests');

  // A tool needing a permission the token lacks: refused before the MCP server sees it. The SDK's
  // client then asks the person to sign in again for the scope the answer names.
  const seenBefore = mcp.seen.length;
  provider.authorizationUrl = undefined;
  await assert.rejects(client.callTool({ name: 'set-station', arguments: { station: 'Bergen' } }));
  assert.equal(mcp.seen.length, seenBefore, 'the MCP server never saw the refused call');
  assert.equal(provider.authorizationUrl!.searchParams.get('scope'), 'write:weather', 'step-up for the scope the 403 named');
  await client.close();
  return { consentPage, customerId, personId };
}

test('a client identified by a client ID metadata document signs in, calls a tool, and is billed to the person\'s customer', async () => {
  const path = freshPath('agent');
  const documentUrl = documents.url(path);
  documents.serve(path, { body: metadataDocument(documentUrl, { client_name: 'Doc Agent', redirect_uris: [AGENT_REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }) });
  const provider = new MemoryOAuthProvider(documentUrl);
  const { consentPage } = await journey(provider);
  assert.equal(provider.client?.client_id, documentUrl, 'the document URL is the client_id');
  assert.ok(documents.hits(path) >= 1, 'Gatehouse fetched the document');
  assert.match(consentPage.html, /Doc Agent/);
  assert.match(consentPage.html, /127\.0\.0\.1/, 'the consent screen shows the host the app came from');
});

test('a client that registers itself dynamically signs in, calls a tool, and is billed to the person\'s customer', async () => {
  const provider = new MemoryOAuthProvider();
  const { consentPage } = await journey(provider);
  assert.match(provider.client?.client_id ?? '', /^app_/, 'a registered client id');
  assert.match(consentPage.html, /Test agent/);
  assert.deepEqual(mcp.errors, []);
});
