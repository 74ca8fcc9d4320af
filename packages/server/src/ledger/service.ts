import type { Clock } from '../platform/clock.js';
import { decodeCursor, pageOf } from '../platform/cursor.js';
import type { Db, Trx } from '../platform/db/database.js';
import { fail, ok, Problem, validationProblem, type Result } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { MONEY_BOUND } from '../platform/money.js';
import type { ApiService } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import { actorOf, type Caller } from '../console/caller.js';
import { raiseEvent } from '../webhooks/outbox.js';
import { raiseBalanceEvents } from './balance-events.js';
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

  /**
   * Posts one entry and moves the balance, unless the ref was applied before (applied: false) or
   * the balance would leave ±MONEY_BOUND (`balance_out_of_range`, and nothing changes).
   */
  async post(trx: Trx, entry: { apiId: string; customerId: string; kind: LedgerKind; amountMicro: number; note: string; actor: string; ref: string | null }): Promise<Result<{ applied: boolean; balance_micro: number }>> {
    const id = newId('led');
    const at = this.clock.now();
    // The ref is decided first: a repeat is ignored whatever it names (spec 2.2), even an amount
    // that would now pass the bound.
    const applied = await q.insertEntryOnce(trx, {
      id,
      api_id: entry.apiId,
      customer_id: entry.customerId,
      kind: entry.kind,
      amount_micro: entry.amountMicro,
      note: entry.note,
      actor: entry.actor,
      ref: entry.ref,
      at,
    });
    if (!applied) {
      const balance = await q.balanceOf(trx, entry.apiId, entry.customerId);
      return ok({ applied: false, balance_micro: balance?.balance_micro ?? 0 });
    }
    const moved = await q.moveBalanceWithinBound(trx, entry.apiId, entry.customerId, entry.amountMicro);
    if (moved) {
      // Events to owners (issue 24): every positive entry is credit.added, with the balance and
      // balance_seq it left; then whatever state of the balance it crossed into.
      if (entry.amountMicro > 0) {
        await raiseEvent(trx, entry.apiId, at, {
          type: 'credit.added',
          data: {
            object: {
              object: 'ledger_entry', id, customer_id: entry.customerId, kind: entry.kind, amount_micro: entry.amountMicro, note: entry.note, ref: entry.ref,
              created_at: at.toISOString(), balance_micro: moved.balance_micro, balance_seq: moved.balance_seq,
            },
          },
        });
      }
      await raiseBalanceEvents(trx, entry.apiId, at, [
        { customerId: entry.customerId, beforeMicro: moved.balance_micro - entry.amountMicro, afterMicro: moved.balance_micro, balanceSeq: moved.balance_seq, lineMicro: moved.line },
      ]);
      return ok({ applied: true, balance_micro: moved.balance_micro });
    }
    // Out of bounds: the entry goes again, so its ref stays unused and the ledger unchanged; a
    // concurrent request with the same ref, waiting on this insert, then applies on its own.
    await q.deleteEntry(trx, entry.apiId, id);
    const balance = await q.balanceOf(trx, entry.apiId, entry.customerId);
    return fail(
      'balance_out_of_range',
      `The balance is ${balance?.balance_micro ?? 0} micro units; ${entry.amountMicro} more would take it past ±${MONEY_BOUND}, the bound of every amount`,
    );
  }

  /** Manual credit by an editor; a repeated `ref` answers applied: false and changes nothing. */
  async credit(caller: Caller, apiId: string, customerId: string, input: CreditInput): Promise<Result<{ applied: boolean; balance_micro: number }>> {
    const { api } = await this.apis.access(caller, apiId, 'editor');
    const actor = actorOf(caller);
    return this.db.transaction().execute(async (trx) => {
      // Locked first: a removal of the customer then sees this credit (and archives rather than
      // deletes), or comes first and this finds the customer gone or archived.
      const customer = await q.lockCustomerForCredit(trx, apiId, customerId);
      if (!customer) throw new Problem('not_found', 'No such customer');
      if (customer.archived_at) throw new Problem('customer_state', 'The customer is archived');
      const posted = await this.post(trx, {
        apiId,
        customerId,
        kind: 'credit',
        amountMicro: input.amount_micro,
        note: input.note.trim(),
        actor: actor.name,
        ref: input.ref ?? null,
      });
      if (posted.ok && posted.value.applied) {
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
      return posted;
    });
  }

  async list(caller: Caller, apiId: string, options: { customerId?: string; kind?: LedgerKind; cursor?: string; limit: number }) {
    await this.apis.access(caller, apiId, 'viewer');
    const before = options.cursor ? decodeCursor(options.cursor) : null;
    if (options.cursor && !before) throw validationProblem('query.cursor', 'not a cursor this API gave', options.cursor);
    const rows = await q.ledgerPage(this.db, apiId, { customerId: options.customerId ?? null, kind: options.kind ?? null, before, limit: options.limit + 1 });
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

  /**
   * One customer's entries, newest first, for the customer portal: the portal names the customer
   * from the person's membership, so no console caller is involved, and the owner's bookkeeping
   * (actor, ref) stays out. null when the cursor is not one this service made.
   */
  async customerEntries(apiId: string, customerId: string, options: { cursor: string | null; limit: number }) {
    const before = options.cursor ? decodeCursor(options.cursor) : null;
    if (options.cursor && !before) return null;
    const rows = await q.ledgerPage(this.db, apiId, { customerId, kind: null, before, limit: options.limit + 1 });
    const { page, next } = pageOf(rows, options.limit);
    return {
      entries: page.map((e) => ({
        id: e.id,
        kind: e.kind,
        amountMicro: e.amount_micro,
        requests: e.requests,
        note: e.note,
        // A usage entry is about its day (late usage still lands there); any other about when it was made.
        day: e.usage_day ?? e.created_at.toISOString().slice(0, 10),
      })),
      next: next ?? null,
    };
  }

  lockCustomers = q.lockCustomers;
  usageEntriesOf = q.usageEntriesOf;

  /** Usage postings of a report (sdk-sync/usage.ts), and the balance events of the balances they moved across a line. */
  async postUsage(trx: Trx, apiId: string, postings: q.UsagePosting[], newIds: string[], at: Date): Promise<q.PostedBalance[]> {
    const { moves, balances } = await q.postUsage(trx, apiId, postings, newIds, at);
    await raiseBalanceEvents(trx, apiId, at, moves);
    return balances;
  }

  sumSince(apiId: string, kinds: LedgerKind[], since: Date) {
    return q.sumKindSince(this.db, apiId, kinds, since);
  }
}
