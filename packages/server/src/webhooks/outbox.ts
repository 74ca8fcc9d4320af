import type { Trx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import type { EventData, NewEvent } from './event-types.js';
import { insertEvents, type EventRow } from './queries.js';

/**
 * The body a receiver gets (issue 24 item 1), serialized once, when the event is raised: every
 * delivery and retry sends these very bytes, so signatures never break on a body written again.
 */
export function eventPayload(type: string, at: Date, data: EventData): string {
  return JSON.stringify({ type, timestamp: at.toISOString(), data });
}

export function eventRow(type: string, at: Date, data: EventData): EventRow {
  return { id: newId('evt'), type, payload: eventPayload(type, at, data) };
}

/**
 * Raises events of an API in the transaction of the change they report (DESIGN 12, like audit
 * events): they commit with it or not at all, and each subscribed endpoint gets a delivery that
 * the delivery job sends after the commit, retried until it is taken. Callers pass objects whole
 * and as they are after the change, each with its sequence (`balance_seq`, `updated_seq`).
 */
export async function raiseEvents(trx: Trx, apiId: string, at: Date, events: readonly NewEvent[]): Promise<void> {
  await insertEvents(trx, apiId, events.map((event) => eventRow(event.type, at, event.data)), at);
}

export function raiseEvent(trx: Trx, apiId: string, at: Date, event: NewEvent): Promise<void> {
  return raiseEvents(trx, apiId, at, [event]);
}
