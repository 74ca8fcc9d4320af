// What the console's registry services share: their dependencies, client secrets, and the audit
// event every change writes in its own transaction (DESIGN 9).
import type { ApiRow, ApiService } from '../../apis/service.js';
import type { AuditService } from '../../audit/service.js';
import { actorOf, type Caller } from '../../console/caller.js';
import type { Clock } from '../../platform/clock.js';
import { DAY } from '../../platform/clock.js';
import type { Db, Trx } from '../../platform/db/database.js';
import { randomBase62 } from '../../platform/ids.js';

export interface RegistryDeps {
  db: Db;
  clock: Clock;
  audit: AuditService;
  apis: ApiService;
}

/** A client secret of a web app or a server: `ghs_` and 43 base-62 characters (256 bits). */
export function newClientSecret(): string {
  return `ghs_${randomBase62(43)}`;
}

/** Spec 3 and 5.5: after a rotation the old secret works 24 hours more (web apps alike). */
export const SECRET_OVERLAP_MS = DAY;

/** The start of a client id, for audit details and summaries (spec 6: the start, never more). */
export function clientIdStart(clientId: string): string {
  return `${clientId.slice(0, 8)}…`;
}

/** Writes the audit event of one registry change; details hold ids and settings, never a secret. */
export function recordChange(
  deps: RegistryDeps,
  trx: Trx,
  caller: Caller,
  api: ApiRow,
  event: { action: string; target: { type: string; id: string }; summary: string; details?: Record<string, unknown> },
) {
  return deps.audit.record(trx, actorOf(caller), { workspaceId: api.workspace_id, api: { id: api.id, name: api.name }, ...event });
}

