import type { ChangesBody, SnapshotBody, UsageItem, UsageResult, VerifyBody, WireBalance } from '@gatehouse/protocol';
import type { ResolvedOptions } from './options.js';
import { SnapshotParser } from './snapshot-reader.js';
import { PreparedSnapshot, type SnapshotHead } from './state.js';

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
/** 410 to GET /sdk/v1/changes: the cursor is older than the changes kept (or not this service's); read the snapshot. */
export class CursorExpiredError extends Error {
  override name = 'CursorExpiredError';
}

/** What a usage report answers: one result per item, and (from servers that send them) the balances it moved. */
export interface UsageAnswer {
  results: UsageResult[];
  /** Each affected customer's balance after the report, by customer id; empty from servers that do not send them. */
  balances: Map<string, WireBalance>;
}

const isCount = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
const isAmount = (n: unknown): n is number => Number.isSafeInteger(n);

/** A balance as the wire carries it (spec SdkBalance), or null for anything else. */
export function parseBalance(b: unknown): WireBalance | null {
  if (!b || typeof b !== 'object') return null;
  const { id, credit_balance_micro: balance, balance_seq: seq } = b as Record<string, unknown>;
  return typeof id === 'string' && id !== '' && isAmount(balance) && isCount(seq) ? { id, credit_balance_micro: balance, balance_seq: seq } : null;
}

const CURSOR_TEXT = /^(0|[1-9][0-9]{0,14})$/;
const isArray = (v: unknown) => Array.isArray(v);

/** The checks a changes answer must pass before anything of it is applied (anything else is retried). */
function parseChanges(text: string): ChangesBody {
  const body = JSON.parse(text) as ChangesBody;
  const ok =
    body && typeof body === 'object' && typeof body.cursor === 'string' && CURSOR_TEXT.test(body.cursor) && typeof body.has_more === 'boolean' &&
    [body.customers, body.keys, body.removed_keys, body.removed_customers, body.billable_status_codes].every(isArray) &&
    typeof body.platform_period_end === 'string' && isCount(body.platform_monthly_limit) && isCount(body.platform_monthly_used);
  if (!ok) throw new TransientError('changes answer in an unexpected shape');
  const balances = isArray(body.balances) ? body.balances.map(parseBalance).filter((b): b is WireBalance => b !== null) : [];
  return { ...body, balances };
}

/**
 * A snapshot read as it arrives, each customer, key and member turned into the state's record as
 * soon as it is complete (snapshot-reader.ts): neither its whole text nor its parsed tree is held.
 */
async function readSnapshot(response: Response): Promise<PreparedSnapshot> {
  const prepared = new PreparedSnapshot();
  const parser = new SnapshotParser({
    element(field, value) {
      if (field === 'customers') prepared.customer(value as SnapshotBody['customers'][number]);
      else if (field === 'keys') prepared.key(value as SnapshotBody['keys'][number]);
      else prepared.member(value as NonNullable<SnapshotBody['members']>[number]);
    },
  });
  const decoder = new TextDecoder();
  if (response.body) for await (const chunk of response.body) parser.write(decoder.decode(chunk, { stream: true }));
  parser.write(decoder.decode());
  const head = parser.end() as Partial<SnapshotHead> & Record<string, unknown>;
  if (typeof head.generated_at !== 'string' || typeof head.platform_period_end !== 'string' || !Array.isArray(head.billable_status_codes)) {
    throw new SyntaxError('snapshot in an unexpected shape');
  }
  delete head.customers;
  delete head.keys;
  delete head.members;
  prepared.head = head as SnapshotHead;
  return prepared;
}

/**
 * A snapshot's head must come within `requestTimeoutMs`, its whole body within this: a streamed
 * snapshot of a million customers takes tens of seconds to read, far past the 5 s of other calls
 * (which then never let a large API's SDK start; seen in bench/sync-scale at 100,000 customers).
 */
const SNAPSHOT_TIMEOUT_MS = 300_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Calls to Gatehouse's SDK sync API, with the retries the wire protocol describes. */
export class ControlClient {
  constructor(private readonly options: ResolvedOptions) {}

  async #call(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    call: { headTimeoutMs?: number; timeoutMs?: number; signal?: AbortSignal; read?: (response: Response) => Promise<unknown> } = {},
  ): Promise<{ status: number; text: string; headers: Headers; read?: unknown }> {
    let lastError: Error = new TransientError('not attempted');
    for (let attempt = 0; attempt < 3; attempt++) {
      if (attempt > 0) await sleep(250 * 2 ** (attempt - 1));
      if (call.signal?.aborted) throw new TransientError(`${method} ${path}: stopped`);
      // The answer's head within `headTimeoutMs`, all of it within `timeoutMs`.
      const head = new AbortController();
      const headTimer = setTimeout(() => head.abort(new DOMException('no answer in time', 'TimeoutError')), call.headTimeoutMs ?? call.timeoutMs ?? this.options.requestTimeoutMs);
      const timeout = AbortSignal.any([head.signal, AbortSignal.timeout(call.timeoutMs ?? this.options.requestTimeoutMs)]);
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
          signal: call.signal ? AbortSignal.any([timeout, call.signal]) : timeout,
        });
      } catch (error) {
        lastError = new TransientError(`${method} ${path}: ${(error as Error).message}`);
        continue;
      } finally {
        clearTimeout(headTimer);
      }
      let text = '';
      let read: unknown;
      try {
        // A 200 with `read` is consumed by it as it arrives (the snapshot); anything else as text.
        if (call.read && response.status === 200) read = await call.read(response);
        else text = await response.text();
      } catch (error) {
        if (error instanceof SyntaxError) throw error; // malformed JSON: the same again on a retry
        lastError = new TransientError(`${method} ${path}: ${(error as Error).message}`);
        continue;
      }
      if (read !== undefined) return { status: response.status, text, headers: response.headers, read };
      if (response.status === 410 && path.startsWith('/sdk/v1/changes')) throw new CursorExpiredError(`${method} ${path.split('?')[0]}: HTTP 410, the cursor has expired`);
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
  async snapshot(etag: string | null): Promise<{ body: PreparedSnapshot; etag: string | null } | null> {
    const answer = await this.#call('GET', '/sdk/v1/snapshot?shape=full', undefined, etag ? { 'if-none-match': etag } : {}, {
      headTimeoutMs: this.options.requestTimeoutMs,
      timeoutMs: Math.max(SNAPSHOT_TIMEOUT_MS, this.options.requestTimeoutMs),
      read: readSnapshot,
    });
    if (answer.status === 304) return null;
    return { body: answer.read as PreparedSnapshot, etag: answer.headers.get('etag') };
  }

  async verify(keyHash: string): Promise<VerifyBody> {
    const answer = await this.#call('GET', `/sdk/v1/keys/verify?shape=full&key_hash=${keyHash}`);
    return JSON.parse(answer.text) as VerifyBody;
  }

  /**
   * What changed after `since`. `waitSeconds` asks the server to hold the answer until a change
   * arrives (long polling; a server that does not know `wait` answers at once); the call's timeout
   * is that wait plus the usual one. `signal` ends the call (the meter closing).
   */
  async changes(since: string, waitSeconds: number, signal: AbortSignal): Promise<ChangesBody> {
    const query = `since=${since}&shape=full${waitSeconds > 0 ? `&wait=${waitSeconds}` : ''}`;
    const answer = await this.#call('GET', `/sdk/v1/changes?${query}`, undefined, {}, { timeoutMs: waitSeconds * 1000 + this.options.requestTimeoutMs, signal });
    try {
      return parseChanges(answer.text);
    } catch (error) {
      throw error instanceof TransientError ? error : new TransientError(`changes answer: ${(error as Error).message}`);
    }
  }

  async usage(items: UsageItem[]): Promise<UsageAnswer> {
    const answer = await this.#call('POST', '/sdk/v1/usage', { items });
    const parsed = JSON.parse(answer.text) as { results?: unknown; balances?: unknown };
    if (!Array.isArray(parsed.results)) throw new TransientError('usage answer without a results array');
    const balances = new Map<string, WireBalance>();
    if (Array.isArray(parsed.balances)) {
      for (const raw of parsed.balances) {
        const balance = parseBalance(raw);
        if (balance) balances.set(balance.id, balance);
      }
    }
    return { results: parsed.results as UsageResult[], balances };
  }
}
