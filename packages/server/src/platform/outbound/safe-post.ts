import { request } from 'undici';
import { resolveOutbound } from './safe-fetch.js';

export interface SafePostOptions {
  body: string;
  headers: Record<string, string>;
  /** The whole exchange, connection to the last byte kept. */
  timeoutMs: number;
  /** How much of the answer is kept; the rest is not read. */
  keepBytes: number;
  /** Tests only: lets the request reach loopback, where the test's own receiver listens. */
  allowPrivateAddresses?: boolean;
}

export type SafePostResult = { ok: true; status: number; excerpt: string } | { ok: false; reason: string };

/**
 * POSTs to a URL someone gave us (a webhook endpoint) under safeFetch's rules: public addresses
 * only, the checked address pinned, no redirect followed (a 3xx is answered as it is), bounded in
 * time. Only the first `keepBytes` of the answer are read.
 */
export async function safePost(rawUrl: string, options: SafePostOptions): Promise<SafePostResult> {
  const target = await resolveOutbound(rawUrl, options);
  if (!target.ok) return target;
  const { url, agent } = target;
  try {
    const response = await request(url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', 'user-agent': 'Gatehouse-Webhooks', ...options.headers },
      body: options.body,
      maxRedirections: 0,
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size >= options.keepBytes) break;
    }
    if (size >= options.keepBytes) response.body.destroy();
    // Text PostgreSQL can hold: a character cut at the limit, or a NUL, reads as U+FFFD.
    const excerpt = Buffer.concat(chunks).subarray(0, options.keepBytes).toString('utf8').replace(/\u0000/g, '\uFFFD');
    return { ok: true, status: response.statusCode, excerpt };
  } catch (error) {
    return { ok: false, reason: error instanceof Error && error.name === 'TimeoutError' ? 'timed out' : `the request failed${error instanceof Error && 'code' in error ? ` (${String((error as { code: unknown }).code)})` : ''}` };
  } finally {
    void agent.close();
  }
}
