// Every endpoint of the tenant host as the fuzz suite calls it: a valid request of each, with the
// fixture's real credentials, tokens and interactions, and where a bad value is surely refused.
import { basic, pkcePair } from '../../support/issuer.js';
import type { IssuerFuzzFixture, OpenInteraction } from './issuer-fixture.js';
import type { Endpoint } from './issuer-plans.js';

/** Values authorize and PAR refuse (spec 4.2, OAuth 2.1 4.1.1: code flow with S256 only). */
const AUTHORIZE_BAD_VALUES: [string, string][] = [
  ['response_type', 'token'], ['response_type', 'code id_token'], ['code_challenge_method', 'plain'], ['code_challenge', 'short'],
  ['prompt', 'none login'], ['prompt', 'bogus'], ['max_age', '-1'], ['max_age', '1e400'], ['scope', 'openid unknown:permission'],
  ['resource', 'https://not-registered.example/'], ['resource', 'not a url'], ['response_mode', 'fragment'], ['request', 'eyJhbGciOiJub25lIn0.e30.'],
  ['request_uri', 'urn:ietf:params:oauth:request_uri:forged'], ['redirect_uri', 'https://evil.example/cb'], ['client_id', 'app_unknown000000000000'],
];

const GRANT_TYPES_REFUSED: [string, string][] = [['grant_type', 'password'], ['grant_type', 'client_credentials'], ['grant_type', 'urn:ietf:params:oauth:grant-type:device_code']];

/** A refresh refused for its resource or scope leaves the token unspent (tokens/service.ts). */
const REFRESH_BAD_VALUES: [string, string][] = [
  ...GRANT_TYPES_REFUSED, ['resource', 'https://not-registered.example/'], ['scope', 'openid admin:everything'], ['refresh_token', 'forged-refresh-token'],
];

/**
 * A code exchange with a wrong redirect_uri, code_verifier or resource spends the code by design
 * (one guess per code, OAuth 2.1 4.1.3), so those are not sent: only refusals that come before it.
 */
const CODE_BAD_VALUES: [string, string][] = [...GRANT_TYPES_REFUSED, ['code', 'forged-code']];

const interactionPost = (x: IssuerFuzzFixture, action: string, interaction: OpenInteraction, fields: [string, string][], bounded: string[]): Endpoint => ({
  where: `POST /interaction/{token}/${action}`,
  method: 'POST',
  path: `/interaction/{token}/${action}`,
  token: interaction.token,
  params: [['csrf', x.csrf], ...fields],
  headers: { cookie: interaction.cookie },
  credential: interaction.cookie.includes('gh_ps=') ? 'signed-in browser' : 'browser',
  kind: 'page',
  bounded: ['csrf', ...bounded],
  gateCookies: ['gh_csrf', 'gh_ia_'],
});

export function issuerEndpoints(x: IssuerFuzzFixture): Endpoint[] {
  const { f } = x;
  const web = { authorization: basic(f.web.clientId, f.web.secret) };
  const server = { authorization: basic(f.server.clientId, f.server.secret) };
  const authorizeParams: [string, string][] = [
    ['response_type', 'code'], ['client_id', f.web.clientId], ['redirect_uri', f.web.redirectUri], ['scope', 'openid profile email'], ['state', 'fuzz-state'],
    ['nonce', 'fuzz-nonce'], ['code_challenge', pkcePair().challenge], ['code_challenge_method', 'S256'],
  ];
  const spaAuthorize = authorizeParams.map(([name, value]): [string, string] =>
    name === 'client_id' ? [name, f.spa.clientId] : name === 'redirect_uri' ? [name, f.spa.redirectUri] : [name, value]);
  const { signin, choose, consent } = x.interactions;
  const person = { cookie: x.personCookie };
  const email = 'fuzz-person@people.test';
  const get = (path: string): Endpoint => ({ where: `GET ${path}`, method: 'GET', path, params: [], headers: {}, credential: 'anonymous', kind: 'json', probes: true });
  return [
    get('/.well-known/openid-configuration'),
    get('/.well-known/oauth-authorization-server'),
    get('/oauth/jwks'),
    { ...get('/branding/logo'), kind: 'asset' },
    { where: 'GET /oauth/authorize', method: 'GET', path: '/oauth/authorize', params: authorizeParams, headers: {}, credential: 'anonymous', kind: 'page', badValues: AUTHORIZE_BAD_VALUES },
    { where: 'GET /oauth/authorize', method: 'GET', path: '/oauth/authorize', params: authorizeParams, headers: person, credential: 'signed-in person', kind: 'page', badValues: AUTHORIZE_BAD_VALUES },
    { where: 'GET /oauth/authorize/resume/{token}', method: 'GET', path: '/oauth/authorize/resume/{token}', token: signin.token, params: [], headers: { cookie: signin.cookie }, credential: 'browser', kind: 'page', gateCookies: ['gh_ia_'] },
    { where: 'POST /oauth/par', method: 'POST', path: '/oauth/par', params: authorizeParams.filter(([name]) => name !== 'client_id'), headers: web, credential: 'web app', kind: 'json', auth: 'basic', badValues: AUTHORIZE_BAD_VALUES },
    { where: 'POST /oauth/par', method: 'POST', path: '/oauth/par', params: spaAuthorize, headers: {}, credential: 'public app', kind: 'json', badValues: AUTHORIZE_BAD_VALUES },
    {
      where: 'POST /oauth/token', method: 'POST', path: '/oauth/token', params: [['grant_type', 'refresh_token'], ['refresh_token', x.tokens.refresh]],
      headers: web, credential: 'web app', kind: 'json', auth: 'basic', badValues: REFRESH_BAD_VALUES,
    },
    {
      where: 'POST /oauth/token', method: 'POST', path: '/oauth/token',
      params: [['grant_type', 'authorization_code'], ['code', x.code.code], ['redirect_uri', f.web.redirectUri], ['code_verifier', x.code.verifier]],
      headers: web, credential: 'web app (code)', kind: 'json', auth: 'basic', badValues: CODE_BAD_VALUES,
    },
    {
      where: 'POST /oauth/token', method: 'POST', path: '/oauth/token', params: [['grant_type', 'refresh_token'], ['refresh_token', 'not-a-token'], ['client_id', f.spa.clientId]],
      headers: {}, credential: 'public app', kind: 'json', badValues: REFRESH_BAD_VALUES,
    },
    { where: 'POST /oauth/revoke', method: 'POST', path: '/oauth/revoke', params: [['token', x.tokens.refresh], ['token_type_hint', 'refresh_token']], headers: web, credential: 'web app', kind: 'json', auth: 'basic' },
    { where: 'POST /oauth/revoke', method: 'POST', path: '/oauth/revoke', params: [['token', x.tokens.refresh], ['client_id', f.spa.clientId]], headers: {}, credential: 'public app', kind: 'json' },
    { where: 'POST /oauth/introspect', method: 'POST', path: '/oauth/introspect', params: [['token', x.tokens.access]], headers: server, credential: 'server', kind: 'json', auth: 'basic' },
    { where: 'POST /oauth/introspect', method: 'POST', path: '/oauth/introspect', params: [['token', x.tokens.refresh]], headers: web, credential: 'web app', kind: 'json', auth: 'basic' },
    { where: 'POST /oauth/introspect', method: 'POST', path: '/oauth/introspect', params: [['token', x.tokens.access]], headers: {}, credential: 'anonymous', kind: 'json' },
    { ...get('/oauth/userinfo'), headers: { authorization: `Bearer ${x.tokens.access}` }, credential: 'access token', auth: 'bearer' },
    { where: 'POST /oauth/userinfo', method: 'POST', path: '/oauth/userinfo', params: [], headers: { authorization: `Bearer ${x.tokens.access}` }, credential: 'access token', kind: 'json', auth: 'bearer', probes: true },
    {
      where: 'GET /oauth/logout', method: 'GET', path: '/oauth/logout',
      params: [['id_token_hint', x.tokens.idToken], ['post_logout_redirect_uri', f.web.logoutUri], ['state', 'fuzz-state'], ['client_id', f.web.clientId]],
      headers: person, credential: 'signed-in person', kind: 'page',
      badValues: [['post_logout_redirect_uri', 'https://evil.example/bye'], ['client_id', f.spa.clientId], ['post_logout_redirect_uri', 'javascript:alert(1)']],
    },
    {
      // Without the browser's session: the hint alone names a session to end (spec 4.3).
      where: 'GET /oauth/logout', method: 'GET', path: '/oauth/logout',
      params: [['id_token_hint', x.tokens.idToken], ['post_logout_redirect_uri', f.web.logoutUri], ['state', 'fuzz-state'], ['client_id', f.web.clientId]],
      headers: {}, credential: 'anonymous', kind: 'page',
    },
    {
      where: 'POST /oauth/logout', method: 'POST', path: '/oauth/logout',
      params: [['csrf', x.csrf], ['client_id', f.web.clientId], ['post_logout_redirect_uri', f.web.logoutUri], ['state', 'fuzz-state']],
      headers: { cookie: `${x.personCookie}; gh_csrf=${x.csrf}` }, credential: 'signed-in person', kind: 'page', bounded: ['csrf', 'client_id'], textChecked: ['csrf', 'client_id'], gateCookies: ['gh_csrf'],
      badValues: [['post_logout_redirect_uri', 'https://evil.example/bye'], ['client_id', 'app_unknown000000000000']],
    },
    { where: 'GET /interaction/{token}', method: 'GET', path: '/interaction/{token}', token: signin.token, params: [['form', 'signin']], headers: { cookie: signin.cookie }, credential: 'browser', kind: 'page', probes: true },
    // The password is never the person's and no code was ever sent: every field is fair game.
    interactionPost(x, 'password', signin, [['email', email], ['password', 'not the password 1']], ['email', 'password']),
    interactionPost(x, 'code', signin, [['email', email], ['code', '000000']], ['email', 'code']),
    interactionPost(x, 'signup', signin, [['email', email], ['code', '000000'], ['name', 'Fuzz Person'], ['password', 'a long enough password']], ['email', 'code', 'name', 'password']),
    // A valid address here would mail a code: only the address is broken in these two.
    { ...interactionPost(x, 'code/send', signin, [['email', email]], ['email']) },
    { ...interactionPost(x, 'signup/send', signin, [['email', email]], ['email']) },
    interactionPost(x, 'choose', choose, [['choice', 'continue']], ['choice']),
    interactionPost(x, 'consent', consent, [['decision', 'allow']], ['decision']),
  ];
}
