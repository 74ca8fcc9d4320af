import type { Trx } from '../platform/db/database.js';
import { customerObject } from '../customers/events.js';
import type { EventType, NewEvent } from '../webhooks/event-types.js';
import { raiseEvents } from '../webhooks/outbox.js';
import { customersForEvents } from './queries.js';

// Balance events (issue 24 item 4), raised by the ledger, the only writer of balances, in the
// transaction of the entry that moved the balance: a balance is `ok` at or above the customer's
// low-balance line (its own, else the API's), `low` below it, `depleted` at zero or below.
// Events mark a change of state, so each crossing raises its event once, like the low-balance
// mail: low (crossing below a line above zero), depleted, recovered (back at or above the line).

export type BalanceState = 'ok' | 'low' | 'depleted';

export function balanceState(balanceMicro: number, lineMicro: number): BalanceState {
  if (balanceMicro <= 0) return 'depleted';
  return balanceMicro < lineMicro ? 'low' : 'ok';
}

const DEPTH: Record<BalanceState, number> = { ok: 0, low: 1, depleted: 2 };

/** The events of one balance move, in the order they happened. */
export function balanceEventTypes(beforeMicro: number, afterMicro: number, lineMicro: number): EventType[] {
  const from = balanceState(beforeMicro, lineMicro);
  const to = balanceState(afterMicro, lineMicro);
  if (DEPTH[to] > DEPTH[from]) {
    return [...(from === 'ok' && lineMicro > 0 ? ['customer.balance_low' as const] : []), ...(to === 'depleted' ? ['customer.balance_depleted' as const] : [])];
  }
  return DEPTH[to] < DEPTH[from] && to === 'ok' ? ['customer.balance_recovered'] : [];
}

/** One customer's balance moved by one posting; `balanceSeq` is the sequence after it. */
export interface BalanceMove {
  customerId: string;
  beforeMicro: number;
  afterMicro: number;
  balanceSeq: number;
  lineMicro: number;
}

/**
 * Raises the balance events of some moves. A customer's first entry (its welcome credit, most
 * often) sets where it starts and crosses nothing. Reads the customers only when a move crossed.
 */
export async function raiseBalanceEvents(trx: Trx, apiId: string, at: Date, moves: readonly BalanceMove[]): Promise<void> {
  const crossing = moves
    .filter((move) => move.balanceSeq > 1)
    .map((move) => ({ move, types: balanceEventTypes(move.beforeMicro, move.afterMicro, move.lineMicro) }))
    .filter((c) => c.types.length > 0);
  if (!crossing.length) return;
  const rows = new Map((await customersForEvents(trx, apiId, crossing.map((c) => c.move.customerId))).map((row) => [row.id, row]));
  const events: NewEvent[] = [];
  for (const { move, types } of crossing) {
    const row = rows.get(move.customerId);
    if (!row) continue;
    const object = customerObject(row, move.lineMicro);
    for (const type of types) events.push({ type, data: { object, previous: { balance_micro: move.beforeMicro } } });
  }
  await raiseEvents(trx, apiId, at, events);
}
