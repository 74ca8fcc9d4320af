// Hostile requests for every endpoint of an API's sign-in service (the tenant host): protocol
// endpoints that answer JSON and pages that answer HTML. Each request starts from a valid one
// (real client credentials, tokens, interactions, CSRF token) and breaks it in one place with
// something a rule refuses: a NUL or text that is not UTF-8 (issue 11 item 3), a parameter sent
// twice or too long (RFC 6749 3.1, 4,096 characters), a value the protocol refuses, bad client
// credentials, the wrong content type, a megabyte of form.
import fc from 'fast-check';
import { badEscape, badPercent, NOT_UTF8_REFUSED, notUtf8, NUL, oddAuthorization, oddCookieValue } from './hostile.js';
import type { Plan } from './runner.js';
import type { HostileRequest } from './send.js';
import { assetProblems, oauthJsonProblems, pageProblems } from './verdicts.js';

/** One endpoint as the suite calls it, from a valid request. */
export interface Endpoint {
  where: string;
  method: 'GET' | 'POST';
  /** The path; `{token}` is replaced by `token` (an interaction) when set. */
  path: string;
  token?: string;
  /** Parameters of the valid request: its query (GET) or its form (POST). */
  params: [string, string][];
  headers: Record<string, string>;
  credential: string;
  /** JSON (protocol endpoints), HTML pages, or anything else (the logo). */
  kind: 'json' | 'page' | 'asset';
  /**
   * Parameters where a value too long or sent twice is surely refused; all of them on protocol
   * endpoints (RFC 6749 3.1), only the decisive fields on pages (an e-mail address, a code, a choice).
   */
  bounded?: string[];
  /**
   * Parameters where a NUL is surely refused: all of them on protocol endpoints; on pages a field
   * that breaks the text rule counts as absent (docs/decisions.md), so only the fields whose
   * absence is refused (the CSRF token, the client_id that names the sign-out address).
   */
  textChecked?: string[];
  /**
   * Cookies (by name prefix) without which the request is surely refused: the CSRF cookie, the
   * interaction's own. A hostile value in another cookie is only a probe.
   */
  gateCookies?: string[];
  /** Values the protocol refuses in a parameter (`response_type=token`). */
  badValues?: [string, string][];
  /** What credential the endpoint reads from Authorization, to send odd ones. */
  auth?: 'basic' | 'bearer';
  /** The endpoint changes nothing even when a request is valid: probes may be sent. */
  probes?: boolean;
}

const enc = encodeURIComponent;
/** Parameters with already-encoded values, so a raw `%00` or a bad escape survives. */
type Wire = [string, string][];
const wire = (params: [string, string][]): Wire => params.map(([name, value]) => [name, enc(value)]);
const serialize = (pairs: Wire) => pairs.map(([name, value]) => `${enc(name)}=${value}`).join('&');

/** Puts `raw` (already encoded) inside the value of `name` at a generated place. */
function injected(params: [string, string][], names: string[], raw: (at: number) => fc.Arbitrary<string>, what: string) {
  return fc.constantFrom(...names).chain((name) => {
    const value = params.find(([n]) => n === name)?.[1] ?? '';
    return fc.nat({ max: value.length }).chain((at) => raw(at).map((inject) => ({
      pairs: wire(params).map(([n, v]): [string, string] => (n === name ? [n, enc(value.slice(0, at)) + inject + enc(value.slice(at))] : [n, v])),
      poison: `${what} in ${name}`,
    })));
  });
}

interface Draft {
  family: string;
  heavy?: boolean;
  poison: string;
  sure: boolean;
  pairs?: Wire;
  /** Replaces the whole body (POST) as raw text. */
  body?: string;
  token?: string;
  headers?: Record<string, string>;
}

export function issuerPlans(endpoint: Endpoint, host: string, issuer: string): Plan[] {
  const names = endpoint.params.map(([name]) => name);
  const bounded = endpoint.bounded ?? names;
  const drafts: { family: string; heavy: boolean; arbitrary: fc.Arbitrary<Draft> }[] = [];
  const add = (family: string, arbitrary: fc.Arbitrary<Omit<Draft, 'family'>>, heavy = false) => drafts.push({ family, heavy, arbitrary: arbitrary.map((d) => ({ ...d, family })) });

  const checked = endpoint.textChecked ?? names;
  if (checked.length) {
    add('param NUL', injected(endpoint.params, checked, () => fc.constant('%00'), '%00').map((d) => ({ ...d, sure: true })));
  }
  if (names.length) {
    // The `z` keeps a truncated escape from borrowing the next characters of the value.
    if (NOT_UTF8_REFUSED || endpoint.probes) {
      add('param not UTF-8', injected(endpoint.params, names, () => notUtf8.map((bad) => `${bad}z`), 'escaped bytes that are not UTF-8').map((d) => ({ ...d, sure: NOT_UTF8_REFUSED })));
    }
    // Literal text once parsed (`%zz` stays `%zz`): refused by no rule, so only a probe.
    if (endpoint.probes) add('param bad escape', injected(endpoint.params, names, () => badEscape.map((bad) => `${bad}z`), 'an escape that is none').map((d) => ({ ...d, sure: false })));
  }
  if (bounded.length) {
    // Query strings stay under Node's 16 KB of request head; forms go up to the 64 KB form limit and past it.
    const longest = endpoint.method === 'GET' ? 12_000 : 70_000;
    add('param over-long', fc.tuple(fc.constantFrom(...bounded), fc.integer({ min: 4097, max: longest })).map(([name, length]) => ({
      poison: `${length} characters in ${name}`, sure: true, pairs: wire(endpoint.params.map(([n, v]): [string, string] => (n === name ? [n, v + 'x'.repeat(Math.max(0, length - v.length))] : [n, v]))),
    })));
    add('param repeated', fc.tuple(fc.constantFrom(...bounded), fc.constantFrom('', 'x', NUL)).map(([name, again]) => ({
      poison: `${name} sent twice`, sure: true, pairs: [...wire(endpoint.params), [name, enc(again === '' ? 'other' : again)]],
    })));
  }
  if (endpoint.badValues?.length) {
    add('param bad value', fc.constantFrom(...endpoint.badValues).map(([name, value]) => ({
      poison: `${name}=${value.slice(0, 40)}`, sure: true, pairs: wire([...endpoint.params.filter(([n]) => n !== name), [name, value]]),
    })));
  }
  if (endpoint.auth === 'basic') add('authorization odd', oddAuthorization.filter((value) => !/^Bearer (ghw|mas)_/.test(value)).map((value) => ({ poison: `Authorization: ${value.slice(0, 40)}`, sure: true, headers: { authorization: value } })));
  if (endpoint.auth === 'bearer') add('authorization odd', oddAuthorization.map((value) => ({ poison: `Authorization: ${value.slice(0, 40)}`, sure: true, headers: { authorization: value } })));
  if (endpoint.token !== undefined) {
    const token = endpoint.token;
    add('path token', fc.oneof(
      fc.nat({ max: token.length }).map((at) => ({ raw: `${token.slice(0, at)}%00${token.slice(at)}`, what: '%00 in the token' })),
      badPercent.map((bad) => ({ raw: `${token}${bad}z`, what: `${bad} after the token` })),
      fc.integer({ min: 101, max: 8000 }).map((length) => ({ raw: token + 'x'.repeat(length), what: `token of ${token.length + length} characters` })),
    ).map(({ raw, what }) => ({ poison: what, sure: true, token: raw })));
  }
  const cookies = (endpoint.headers.cookie ?? '').split('; ').filter(Boolean).map((pair) => pair.slice(0, pair.indexOf('=')));
  const gates = cookies.filter((name) => endpoint.gateCookies?.some((prefix) => name.startsWith(prefix)));
  const cookieTargets = endpoint.probes ? cookies : gates;
  if (cookieTargets.length) {
    // Cookies that break the text rule count as absent (docs/decisions.md).
    add('cookie odd', fc.tuple(fc.constantFrom(...cookieTargets), oddCookieValue).map(([name, value]) => ({
      poison: `Cookie ${name}=${value.slice(0, 30)}`, sure: gates.includes(name),
      headers: { cookie: (endpoint.headers.cookie ?? '').split('; ').map((pair) => (pair.startsWith(`${name}=`) ? `${name}=${value}` : pair)).join('; ') },
    })));
  }
  if (endpoint.method === 'POST') {
    // Token-like endpoints read a form and nothing else (RFC 6749 3.2); userinfo reads no form.
    if (endpoint.kind === 'json' && names.length) {
      add('content type', fc.constantFrom('application/json', 'text/plain', 'multipart/form-data; boundary=x', 'application/xml').map((type) => ({
        poison: `Content-Type ${type}`, sure: true, headers: { 'content-type': type },
        body: type === 'application/json' ? JSON.stringify(Object.fromEntries(endpoint.params)) : serialize(wire(endpoint.params)),
      })));
    }
    add('form huge', fc.oneof(
      fc.integer({ min: 70_000, max: 1_000_000 }).map((length) => ({ what: `a value of ${length} characters`, body: `${serialize(wire(endpoint.params))}&pad=${'x'.repeat(length)}` })),
      fc.integer({ min: 10_000, max: 90_000 }).map((count) => ({ what: `${count} parameters`, body: `${serialize(wire(endpoint.params))}&${Array.from({ length: count }, (_, i) => `p${i}=${i}`).join('&')}` })),
      fc.integer({ min: 10_000, max: 90_000 }).map((count) => ({ what: `scope sent ${count} times`, body: `${serialize(wire(endpoint.params))}&${'scope=openid&'.repeat(count)}` })),
    ).map(({ what, body }) => ({ poison: what, sure: true, body })), true);
  }
  if (endpoint.probes) {
    add('query undeclared', fc.tuple(fc.constantFrom('zz', '%00', 'a%E0%A4%Az'), fc.constantFrom('%00', '%ED%A0%80', '%E0%A4%Az', 'x'.repeat(5000))).map(([name, value]) => ({
      poison: `undeclared ${name}=${value.slice(0, 20)}`, sure: false, pairs: [...wire(endpoint.params), [name, value]],
    })));
  }

  const judge = endpoint.kind === 'json' ? oauthJsonProblems
    : endpoint.kind === 'asset' ? assetProblems
    : (request: HostileRequest, answer: Parameters<typeof pageProblems>[1]) => pageProblems(request, answer, issuer);
  return drafts.map((draft) => ({
    where: endpoint.where,
    family: draft.family,
    credential: endpoint.credential,
    heavy: draft.heavy,
    probes: endpoint.probes ?? false,
    host,
    judge,
    arbitrary: draft.arbitrary.map((d): HostileRequest => {
      const path = endpoint.path.replace('{token}', d.token ?? enc(endpoint.token ?? ''));
      const pairs = d.pairs ?? wire(endpoint.params);
      const headers: Record<string, string> = { ...endpoint.headers };
      let target = path;
      let body: string | undefined;
      if (endpoint.method === 'GET') {
        if (pairs.length) target = `${path}?${serialize(pairs)}`;
      } else {
        body = d.body ?? serialize(pairs);
        headers['content-type'] = 'application/x-www-form-urlencoded';
      }
      Object.assign(headers, d.headers);
      return { method: endpoint.method, target, headers, ...(body !== undefined ? { body } : {}), credential: endpoint.credential, family: d.family, poison: d.poison, sure: d.sure };
    }),
  }));
}

/**
 * POST /oauth/register (RFC 7591, spec 4.3) takes JSON client metadata: hostile metadata, none of
 * it registrable (NUL, lone surrogates, a redirect URI list of tens of thousands, deep nesting).
 */
export function registrationPlans(host: string): Plan[] {
  const metadata = (patch: Record<string, unknown>) => ({ client_name: 'Fuzzed client', redirect_uris: ['https://client.example/cb'], ...patch });
  const families: [string, boolean, fc.Arbitrary<{ poison: string; body: string }>][] = [
    ['json NUL', false, fc.constantFrom('client_name', 'redirect_uris', 'client_uri', 'logo_uri').map((name) => ({
      poison: `NUL in ${name}`, body: JSON.stringify(metadata({ [name]: name === 'redirect_uris' ? [`https://client.example/cb${NUL}`] : `x${NUL}` })),
    }))],
    ['json surrogate', false, fc.constantFrom('client_name', 'redirect_uris').map((name) => ({
      poison: `lone surrogate in ${name}`, body: JSON.stringify(metadata({ [name]: name === 'redirect_uris' ? ['https://client.example/\ud800'] : '\udc00' })),
    }))],
    ['json not JSON', false, fc.constantFrom('{"redirect_uris":', '[1,]', '{"__proto__":{"polluted":1}}').map((body) => ({ poison: `body ${body}`, body }))],
    ['json huge', true, fc.oneof(
      fc.integer({ min: 20_000, max: 60_000 }).map((n) => ({ poison: `${n} redirect URIs`, body: JSON.stringify(metadata({ redirect_uris: Array.from({ length: n }, (_, i) => `https://c${i}.example/${NUL}`) })) })),
      fc.integer({ min: 2_000, max: 50_000 }).map((depth) => ({ poison: `nesting ${depth} deep`, body: `{"redirect_uris":${'['.repeat(depth)}${']'.repeat(depth)}}` })),
    )],
  ];
  return families.map(([family, heavy, arbitrary]) => ({
    where: 'POST /oauth/register',
    family,
    credential: 'anonymous',
    heavy,
    probes: false,
    host,
    judge: oauthJsonProblems,
    arbitrary: arbitrary.map(({ poison, body }): HostileRequest => ({
      method: 'POST', target: '/oauth/register', headers: { 'content-type': 'application/json' }, body, credential: 'anonymous', family, poison, sure: true,
    })),
  }));
}
