import type { Clock } from '../platform/clock.js';
import { decodeCursor, pageOf } from '../platform/cursor.js';
import type { Db, Trx } from '../platform/db/database.js';
import { Problem, validationProblem } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import * as q from './queries.js';
import type { LedgerKind } from './tables.js';

export interface CreditInput {
  amount_micro: number;
  note: string;
  ref?: string;
}

/** The credit ledger: manual credit, welcome credit, usage postings and listings (spec 2.2). */
export class LedgerService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly apis: ApiService,
  ) {}

  /** Posts one entry and moves the balance, unless the ref was applied before. */
  async post(trx: Trx, entry: { apiId: string; customerId: string; kind: LedgerKind; amountMicro: number; note: string; actor: string; ref: string | null }) {
    const applied = await q.insertEntryOnce(trx, {
      id: newId('led'),
      api_id: entry.apiId,
      customer_id: entry.customerId,
      kind: entry.kind,
      amount_micro: entry.amountMicro,
      note: entry.note,
      actor: entry.actor,
      ref: entry.ref,
      at: this.clock.now(),
    });
    if (!applied) {
      const balance = await q.balanceOf(trx, entry.apiId, entry.customerId);
      return { applied: false, balance_micro: balance?.balance_micro ?? 0 };
    }
    const moved = await q.moveBalance(trx, entry.apiId, entry.customerId, entry.amountMicro);
    return { applied: true, balance_micro: moved.balance_micro };
  }

  /** Manual credit by an editor; a repeated `ref` answers applied: false and changes nothing. */
  async credit(caller: Caller, apiId: string, customerId: string, input: CreditInput) {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const actor = actorOf(caller);
    return this.db.transaction().execute(async (trx) => {
      const customer = await trx.selectFrom('customers').select(['id', 'name']).where('api_id', '=', apiId).where('id', '=', customerId).executeTakeFirst();
      if (!customer) throw new Problem('not_found', 'No such customer');
      const result = await this.post(trx, {
        apiId,
        customerId,
        kind: 'credit',
        amountMicro: input.amount_micro,
        note: input.note.trim(),
        actor: actor.name,
        ref: input.ref ?? null,
      });
      if (result.applied) {
        await this.audit.record(trx, actor, {
          workspaceId: api.workspace_id,
          action: 'customer.credit',
          target: { type: 'customer', id: customerId },
          api: { id: apiId, name: api.name },
          customer: { id: customerId, name: customer.name },
          summary: `${input.amount_micro >= 0 ? 'Added' : 'Removed'} ${Math.abs(input.amount_micro)} micro units of credit: ${input.note.trim()}`,
          details: { amount_micro: input.amount_micro, ...(input.ref ? { ref: input.ref } : {}) },
        });
      }
      return result;
    });
  }

  async list(caller: Caller, apiId: string, options: { customerId?: string; cursor?: string; limit: number }) {
    await this.apis.access(caller, apiId, 'viewer');
    const before = options.cursor ? decodeCursor(options.cursor) : null;
    if (options.cursor && !before) throw validationProblem('query.cursor', 'not a cursor this API gave', options.cursor);
    const rows = await q.ledgerPage(this.db, apiId, { customerId: options.customerId ?? null, before, limit: options.limit + 1 });
    const { page, next } = pageOf(rows, options.limit);
    return {
      entries: page.map((e) => ({
        id: e.id,
        customer_id: e.customer_id,
        customer_name: e.customer_name,
        kind: e.kind,
        note: e.note,
        actor: e.actor,
        amount_micro: e.amount_micro,
        requests: e.requests,
        created_at: e.created_at.toISOString(),
        updated_at: e.updated_at.toISOString(),
        ...(e.ref ? { ref: e.ref } : {}),
        ...(e.usage_day ? { usage_day: `${e.usage_day}T00:00:00.000Z` } : {}),
      })),
      ...(next ? { next_cursor: next } : {}),
    };
  }

  lockCustomers = q.lockCustomers;
  postUsage = q.postUsage;

  sumSince(apiId: string, kinds: LedgerKind[], since: Date) {
    return q.sumKindSince(this.db, apiId, kinds, since);
  }
}
