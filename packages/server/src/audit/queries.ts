import type { Db, Trx } from '../platform/db/database.js';
import type { AuditEventsTable } from './tables.js';
import type { Insertable } from 'kysely';

export async function insertAuditEvent(trx: Trx, row: Insertable<AuditEventsTable>) {
  await trx.insertInto('audit_events').values(row).execute();
}

/** Newest first; the cursor is the (created_at, id) of the last row of the previous page. */
export async function listAuditEvents(
  db: Db,
  workspaceId: string,
  options: { before: { at: Date; id: string } | null; apiId: string | null; limit: number },
) {
  let query = db.selectFrom('audit_events').selectAll().where('workspace_id', '=', workspaceId);
  if (options.apiId) query = query.where('api_id', '=', options.apiId);
  if (options.before) {
    const { at, id } = options.before;
    query = query.where((eb) => eb.or([eb('created_at', '<', at), eb.and([eb('created_at', '=', at), eb('id', '<', id)])]));
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}
