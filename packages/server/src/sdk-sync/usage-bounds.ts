import { MONEY_BOUND, withinBound } from '../platform/money.js';

/** One accepted item as the bounds see it: what it adds to its customer's balance and day entry. */
export interface BoundedItem {
  customerId: string;
  /** The UTC day of its usage ledger entry, YYYY-MM-DD. */
  day: string;
  count: number;
  charge: bigint;
}

/** Where a customer stands before the report, read exactly under the customer locks. */
export interface Standing {
  balances: Map<string, bigint>;
  /** Usage entries by `${customerId}|${day}`; a missing one starts at zero. */
  entries: Map<string, { amount: bigint; requests: bigint }>;
}

/** Whether adding `delta` to `value` would end outside ±MONEY_BOUND. Adding nothing passes nothing. */
const passes = (value: bigint, delta: bigint) => delta !== 0n && !withinBound(value + delta);

/**
 * Decides, item by item in the given order, which items fit: an item is applied only if the
 * balance and the day's usage entry (amount and requests) it changes stay within ±MONEY_BOUND,
 * counting the items before it that fit. Returns null for an item that fits, else why it does
 * not (its `rejected` detail). Money of record never leaves the bound, so no write can overflow
 * bigint and no read meets an amount it cannot show.
 */
export function fitWithinBounds(items: BoundedItem[], standing: Standing): (string | null)[] {
  const balances = new Map(standing.balances);
  const entries = new Map(standing.entries);
  return items.map((item) => {
    const balance = balances.get(item.customerId) ?? 0n;
    const entryKey = `${item.customerId}|${item.day}`;
    const entry = entries.get(entryKey) ?? { amount: 0n, requests: 0n };
    if (passes(balance, -item.charge)) {
      return `charging ${item.charge} micro units would take the customer's balance past -${MONEY_BOUND}, the bound of every amount`;
    }
    if (passes(entry.amount, -item.charge)) {
      return `charging ${item.charge} micro units would take the customer's usage ledger entry of ${item.day} past -${MONEY_BOUND}, the bound of every amount`;
    }
    if (passes(entry.requests, BigInt(item.count))) {
      return `${item.count} more requests would take the customer's usage ledger entry of ${item.day} past ${MONEY_BOUND} requests, the bound of every amount`;
    }
    balances.set(item.customerId, balance - item.charge);
    entries.set(entryKey, { amount: entry.amount - item.charge, requests: entry.requests + BigInt(item.count) });
    return null;
  });
}
