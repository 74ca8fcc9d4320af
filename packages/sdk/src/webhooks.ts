import { createHmac, timingSafeEqual } from 'node:crypto';

/** An event Gatehouse sent to your endpoint (Standard Webhooks body, with the webhook-id). */
export interface WebhookEvent<T = Record<string, unknown>> {
  /** The event id: the same on every retry, so a receiver can ignore one it has handled. */
  id: string;
  /** `customer.created`, `credit.added`, `customer.balance_low`, … */
  type: string;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  /**
   * The object as it was after the change, whole, with its sequence (`balance_seq` for balances,
   * `updated_seq` otherwise): keep the one with the higher sequence. `previous` holds the changed
   * fields' values before; `reason` says why a status changed.
   */
  data: { object: T; previous?: Record<string, unknown>; reason?: string };
}

/** A request that is not a Gatehouse webhook: missing headers, too old or new, or no valid signature. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

export interface VerifyWebhookOptions {
  /**
   * How far the `webhook-timestamp` may be from now, in seconds, either way (replayed requests are
   * refused after it).
   * @default 300
   */
  toleranceSeconds?: number;
  /**
   * The current time in milliseconds.
   * @default Date.now
   */
  now?: () => number;
}

/** Headers as Node (`req.headers`), fetch (`Headers`) or a plain object of any letter case give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value[0] : value;
}

function keyOf(secret: string): Buffer {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
  if (key.length === 0) throw new TypeError('verifyWebhook: the secret is empty; pass the whsec_… secret of your endpoint');
  return key;
}

/**
 * Checks that a request came from Gatehouse and answers its event (Standard Webhooks: HMAC-SHA256
 * of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint secret, as `v1,<base64>` in
 * `webhook-signature`). Pass the body exactly as it arrived: a body parsed and serialized again
 * no longer matches its signature.
 *
 * @param rawBody the request body as received (a Buffer from `express.raw()`, or the text)
 * @param headers the request's headers (`req.headers`, or a fetch `Headers`)
 * @param secret the endpoint's `whsec_…` secret; during a rotation, either secret (or both, as an array)
 * @throws {WebhookVerificationError} when the request is not a valid webhook: answer it 400
 * @example
 * ```js
 * import { verifyWebhook } from '@gatehouse/sdk/webhooks';
 * const event = verifyWebhook(req.body, req.headers, process.env.GATEHOUSE_WEBHOOK_SECRET);
 * if (event.type === 'customer.balance_low') notify(event.data.object.email);
 * ```
 */
export function verifyWebhook<T = Record<string, unknown>>(
  rawBody: Buffer | Uint8Array | string,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): WebhookEvent<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook-id, webhook-timestamp or webhook-signature');
  if (!/^\d{1,12}$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not a time in seconds');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowSeconds = Math.floor((options.now ?? Date.now)() / 1000);
  if (Math.abs(nowSeconds - Number(timestamp)) > tolerance) throw new WebhookVerificationError('webhook-timestamp is too far from now');
  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
  const offered = signatures
    .split(' ')
    .filter((entry) => entry.startsWith('v1,'))
    .map((entry) => Buffer.from(entry.slice(3)));
  const matches = (typeof secret === 'string' ? [secret] : secret).some((one) => {
    const expected = Buffer.from(createHmac('sha256', keyOf(one)).update(`${id}.${timestamp}.`).update(body).digest('base64'));
    return offered.some((candidate) => candidate.length === expected.length && timingSafeEqual(candidate, expected));
  });
  if (!matches) throw new WebhookVerificationError('no signature matches the secret');
  let event: { type?: unknown; timestamp?: unknown; data?: unknown };
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  return { id, type: String(event.type), timestamp: String(event.timestamp), data: event.data as WebhookEvent<T>['data'] };
}
