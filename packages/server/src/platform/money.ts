import { MAX_WIRE_INT } from '@gatehouse/protocol';

/**
 * The bound of every amount and counter the service stores or shows: ±(2^53 - 1). It is the
 * largest integer JSON carries exactly (DESIGN 9, "JSON numbers within 2^53 - 1") and the range
 * the wire protocol allows a balance (section 2: `credit_balance_micro` down to -(2^53 - 1)).
 * Writes keep balances and ledger entries within it (usage items past it are rejected, credits
 * refused); counters and sums of many rows saturate at it, since no rule can keep a sum of
 * bounded values bounded.
 */
export const MONEY_BOUND = MAX_WIRE_INT;
const BOUND = BigInt(MONEY_BOUND);

/** Whether a value lies within ±MONEY_BOUND. */
export function withinBound(value: bigint): boolean {
  return value >= -BOUND && value <= BOUND;
}

/** A value clamped to ±MONEY_BOUND, as a number that is always a safe integer. */
export function saturate(value: bigint): number {
  return Number(value > BOUND ? BOUND : value < -BOUND ? -BOUND : value);
}

/**
 * Reads a bigint column (PostgreSQL sends its text) as a safe integer, saturated at the bound.
 * Total: the service never writes past the bound, but an older version could have, and one such
 * row used to fail every read that met it (a number past 2^53 fails the response schemas and the
 * SDK's parser; PGlite handed out a BigInt, which JSON cannot serialize).
 */
export function parseInt8(text: string): number {
  return saturate(BigInt(text));
}
