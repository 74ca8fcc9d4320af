import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { isPublicAddress } from './public-address.js';

export interface SafeFetchOptions {
  /** Largest body we read; a longer one is refused. */
  maxBytes: number;
  timeoutMs: number;
  accept: string;
  /** Tests only: lets the fetch reach loopback, where the test's own server listens. */
  allowPrivateAddresses?: boolean;
  /**
   * Tests only: one more certificate authority to trust, beside the usual roots, so a test can
   * serve https from its own server. Production never sets it (AppDeps.outboundTestCa).
   */
  extraCa?: string;
}

export type SafeFetchResult =
  | { ok: true; status: number; headers: Record<string, string>; body: Buffer }
  | { ok: false; reason: string };

/**
 * Fetches a URL someone gave us (a logo, a client metadata document) without letting it reach
 * anything but the public internet: the name is resolved once, every address must be public, the
 * connection goes to that checked address (no second lookup a rebinding DNS could answer
 * differently), redirects are not followed, and time and size are bounded.
 */
export async function safeFetch(rawUrl: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const target = await resolveOutbound(rawUrl, options);
  if (!target.ok) return target;
  const { url, agent } = target;
  try {
    const response = await request(url, {
      method: 'GET',
      dispatcher: agent,
      headers: { accept: options.accept, 'user-agent': 'Gatehouse' },
      maxRedirections: 0,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const declared = Number(response.headers['content-length'] ?? '0');
    if (declared > options.maxBytes) {
      response.body.destroy();
      return { ok: false, reason: 'the body is too large' };
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > options.maxBytes) {
        response.body.destroy();
        return { ok: false, reason: 'the body is too large' };
      }
      chunks.push(chunk as Buffer);
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers[name] = value;
    return { ok: true, status: response.statusCode, headers, body: Buffer.concat(chunks) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : 'the fetch failed' };
  } finally {
    void agent.close();
  }
}

export type OutboundTarget = { ok: true; url: URL; agent: Agent } | { ok: false; reason: string };

/**
 * The checks every outbound request of a user-given URL passes (safeFetch, safePost): https
 * (http too where private addresses are allowed, for tests), no credentials, the name resolved
 * once and every address public; the agent answered connects only to the address that was checked.
 * Close the agent when done.
 */
export async function resolveOutbound(rawUrl: string, options: { timeoutMs: number; allowPrivateAddresses?: boolean; extraCa?: string }): Promise<OutboundTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'not a URL' };
  }
  if (url.protocol !== 'https:' && !(options.allowPrivateAddresses && url.protocol === 'http:')) return { ok: false, reason: 'only https is fetched' };
  if (url.username || url.password) return { ok: false, reason: 'credentials in the URL' };
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    return { ok: false, reason: 'the host name does not resolve' };
  }
  if (addresses.length === 0) return { ok: false, reason: 'the host name does not resolve' };
  if (!options.allowPrivateAddresses && addresses.some((entry) => !isPublicAddress(entry.address))) {
    return { ok: false, reason: 'the host is not on the public internet' };
  }
  const pinned = addresses[0]!;
  const agent = new Agent({
    connect: {
      timeout: options.timeoutMs,
      ...(options.extraCa ? { ca: [...rootCertificates, options.extraCa] } : {}),
      lookup: (_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: any[]) => void) =>
        lookupOptions.all ? callback(null, [pinned]) : callback(null, pinned.address, pinned.family),
    } as never,
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  return { ok: true, url, agent };
}
