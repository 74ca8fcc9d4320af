import type { SnapshotBody, UsageItem, UsageResult, VerifyBody } from '@gatehouse/protocol';
import type { ResolvedOptions } from './options.js';

/**
 * The secret was refused (401/403): authoritative, never retried (wire protocol section 1). Its
 * message says what to change; its stack is that message alone, since where in the SDK it was
 * found helps nobody fix a setting.
 */
export class AuthorizationError extends Error {
  override name = 'AuthorizationError';
  constructor(baseUrl: string, what: string, status: number) {
    super(
      `Gatehouse at ${baseUrl} refused the SDK secret (HTTP ${status} to ${what}). Set GATEHOUSE_SECRET_KEY (or the secret option) ` +
        `to the API's current secret: an admin reveals it on the API's Connect page in the console. Until then metered requests answer 503.`,
    );
    this.stack = `${this.name}: ${this.message}`;
  }
}
/** A terminal answer to a usage report (400, 402, 409, 422): the batch is split to find the bad item. */
export class TerminalReportError extends Error {
  constructor(readonly status: number, body: string) {
    super(`HTTP ${status}: ${body.slice(0, 300)}`);
  }
}
/** Anything worth trying again later: network, timeouts, 429, 5xx, other 4xx. */
export class TransientError extends Error {}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls to Gatehouse's SDK sync API, with the retries the wire protocol describes. */
export class ControlClient {
  constructor(private readonly options: ResolvedOptions) {}

  async #call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Headers }> {
    let lastError: Error = new TransientError('not attempted');
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await sleep(250 * 2 ** (attempt - 1));
      let response: Response;
      try {
        response = await this.options.fetch(this.options.baseUrl + path, {
          method,
          headers: {
            authorization: `Bearer ${this.options.secret}`,
            'user-agent': 'gatehouse-sdk-node/0.1.0',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...headers,
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          redirect: 'manual',
          signal: AbortSignal.timeout(this.options.requestTimeoutMs),
        });
      } catch (error) {
        lastError = new TransientError(`${method} ${path}: ${(error as Error).message}`);
        continue;
      }
      const text = await response.text();
      if (response.status === 401 || response.status === 403) throw new AuthorizationError(this.options.baseUrl, `${method} ${path.split('?')[0]}`, response.status);
      if (response.status === 429 || response.status >= 500) {
        lastError = new TransientError(`${method} ${path}: HTTP ${response.status}`);
        const retryAfter = Number(response.headers.get('retry-after'));
        if (response.status === 429 && Number.isFinite(retryAfter) && retryAfter > 0) await sleep(Math.min(retryAfter, 10) * 1000);
        continue;
      }
      if ([400, 402, 409, 422].includes(response.status)) throw new TerminalReportError(response.status, text);
      if (response.status >= 400 || (response.status >= 300 && response.status !== 304)) throw new TransientError(`${method} ${path}: HTTP ${response.status}`);
      return { status: response.status, text, headers: response.headers };
    }
    throw lastError;
  }

  /** The snapshot in the spec's full shape, or null when `etag` is still current (304). */
  async snapshot(etag: string | null): Promise<{ body: SnapshotBody; etag: string | null } | null> {
    const answer = await this.#call('GET', '/sdk/v1/snapshot?shape=full', undefined, etag ? { 'if-none-match': etag } : {});
    if (answer.status === 304) return null;
    return { body: JSON.parse(answer.text) as SnapshotBody, etag: answer.headers.get('etag') };
  }

  async verify(keyHash: string): Promise<VerifyBody> {
    const answer = await this.#call('GET', `/sdk/v1/keys/verify?shape=full&key_hash=${keyHash}`);
    return JSON.parse(answer.text) as VerifyBody;
  }

  async usage(items: UsageItem[]): Promise<UsageResult[]> {
    const answer = await this.#call('POST', '/sdk/v1/usage', { items });
    const parsed = JSON.parse(answer.text) as { results?: unknown };
    if (!Array.isArray(parsed.results)) throw new TransientError('usage answer without a results array');
    return parsed.results as UsageResult[];
  }
}
