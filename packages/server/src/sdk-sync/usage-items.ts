import { MAX_USAGE_COUNT, type UsageResult } from '@gatehouse/protocol';
import { DAY, HOUR } from '../platform/clock.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
// Journals from before SDK 2.5 keep their old keys (wire protocol section 4): any short token.
const LEGACY_KEY = /^[A-Za-z0-9._:-]{1,128}$/;
// YYYY-MM-DDTHH:00:00Z, or +00:00 from migrated journals (wire protocol section 4).
const HOUR_STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00(?:\.0+)?(?:Z|\+00:00)$/;

/** SDKs drop items older than 45 days; a margin covers their clock skew. */
export const MAX_ITEM_AGE_MS = 47 * DAY;
/** A client clock a little ahead is tolerated. */
export const MAX_ITEM_FUTURE_MS = 2 * HOUR;

export interface ValidItem {
  /** The key in lower case: receipts are looked up by the UUID, whatever its case. */
  idempotencyKey: string;
  /**
   * The key exactly as the SDK sent it, for its result: the reporter matches results to its
   * journal by this string, and a result under another spelling is "an unknown key" that leaves
   * the item queued forever (wire protocol section 4, Response and Malformed).
   */
  answerKey: string;
  apiKeyId: string;
  usagePolicyId: string | null;
  statusCode: number;
  count: number;
  periodStart: Date;
}

export type ParsedItem = { ok: true; item: ValidItem } | { ok: false; result: UsageResult };

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** Checks one item on its own; a bad item is rejected alone, never the whole report. */
export function parseUsageItem(raw: unknown, now: Date): ParsedItem {
  const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const key = typeof item.idempotency_key === 'string' ? item.idempotency_key : '';
  const reject = (detail: string): ParsedItem => ({ ok: false, result: { idempotency_key: key, status: 'rejected', detail } });
  if (!UUID.test(key) && !LEGACY_KEY.test(key)) return reject('idempotency_key must be a UUID (or an older SDK key of up to 128 letters, digits and ._:-)');
  if (typeof item.api_key_id !== 'string' || !UUID.test(item.api_key_id)) return reject('api_key_id must be a UUID');
  const policy = item.usage_policy_id;
  if (policy !== undefined && policy !== null && (typeof policy !== 'string' || !UUID.test(policy))) return reject('usage_policy_id must be a UUID when present');
  if (!isInt(item.status_code) || item.status_code < 100 || item.status_code > 599) return reject('status_code must be an integer from 100 to 599');
  if (!isInt(item.count) || item.count < 1 || item.count > MAX_USAGE_COUNT) return reject(`count must be an integer from 1 to ${MAX_USAGE_COUNT}`);
  if (typeof item.period_start !== 'string' || !HOUR_STAMP.test(item.period_start)) return reject('period_start must be a UTC hour like 2026-08-04T00:00:00Z');
  const periodStart = new Date(item.period_start);
  if (Number.isNaN(periodStart.getTime())) return reject('period_start is not a valid time');
  // JavaScript quietly moves impossible dates to another day (T24:00 to the next midnight, the 31st
  // of a 30-day month to the 1st) instead of refusing them: such an item would be billed and
  // counted on a day it does not name. Only a time that reads back as written is an hour.
  if (periodStart.toISOString().slice(0, 13) !== item.period_start.slice(0, 13)) return reject('period_start is not a valid time');
  if (now.getTime() - periodStart.getTime() > MAX_ITEM_AGE_MS) return reject('period_start is older than 45 days');
  if (periodStart.getTime() - now.getTime() > MAX_ITEM_FUTURE_MS) return reject('period_start is in the future');
  const unknown = Object.keys(item).filter((k) => !['idempotency_key', 'api_key_id', 'usage_policy_id', 'status_code', 'count', 'period_start'].includes(k));
  void unknown; // Extra fields are ignored, as SDKs ignore ours.
  return {
    ok: true,
    item: {
      idempotencyKey: UUID.test(key) ? key.toLowerCase() : key,
      answerKey: key,
      apiKeyId: item.api_key_id.toLowerCase(),
      usagePolicyId: typeof policy === 'string' ? policy.toLowerCase() : null,
      statusCode: item.status_code,
      count: item.count,
      periodStart,
    },
  };
}

/** Whether a stored receipt is the same payload as an item sent again. */
export function samePayload(
  receipt: { api_key_id: string; usage_policy_id: string | null; status_code: number; count: number; period_start: Date },
  item: ValidItem,
): boolean {
  return (
    receipt.api_key_id === item.apiKeyId &&
    (receipt.usage_policy_id ?? null) === item.usagePolicyId &&
    receipt.status_code === item.statusCode &&
    Number(receipt.count) === item.count &&
    receipt.period_start.getTime() === item.periodStart.getTime()
  );
}
