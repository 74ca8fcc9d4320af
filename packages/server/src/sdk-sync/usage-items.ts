import type { UsageResult } from '@gatehouse/protocol';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { DAY, HOUR } from '../platform/clock.js';
import { UsageItem } from './wire-schemas.js';

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

// Each property of an item is checked against its schema in UsageItem, the one the OpenAPI document
// shows, in the schema's order; the first that fails names the item's rejection with the
// property's description. A report is never refused as a whole for one item (wire protocol
// section 4), so the schema is applied here, item by item, and not by the route.
const ajv = new Ajv.default({ strict: false, allErrors: false });
addFormats.default(ajv);
const propertyChecks = Object.entries(UsageItem.properties).map(([name, schema]) => ({
  name,
  optional: !(UsageItem.required as string[] | undefined)?.includes(name),
  check: ajv.compile(schema),
  detail: `${name} must be ${String(schema.description)}`,
}));

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

/** Checks one item on its own; a bad item is rejected alone, never the whole report. */
export function parseUsageItem(raw: unknown, now: Date): ParsedItem {
  const item = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const key = typeof item.idempotency_key === 'string' ? item.idempotency_key : '';
  const reject = (detail: string): ParsedItem => ({ ok: false, result: { idempotency_key: key, status: 'rejected', detail } });
  for (const property of propertyChecks) {
    const value = item[property.name];
    if (value === undefined && property.optional) continue;
    if (!property.check(value)) return reject(property.detail);
  }
  // Checked just above against UsageItem; the reads below are its types.
  const { api_key_id: apiKeyId, usage_policy_id: policy, status_code: statusCode, count } = item as { api_key_id: string; usage_policy_id?: string | null; status_code: number; count: number };
  const periodText = item.period_start as string;
  const periodStart = new Date(periodText);
  if (Number.isNaN(periodStart.getTime())) return reject('period_start is not a valid time');
  // JavaScript quietly moves impossible dates to another day (T24:00 to the next midnight, the 31st
  // of a 30-day month to the 1st) instead of refusing them: such an item would be billed and
  // counted on a day it does not name. Only a time that reads back as written is an hour.
  if (periodStart.toISOString().slice(0, 13) !== periodText.slice(0, 13)) return reject('period_start is not a valid time');
  if (now.getTime() - periodStart.getTime() > MAX_ITEM_AGE_MS) return reject('period_start is older than 45 days');
  if (periodStart.getTime() - now.getTime() > MAX_ITEM_FUTURE_MS) return reject('period_start is in the future');
  const unknown = Object.keys(item).filter((k) => !['idempotency_key', 'api_key_id', 'usage_policy_id', 'status_code', 'count', 'period_start'].includes(k));
  void unknown; // Extra fields are ignored, as SDKs ignore ours.
  return {
    ok: true,
    item: {
      idempotencyKey: UUID.test(key) ? key.toLowerCase() : key,
      answerKey: key,
      apiKeyId: apiKeyId.toLowerCase(),
      usagePolicyId: typeof policy === 'string' ? policy.toLowerCase() : null,
      statusCode,
      count,
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
