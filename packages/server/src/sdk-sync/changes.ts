import type { ChangesBody, WireBalance, WireCustomer, WireKey } from '@gatehouse/protocol';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { isoDay, monthStart } from '../platform/period.js';
import type { ApiRow } from '../apis/service.js';
import * as cq from './change-queries.js';
import { policyValidUntil, type SnapshotService } from './snapshot.js';
import { toWireCustomer, wireAmount } from './wire-customer.js';

/** A cursor this API cannot answer: older than the tombstones kept, or newer than any change. */
export const CURSOR_EXPIRED = Symbol('cursor-expired');

/**
 * What changed for an SDK after a cursor (issue 27; docs/decisions.md, "SDK change sequence").
 * One row per changed object holds the number of its latest change, so an answer names each
 * object at most once, with its state read in the same snapshot as the rows.
 */
export class ChangeService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly snapshots: SnapshotService,
  ) {}

  async read(api: ApiRow, since: number, limit: number, full: boolean): Promise<ChangesBody | typeof CURSOR_EXPIRED> {
    const now = this.clock.now();
    const month = isoDay(monthStart(now));
    const page = await this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const counter = await cq.changeCounter(trx, api.id);
        // Below the horizon a removal may be gone; above the counter the cursor was never handed
        // out by this database (another one's, or one restored from an older backup).
        if (since < counter.pruned_seq || since > counter.seq) return null;
        const rows = await cq.changesSince(trx, api.id, since, limit + 1);
        const hasMore = rows.length > limit;
        const changes = hasMore ? rows.slice(0, limit) : rows;
        const ids = (kind: string, removed: boolean) => changes.filter((c) => c.kind === kind && c.removed === removed).map((c) => c.object_id);
        const customerIds = ids('customer', false);
        const keyIds = ids('key', false);
        const customerSet = new Set(customerIds);
        const balanceIds = ids('balance', false).filter((id) => !customerSet.has(id));
        return {
          // A full page ends at its last change; otherwise at the counter, which covers every
          // change this snapshot sees (numbers follow commits: nothing below it can still appear).
          cursor: hasMore ? changes[changes.length - 1]!.seq : counter.seq,
          hasMore,
          changes,
          customers: customerIds.length ? await cq.customersByIds(trx, api.id, customerIds, month) : [],
          keys: keyIds.length ? await cq.keysByIdsForWire(trx, api.id, keyIds) : [],
          balances: balanceIds.length ? await cq.balancesByIds(trx, api.id, balanceIds) : [],
        };
      });
    if (!page) return CURSOR_EXPIRED;

    const wireOptions = { full, apiSuspended: api.status === 'suspended', policyValidUntil: policyValidUntil(now) };
    const customerById = new Map(page.customers.map((c) => [c.id, c]));
    const keyById = new Map(page.keys.map((k) => [k.id, k]));
    const balanceById = new Map(page.balances.map((b) => [b.id, b]));
    const body = {
      customers: [] as WireCustomer[],
      keys: [] as WireKey[],
      removed_keys: [] as string[],
      removed_customers: [] as string[],
      balances: [] as WireBalance[],
    };
    // In the order of the changes; an object whose row says live but whose state is gone (it
    // cannot be, as both come from one snapshot) is sent as removed rather than left out.
    for (const change of page.changes) {
      if (change.kind === 'customer') {
        const row = change.removed ? undefined : customerById.get(change.object_id);
        if (row) body.customers.push(toWireCustomer(row, wireOptions));
        else body.removed_customers.push(change.object_id);
      } else if (change.kind === 'key') {
        const row = change.removed ? undefined : keyById.get(change.object_id);
        if (row) body.keys.push({ id: row.id, customer_id: row.customer_id, key_hash: row.key_hash });
        else body.removed_keys.push(change.object_id);
      } else if (change.kind === 'balance') {
        const row = balanceById.get(change.object_id);
        if (row) body.balances.push({ id: row.id, credit_balance_micro: wireAmount(row.balance_micro), balance_seq: row.balance_seq });
      }
      // 'api': the API's terms are at the top of every answer.
    }
    return {
      cursor: String(page.cursor),
      has_more: page.hasMore,
      generated_at: now.toISOString(),
      ...(await this.snapshots.tenantFields(api, now)),
      ...body,
    };
  }
}
