import type { Clock } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import { decodeCursor, encodeCursor } from '../platform/cursor.js';
import { insertAuditEvent, listAuditEvents, type AuditFilter } from './queries.js';

/**
 * Who did something: a console user, a workspace key, the service itself, or a person of an API's
 * sign-in service acting for a customer in the portal.
 */
export interface Actor {
  type: 'user' | 'key' | 'system' | 'person';
  id: string;
  name: string;
  ip: string;
}

export interface AuditEventInput {
  workspaceId: string;
  action: string;
  target: { type: string; id: string };
  summary: string;
  /** Never a secret: IDs and the visible start of a key at most (spec section 6). */
  details?: Record<string, unknown>;
  api?: { id: string; name: string };
  customer?: { id: string; name: string };
}

export interface AuditPage {
  events: ReturnType<typeof toAuditOut>[];
  next_before?: string;
}

function toAuditOut(row: Awaited<ReturnType<typeof listAuditEvents>>[number]) {
  return {
    id: row.id,
    actor_type: row.actor_type,
    actor_id: row.actor_id,
    actor_name: row.actor_name,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    summary: row.summary,
    ip: row.ip,
    created_at: row.created_at.toISOString(),
    details: row.details,
    ...(row.api_id ? { api_id: row.api_id, api_name: row.api_name ?? '' } : {}),
    ...(row.customer_id ? { customer_id: row.customer_id, customer_name: row.customer_name ?? '' } : {}),
  };
}

export class AuditService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Writes one event inside the transaction of the change it describes (DESIGN section 9). */
  async record(trx: Trx, actor: Actor, event: AuditEventInput): Promise<void> {
    await insertAuditEvent(trx, {
      id: newId('aud'),
      workspace_id: event.workspaceId,
      api_id: event.api?.id ?? null,
      api_name: event.api?.name ?? null,
      customer_id: event.customer?.id ?? null,
      customer_name: event.customer?.name ?? null,
      actor_type: actor.type,
      actor_id: actor.id,
      actor_name: actor.name,
      action: event.action,
      target_type: event.target.type,
      target_id: event.target.id,
      summary: event.summary,
      ip: actor.ip,
      details: JSON.stringify(event.details ?? {}),
      created_at: this.clock.now(),
    });
  }

  /** Returns null for a cursor that does not decode, so the route can answer 422. */
  async list(workspaceId: string, options: Partial<AuditFilter> & { before?: string; limit: number }): Promise<AuditPage | null> {
    const before = options.before ? decodeCursor(options.before) : null;
    if (options.before && !before) return null;
    const rows = await listAuditEvents(this.db, workspaceId, {
      before,
      apiId: options.apiId ?? null,
      action: options.action ?? null,
      actorId: options.actorId ?? null,
      customerId: options.customerId ?? null,
      limit: options.limit + 1,
    });
    const page = rows.slice(0, options.limit);
    const last = page.at(-1);
    return {
      events: page.map(toAuditOut),
      ...(rows.length > options.limit && last ? { next_before: encodeCursor(last.created_at, last.id) } : {}),
    };
  }
}
