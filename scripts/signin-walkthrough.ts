// The sign-in service end to end against a running server (`npm start`), as an owner and a
// relying party would use it: `node --import tsx scripts/signin-walkthrough.ts`
// (GATEHOUSE=http://localhost:8080). An owner signs up and registers an API with a web app and a
// server; then openid-client does discovery, PAR, sign-in (a person signs up on the pages with a
// code from the dev outbox), consent, code exchange, userinfo, refresh and logout at
// http://<slug>.localhost:8080.
import * as client from 'openid-client';
import { tenantFetch } from '../packages/server/test/support/issuer.js';
import { TenantBrowser } from '../packages/server/test/support/tenant-client.js';
import { consoleCall, mailedCode, signUpOwner, step, tag } from './walkthrough-kit.js';

const owner = `owner-${tag}@example.com`;
const ws = await signUpOwner(owner);
const { api } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Weather ${tag}` });
const redirectUri = 'https://app.example/callback';
const app = await consoleCall('POST', `/apis/${api.id}/signin/apps`, {
  name: 'Weather Web', kind: 'web', redirect_uris: [redirectUri], post_logout_redirect_uris: ['https://app.example/'], refresh_tokens: true,
});
await consoleCall('POST', `/apis/${api.id}/signin/servers`, { name: 'Forecasts', resource_url: 'https://api.example/', permissions: [{ name: 'read:forecast', description: 'Read forecasts' }] });
step(`owner ${owner} registered ${api.name}; its issuer is ${api.portal_url}`);

const fetchOptions = { [client.customFetch]: (url: string, init: RequestInit) => tenantFetch(url, init), execute: [client.allowInsecureRequests] };
const config = await client.discovery(new URL(api.portal_url), app.id, { redirect_uris: [redirectUri] }, client.ClientSecretBasic(app.client_secret), fetchOptions as never);
step(`discovery: ${config.serverMetadata().issuer}`);

const verifier = client.randomPKCECodeVerifier();
const state = client.randomState();
const nonce = client.randomNonce();
const authorizationUrl = await client.buildAuthorizationUrlWithPAR(config, {
  redirect_uri: redirectUri, scope: 'openid profile email offline_access', state, nonce, code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
});
step(`PAR: ${authorizationUrl.searchParams.get('request_uri')}`);

const browser = new TenantBrowser(api.portal_url);
const signin = await browser.get(authorizationUrl.href);
const signupLink = /id="to-signup" href="([^"]+)"/.exec(signin.html)![1]!.replace(/&amp;/g, '&');
const signup = await browser.get(signupLink);
const person = `person-${tag}@example.com`;
const codePage = await browser.submit(signup, 'signup-send', { email: person });
const consent = await browser.submit(codePage, 'signup-complete', { code: await mailedCode(person, /sign-up code/), name: 'Pat Person', password: 'a long enough secret' });
step(`sign-up on the pages as ${person}, then the consent screen`);
const back = await browser.submit(consent, 'consent-allow');
if (!back.leftTo) throw new Error(`expected the redirect to the app, got ${back.status}`);
const tokens = await client.authorizationCodeGrant(config, back.leftTo, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
step(`code exchange: ID token for ${tokens.claims()!.email}, scope "${tokens.scope}"`);
const userinfo = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
step(`userinfo: ${JSON.stringify(userinfo)}`);
const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
step(`refresh: a new refresh token (${refreshed.refresh_token !== tokens.refresh_token})`);
const logout = await browser.request('GET', client.buildEndSessionUrl(config, { id_token_hint: refreshed.id_token!, post_logout_redirect_uri: 'https://app.example/', state: 'bye' }).href);
step(`logout: back at ${logout.leftTo?.href}`);
