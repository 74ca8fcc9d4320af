// Open redirection (issue 26 item 2; RFC 9700 4.11). Anyone can register an app people connect,
// or publish a metadata document, naming any https address or custom scheme; a link to
// /oauth/authorize with a deliberate error then sent the person's browser there at once. Errors of
// such an app are now our page with a link back until the person signed in here has consented to
// it; the owner's apps and consented apps are redirected as before. And one list of schemes no app
// may use at all (browser-internal, operating-system handlers, other network protocols), applied
// to registration, metadata documents and the owner's apps, with custom schemes such as cursor://
// and vscode:// and reverse-domain schemes still accepted.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { assertRegistrationError, metadataDocument, freshPath, probeClient, register, registerApp, returnLinkOf, startConnected, startDocumentServer, type DocumentServer } from '../support/connected-apps.js';
import { assertErrorPageWithReturn, assertRedirectedError, authorizeRaw } from '../support/issuer-flows.js';
import { pkcePair, rememberConsent, signedInPerson, type IssuerFixture } from '../support/issuer.js';
import { assertRefusedAt } from '../support/money.js';

let f: IssuerFixture;
let docs: DocumentServer;
before(async () => {
  f = await startConnected('Redirects API');
  docs = await startDocumentServer();
});
after(async () => {
  await docs.close();
  await f.t.close();
});

const ATTACKER = 'https://attacker.example/landing';

function request(clientId: string, redirectUri: string, extra: Record<string, string> = {}) {
  const pkce = pkcePair();
  return { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'openid', state: 's1', code_challenge: pkce.challenge, code_challenge_method: 'S256', ...extra };
}

/** Deliberate errors an attacker's link can carry, each with the error it makes. */
const deliberate: [string, Record<string, string>, string][] = [
  ['no PKCE', { code_challenge: '' }, 'invalid_request'],
  ['an unknown scope', { scope: 'openid nosuch:scope' }, 'invalid_scope'],
  ['a resource that is no server', { resource: 'https://nowhere.example/' }, 'invalid_target'],
  ['prompt=none without a session', { prompt: 'none' }, 'login_required'],
  ['a bad response_type', { response_type: 'token' }, 'invalid_request'],
];

test('errors of a registered app nobody consented to are our page with a link back, never a redirect; the owner\'s app gets the same errors redirected', async () => {
  const app = await registerApp(f, { client_name: 'Lure', redirect_uris: [ATTACKER] });
  for (const [what, change, error] of deliberate) {
    const params = Object.fromEntries(Object.entries({ ...request(app.client_id, ATTACKER), ...change }).filter(([, v]) => v !== ''));
    assertErrorPageWithReturn(f, await authorizeRaw(f, params), error, 's1', ATTACKER);
    // The other side: the owner's own app is trusted, its errors go straight back (spec 4.2 rule 1).
    const own = Object.fromEntries(Object.entries({ ...request(f.web.clientId, f.web.redirectUri), ...change }).filter(([, v]) => v !== ''));
    assertRedirectedError(f, await authorizeRaw(f, own), error, 's1');
    void what;
  }
});

test('a person signed in who has not consented gets the page too (consent_required); once they consented, errors go back to the app', async () => {
  const app = await registerApp(f, { client_name: 'Agent', redirect_uris: [ATTACKER] });
  const person = await signedInPerson(f);
  assertErrorPageWithReturn(f, await authorizeRaw(f, request(app.client_id, ATTACKER, { prompt: 'none' }), person.cookie), 'consent_required', 's1', ATTACKER);
  assertErrorPageWithReturn(f, await authorizeRaw(f, request(app.client_id, ATTACKER, { scope: 'openid nosuch:scope' }), person.cookie), 'invalid_scope', 's1', ATTACKER);
  await rememberConsent(f, person.person.id, app.client_id, null, ['openid']);
  assertRedirectedError(f, await authorizeRaw(f, request(app.client_id, ATTACKER, { scope: 'openid nosuch:scope' }), person.cookie), 'invalid_scope', 's1', ATTACKER);
  // Another person's consent is not this one's.
  const other = await signedInPerson(f);
  assertErrorPageWithReturn(f, await authorizeRaw(f, request(app.client_id, ATTACKER, { scope: 'openid nosuch:scope' }), other.cookie), 'invalid_scope', 's1', ATTACKER);
});

test('form_post: the page offers a button that posts the error back, with no script to press it', async () => {
  const app = await registerApp(f, { client_name: 'Poster', redirect_uris: [ATTACKER] });
  const answer = await authorizeRaw(f, request(app.client_id, ATTACKER, { response_mode: 'form_post', prompt: 'none' }));
  assert.equal(answer.status, 400);
  assert.equal(answer.location, null);
  assert.match(answer.html, new RegExp(`<form method="post" action="${ATTACKER}" id="return-form">`));
  assert.match(answer.html, /<input type="hidden" name="error" value="login_required">/);
  assert.match(answer.html, /<button type="submit" id="return-to-app"/);
  assert.doesNotMatch(answer.html, /<script/, 'nothing submits it by itself');
  assert.match(answer.headers.get('content-security-policy') ?? '', /form-action [^;]*https:\/\/attacker\.example/);
});

test('a metadata document app is held to the same rule', async () => {
  const path = freshPath('lure');
  const url = docs.url(path);
  docs.serve(path, { body: metadataDocument(url, { redirect_uris: [ATTACKER] }) });
  const probe = await probeClient(f, url, ATTACKER);
  assert.equal(probe.status, 400, probe.html.slice(0, 300));
  assert.equal(returnLinkOf(probe.html, f.issuer)?.searchParams.get('error'), 'login_required');
});

// ---- Schemes: one list, every kind of app

const REFUSED = [
  'ms-msdt:/id PCWDiagnostic', 'ms-msdt:x', 'ms-officecmd:{}', 'ms-settings:privacy', 'search-ms:query=x&crumb=location:\\\\evil.example\\share', 'search:query=x',
  'chrome://settings', 'chrome-extension://abcdefgh/cb', 'edge://flags', 'view-source:https://agent.example/cb', 'jar:https://agent.example/a.jar!/cb',
  'ftp://agent.example/cb', 'ws://127.0.0.1/cb', 'wss://agent.example/cb', 'about:blank', 'blob:https://agent.example/0b1c', 'javascript:alert(1)',
  'data:text/html,hi', 'file:///etc/passwd', 'intent://agent.example/cb', 'microsoft-edge:https://agent.example/', 'tel:+15555550100', 'ssh://agent.example/',
  'smb://agent.example/share', 'vnd.ms-excel.example:/cb', 'x-apple-helpbasic:x',
];
const ACCEPTED = ['cursor://anysphere.cursor-retrieval/oauth/callback', 'vscode://vscode.github-authentication/did-authenticate', 'com.example.agent:/oauth2redirect', 'msteamslike.example:/cb', 'wsx.example:/cb', 'http://127.0.0.1:4312/cb'];

test('registration refuses browser-internal, OS-handler and network schemes, and keeps custom and reverse-domain schemes', async () => {
  for (const uri of REFUSED) assertRegistrationError(await register(f, { client_name: 'Bad', redirect_uris: [uri] }), 400, 'invalid_redirect_uri', uri);
  for (const uri of ACCEPTED) assert.equal((await register(f, { client_name: 'Good', redirect_uris: [uri] })).status, 201, uri);
  // Upper case is the same scheme (URL parsing lowercases it).
  assertRegistrationError(await register(f, { client_name: 'Bad', redirect_uris: ['MS-MSDT:x'] }), 400, 'invalid_redirect_uri', 'MS-MSDT');
});

test('a metadata document naming such a scheme is refused (error page, no link); one with a custom scheme signs in', async () => {
  for (const uri of ['search-ms:query=x', 'ms-msdt:x', 'wss://agent.example/cb']) {
    const path = freshPath('scheme');
    const url = docs.url(path);
    docs.serve(path, { body: metadataDocument(url, { redirect_uris: [uri] }) });
    const probe = await probeClient(f, url, uri);
    assert.equal(probe.status, 400, uri);
    assert.equal(probe.location, null, `${uri}: no redirect and no link`);
    assert.match(probe.html, /scheme is refused/, uri);
  }
  const path = freshPath('cursor');
  const url = docs.url(path);
  docs.serve(path, { body: metadataDocument(url, { redirect_uris: ['cursor://anysphere.cursor-retrieval/oauth/callback'] }) });
  assert.ok((await probeClient(f, url, 'cursor://anysphere.cursor-retrieval/oauth/callback')).found);
});

test('the owner\'s native apps: the same list refused, reverse-domain schemes accepted', async () => {
  const create = (uri: string) => f.owner.client.post(`/apis/${f.apiId}/signin/apps`, { name: 'Native', kind: 'native', redirect_uris: [uri] });
  for (const uri of ['ms-settings.example:/cb', 'vnd.ms-word.example:/cb', 'search-ms:query=x', 'view-source:https://app.example.com/', 'jar:https://app.example.com/a.jar!/', 'wss://app.example.com/cb', 'chrome-extension.example:/cb']) {
    assertRefusedAt(await create(uri), 'body.redirect_uris.0');
  }
  assert.equal((await create('com.example.app:/callback')).status, 200);
});

test('an app stored before its scheme was refused cannot be sent to: the error page, never a redirect or a link', async () => {
  const app = await registerApp(f, { client_name: 'Old', redirect_uris: ['com.example.old:/cb'] });
  await f.t.services.db.updateTable('oauth_apps').set({ redirect_uris: ['ms-msdt:/id'] }).where('id', '=', app.client_id).execute();
  const answer = await authorizeRaw(f, request(app.client_id, 'ms-msdt:/id', { scope: 'openid nosuch' }));
  assert.equal(answer.status, 400, answer.html.slice(0, 300));
  assert.equal(answer.location, null);
  assert.equal(returnLinkOf(answer.html, f.issuer), null);
  assert.match(answer.html, /never sends people to/);
});
