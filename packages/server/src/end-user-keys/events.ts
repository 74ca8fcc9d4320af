import type { Selectable } from 'kysely';
import type { Trx } from '../platform/db/database.js';
import { raiseEvents } from '../webhooks/outbox.js';
import type { EndUserKeysTable } from './tables.js';

/**
 * A person's own key as events to owners show it (issue 24 item 4): never the key, only its
 * start. It moves only forward (created, then revoked), so its `updated_seq` is that step.
 */
export function endUserKeyObject(key: Selectable<EndUserKeysTable>) {
  return {
    object: 'end_user_key',
    id: key.id,
    person_id: key.person_id,
    name: key.name,
    start: key.start,
    permissions: key.permissions,
    created_at: key.created_at.toISOString(),
    expires_at: key.expires_at?.toISOString() ?? null,
    revoked_at: key.revoked_at?.toISOString() ?? null,
    updated_seq: key.revoked_at ? 2 : 1,
  };
}

export function raiseEndUserKeyEvents(trx: Trx, apiId: string, at: Date, type: 'key.created' | 'key.revoked', keys: Selectable<EndUserKeysTable>[]) {
  return raiseEvents(trx, apiId, at, keys.map((key) => ({ type, data: { object: endUserKeyObject(key) } })));
}
