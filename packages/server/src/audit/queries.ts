import type { Db, Trx } from '../platform/db/database.js';
import type { AuditEventsTable } from './tables.js';
import type { Insertable } from 'kysely';

export async function insertAuditEvent(trx: Trx, row: Insertable<AuditEventsTable>) {
  await trx.insertInto('audit_events').values(row).execute();
}

/** What a page of the log is narrowed to; null fields do not narrow it. */
export interface AuditFilter {
  apiId: string | null;
  /** An action, or a family: `member` matches `member` and every `member.…`. */
  action: string | null;
  actorId: string | null;
  customerId: string | null;
}

/** Newest first; the cursor is the (created_at, id) of the last row of the previous page. */
export async function listAuditEvents(db: Db, workspaceId: string, options: AuditFilter & { before: { at: Date; id: string } | null; limit: number }) {
  let query = db.selectFrom('audit_events').selectAll().where('workspace_id', '=', workspaceId);
  if (options.apiId) query = query.where('api_id', '=', options.apiId);
  if (options.actorId) query = query.where('actor_id', '=', options.actorId);
  if (options.customerId) query = query.where('customer_id', '=', options.customerId);
  if (options.action) {
    // The schema allows only [a-z0-9_.] in an action, and `_` is LIKE's one-character wildcard:
    // escaped, `signin_app` matches its own family and not `signinxapp`.
    const family = `${options.action.replace(/_/g, '\\_')}.%`;
    const action = options.action;
    query = query.where((eb) => eb.or([eb('action', '=', action), eb('action', 'like', family)]));
  }
  if (options.before) {
    const { at, id } = options.before;
    query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}
