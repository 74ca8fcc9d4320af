import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { loopbackLookup } from '../signin/get-json.js';

/** What the issuer's /oauth/introspect answered about a key (spec 4.3), reduced to what the verifier uses. */
export type IntrospectionAnswer =
  | { active: false; maxAgeS: number | null }
  | { active: true; maxAgeS: number | null; sub: string; keyId: string; scope: string[]; exp: number | null; requestsPerMinute: number | null };

/** The service could not give an answer: unreachable, timed out, refused our credentials, or a 429/5xx. */
export class IntrospectionUnavailable extends Error {}

/** A call of /oauth/introspect with one key. */
export type IntrospectCall = (key: string) => Promise<IntrospectionAnswer>;

interface Raw {
  status: number;
  cacheControl: string | null;
  text: string;
}

/** RFC 6749 2.3.1: id and secret form-encoded before base64. */
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function maxAge(cacheControl: string | null): number | null {
  const match = cacheControl ? /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl) : null;
  return match ? Number(match[1]) : null;
}

/** Reads a 200 answer; anything else (or a body we cannot read) is IntrospectionUnavailable. */
function parse(raw: Raw): IntrospectionAnswer {
  if (raw.status !== 200) throw new IntrospectionUnavailable(`introspection answered HTTP ${raw.status}`);
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(raw.text) as Record<string, unknown>;
  } catch {
    throw new IntrospectionUnavailable('introspection answered something that is not JSON');
  }
  const age = maxAge(raw.cacheControl);
  // Only an end-user key's answer admits: a token_use of anything else is not what we asked about.
  if (body?.active !== true || body.token_use !== 'api_key' || typeof body.sub !== 'string') return { active: false, maxAgeS: age };
  const rpm = body.requests_per_minute;
  return {
    active: true,
    maxAgeS: age,
    sub: body.sub,
    keyId: typeof body.key_id === 'string' ? body.key_id : '',
    scope: typeof body.scope === 'string' ? body.scope.split(' ').filter((s) => s !== '') : [],
    exp: typeof body.exp === 'number' ? body.exp : null,
    requestsPerMinute: typeof rpm === 'number' && Number.isFinite(rpm) && rpm > 0 ? rpm : null,
  };
}

/**
 * POSTs `token=<key>` to the issuer's introspection endpoint with the server's credentials (HTTP
 * Basic, `Accept: application/json`), through node:http(s) so a development issuer on
 * `*.localhost` is reachable, or through `fetchFn` when given (tests).
 */
export function introspectCall(endpoint: string, clientId: string, clientSecret: string, timeoutMs: number, fetchFn?: typeof fetch): IntrospectCall {
  const headers = { authorization: basic(clientId, clientSecret), accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'gatehouse-sdk-node/0.1.0' };
  if (fetchFn) {
    return async (key) => {
      let response: Response;
      try {
        response = await fetchFn(endpoint, { method: 'POST', headers, body: new URLSearchParams({ token: key }).toString(), redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
      } catch (error) {
        throw new IntrospectionUnavailable(`introspection unreachable: ${(error as Error).message}`);
      }
      return parse({ status: response.status, cacheControl: response.headers.get('cache-control'), text: await response.text().catch(() => '') });
    };
  }
  const target = new URL(endpoint);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return (key) =>
    new Promise<Raw>((resolve, reject) => {
      const body = new URLSearchParams({ token: key }).toString();
      const request = send(target, { method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, lookup: loopbackLookup, timeout: timeoutMs }, (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          // An introspection answer is a few hundred bytes; anything huge is not one.
          if (size > 64 * 1024) request.destroy(new Error('introspection answer larger than 64 KB'));
          else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0, cacheControl: (response.headers['cache-control'] as string | undefined) ?? null, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      });
      request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end(body);
    }).then(parse, (error: Error) => {
      throw new IntrospectionUnavailable(`introspection unreachable: ${error.message}`);
    });
}
