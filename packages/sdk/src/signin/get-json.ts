import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

/** A fetch of a JSON document: the parsed body of a 200, or an Error. */
export type GetJson = (url: string) => Promise<unknown>;

/**
 * RFC 6761 6.3: names under `localhost` are loopback, always. Browsers resolve them so, and
 * Gatehouse's development issuers live there (`http://<slug>.localhost:8080`), but Node asks the
 * system resolver, which usually does not know them. Every other name goes to the system.
 */
export const loopbackLookup: LookupFunction = (hostname, options, callback) => {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) {
    const address: LookupAddress = { address: '127.0.0.1', family: 4 };
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
    return;
  }
  dnsLookup(hostname, options, callback);
};

/**
 * GETs a JSON document with node:http(s): no redirects followed, at most `maxBytes`, within
 * `timeoutMs`. Used for the issuer's JWKS, so a development issuer on `*.localhost` is reachable.
 */
export function getJson(timeoutMs: number, maxBytes = 256 * 1024): GetJson {
  return (url) =>
    new Promise((resolve, reject) => {
      const target = new URL(url);
      const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(
        target,
        { method: 'GET', headers: { accept: 'application/json', 'user-agent': 'gatehouse-sdk-node/0.1.0' }, lookup: loopbackLookup, timeout: timeoutMs },
        (response) => {
          if (response.statusCode !== 200) {
            response.resume();
            reject(new Error(`GET ${url}: HTTP ${response.statusCode}`));
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) request.destroy(new Error(`GET ${url}: larger than ${maxBytes} bytes`));
            else chunks.push(chunk);
          });
          response.on('end', () => {
            try {
              resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
            } catch {
              reject(new Error(`GET ${url}: not JSON`));
            }
          });
          response.on('error', reject);
        },
      );
      request.on('timeout', () => request.destroy(new Error(`GET ${url}: no answer within ${timeoutMs} ms`)));
      request.on('error', reject);
      request.end();
    });
}

/** The same, through a fetch function (the `fetch` option, for tests). */
export function getJsonWith(fetchFn: typeof fetch, timeoutMs: number): GetJson {
  return async (url) => {
    const response = await fetchFn(url, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    if (response.status !== 200) throw new Error(`GET ${url}: HTTP ${response.status}`);
    return response.json();
  };
}
