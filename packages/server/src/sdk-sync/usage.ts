import type { UsageResult, WireBalance } from '@gatehouse/protocol';
import type { Clock } from '../platform/clock.js';
import { addMs, MINUTE } from '../platform/clock.js';
import { BoundedCache } from '../platform/bounded-cache.js';
import type { Db, Trx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import { saturate } from '../platform/money.js';
import { isoDay, monthStart } from '../platform/period.js';
import type { ApiService } from '../apis/service.js';
import type { LedgerService } from '../ledger/service.js';
import type { UsagePosting } from '../ledger/queries.js';
import type { PostedBalance } from '../ledger/queries.js';
import { balancesByIds } from './change-queries.js';
import * as q from './queries.js';
import { fitWithinBounds } from './usage-bounds.js';
import { raiseQuotaThresholds } from './usage-events.js';
import { parseUsageItem, samePayload, type ValidItem } from './usage-items.js';
import { wireAmount } from './wire-customer.js';

interface Priced {
  item: ValidItem;
  customerId: string;
  isTest: boolean;
  billable: boolean;
  charge: bigint;
  /** The monthly quota of the usage policy the item names; null: none. */
  quota: number | null;
}

function addTo<K, V>(map: Map<K, V>, key: K, make: () => V, update: (v: V) => void) {
  let value = map.get(key);
  if (!value) map.set(key, (value = make()));
  update(value);
}

type Policy = { id: string; customer_id: string; price_per_request_micro: number; billable_status_codes: number[]; monthly_quota: number | null };

/**
 * Usage ingestion (wire protocol section 4): each item is applied exactly once, priced at the
 * usage policy it names, and the whole report is one transaction committed before the answer.
 */
export class UsageService {
  // Both hold facts that never change once written: a key's customer (and whether it is the test
  // customer), and a usage policy. Caching them takes two lookups off every report.
  readonly #keys = new BoundedCache<string, { id: string; customer_id: string; is_test: boolean }>(200_000);
  // APIs whose first_usage_at this node has seen committed: it is set once and never cleared.
  readonly #firstUsageSet = new BoundedCache<string, true>(100_000);
  readonly #policies = new BoundedCache<string, Policy>(200_000);

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apis: ApiService,
    private readonly ledger: LedgerService,
  ) {}

  async ingest(apiId: string, rawItems: unknown[]): Promise<UsageResult[]> {
    return (await this.ingestReport(apiId, rawItems)).results;
  }

  /**
   * A report's results, and the balance of every customer an accepted or duplicate item names,
   * read after the report was applied in its transaction (docs/decisions.md, "Usage
   * acknowledgements carry balances"): its balance_seq covers every such item of the customer.
   */
  async ingestReport(apiId: string, rawItems: unknown[]): Promise<{ results: UsageResult[]; balances: WireBalance[] }> {
    const now = this.clock.now();
    const results: UsageResult[] = new Array(rawItems.length);
    const valid: { index: number; item: ValidItem }[] = [];
    rawItems.forEach((raw, index) => {
      const parsed = parseUsageItem(raw, now);
      if (parsed.ok) valid.push({ index, item: parsed.item });
      else results[index] = parsed.result;
    });
    if (!valid.length) return { results, balances: [] };

    const balances = await this.db.transaction().execute(async (trx) => {
      // What the items name: keys (with their customers) and policies.
      const keys = await this.#lookupKeys(trx, apiId, valid.map((v) => v.item.apiKeyId));
      const withoutPolicy = [...new Set(valid.filter((v) => !v.item.usagePolicyId).map((v) => keys.get(v.item.apiKeyId)?.customer_id).filter((id): id is string => !!id))];
      const currentPolicy = new Map(
        withoutPolicy.length ? (await q.currentPolicyIds(trx, apiId, withoutPolicy)).map((c) => [c.id, c.usage_policy_id] as const) : [],
      );
      const policyIds = new Set<string>();
      for (const { item } of valid) {
        const policyId = item.usagePolicyId ?? currentPolicy.get(keys.get(item.apiKeyId)?.customer_id ?? '');
        if (policyId) policyIds.add(policyId);
      }
      const policies = await this.#lookupPolicies(trx, apiId, [...policyIds]);

      const candidates: { index: number; item: ValidItem; priced: Priced }[] = [];
      const firstOfKey = new Map<string, { index: number; item: ValidItem }>();
      for (const { index, item } of valid) {
        const reject = (detail: string) => (results[index] = { idempotency_key: item.answerKey, status: 'rejected', detail });
        const key = keys.get(item.apiKeyId);
        if (!key) {
          reject('unknown api_key_id');
          continue;
        }
        const policy = policies.get(item.usagePolicyId ?? currentPolicy.get(key.customer_id) ?? '');
        if (!policy || policy.customer_id !== key.customer_id) {
          reject(item.usagePolicyId ? 'unknown usage_policy_id for this key' : 'the customer has no usage policy');
          continue;
        }
        if (firstOfKey.has(item.idempotencyKey)) continue; // repeated within this report: answered below
        firstOfKey.set(item.idempotencyKey, { index, item });
        const billable = policy.billable_status_codes.includes(item.statusCode);
        const charge = billable && !key.is_test ? BigInt(item.count) * BigInt(policy.price_per_request_micro) : 0n;
        candidates.push({ index, item, priced: { item, customerId: key.customer_id, isTest: key.is_test, billable, charge, quota: policy.monthly_quota } });
      }

      // Receipts first, sorted by key so concurrent reports take index locks in one order. An
      // item whose key is already stored is a duplicate (same payload) or a conflict (different).
      candidates.sort((a, b) => (a.item.idempotencyKey < b.item.idempotencyKey ? -1 : 1));
      const inserted = await q.insertReceipts(
        trx,
        apiId,
        candidates.map(({ item }) => ({
          idempotency_key: item.idempotencyKey,
          api_key_id: item.apiKeyId,
          usage_policy_id: item.usagePolicyId,
          status_code: item.statusCode,
          count: item.count,
          period_start: item.periodStart,
        })),
        now,
      );
      const seenBefore = candidates.filter((c) => !inserted.has(c.item.idempotencyKey)).map((c) => c.item.idempotencyKey);
      const stored = new Map((seenBefore.length ? await q.receiptsByKeys(trx, apiId, seenBefore) : []).map((r) => [r.idempotency_key, r]));
      const accepted: Priced[] = [];
      for (const c of candidates) {
        if (inserted.has(c.item.idempotencyKey)) {
          results[c.index] = { idempotency_key: c.item.answerKey, status: 'accepted' };
          accepted.push(c.priced);
          continue;
        }
        const receipt = stored.get(c.item.idempotencyKey);
        results[c.index] =
          receipt && samePayload(receipt, c.item)
            ? { idempotency_key: c.item.answerKey, status: 'duplicate' }
            : { idempotency_key: c.item.answerKey, status: 'rejected', detail: 'idempotency_key was used before with a different payload' };
      }
      // New items that would take an amount past its bound are rejected here, before repeats
      // within the report copy their answer.
      const applied = accepted.length ? await this.#apply(trx, apiId, accepted, now) : { pastBound: new Map<string, string>(), balances: [] };
      const pastBound = applied.pastBound;
      for (const c of candidates) {
        const detail = pastBound.get(c.item.idempotencyKey);
        if (detail) results[c.index] = { idempotency_key: c.item.answerKey, status: 'rejected', detail };
      }
      // Repeats of a key inside this one report: a duplicate of its first occurrence only with the
      // same payload. A different payload under the key is a conflict, as it would be in a later
      // report (wire protocol section 4, Idempotency: "With a different count, answer 409 or
      // rejected"); it used to be answered duplicate, so its usage was silently dropped.
      for (const { index, item } of valid) {
        if (results[index]) continue;
        const first = firstOfKey.get(item.idempotencyKey)!;
        const answer = results[first.index]!;
        const firstPayload = { api_key_id: first.item.apiKeyId, usage_policy_id: first.item.usagePolicyId, status_code: first.item.statusCode, count: first.item.count, period_start: first.item.periodStart };
        results[index] =
          answer.status === 'rejected'
            ? { ...answer, idempotency_key: item.answerKey }
            : samePayload(firstPayload, item)
              ? { idempotency_key: item.answerKey, status: 'duplicate' }
              : { idempotency_key: item.answerKey, status: 'rejected', detail: 'idempotency_key was used before with a different payload' };
      }
      return this.#balancesNamed(trx, apiId, valid, results, keys, applied.balances);
    });
    // Committed: an accepted item means first_usage_at is set now (by this report or before).
    if (results.some((r) => r.status === 'accepted')) this.#firstUsageSet.set(apiId, true);
    return { results, balances };
  }

  /**
   * The balances of the customers that accepted and duplicate items name: those the report moved
   * as it left them, the others (only duplicates named them: applied by an earlier report) read
   * now, in the report's transaction, so their balance_seq already covers those items.
   */
  async #balancesNamed(
    trx: Trx,
    apiId: string,
    valid: { index: number; item: ValidItem }[],
    results: UsageResult[],
    keys: Map<string, { customer_id: string }>,
    posted: PostedBalance[],
  ): Promise<WireBalance[]> {
    const named = new Set<string>();
    for (const { index, item } of valid) {
      const status = results[index]!.status;
      const customerId = keys.get(item.apiKeyId)?.customer_id;
      if (customerId && (status === 'accepted' || status === 'duplicate')) named.add(customerId);
    }
    const out: WireBalance[] = [];
    for (const b of posted) {
      if (named.delete(b.id)) out.push({ id: b.id, credit_balance_micro: wireAmount(b.balanceMicro), balance_seq: b.balanceSeq });
    }
    if (named.size) {
      for (const b of await balancesByIds(trx, apiId, [...named])) out.push({ id: b.id, credit_balance_micro: wireAmount(Number(b.balance_micro)), balance_seq: Number(b.balance_seq) });
    }
    return out;
  }

  async #lookupKeys(trx: Trx, apiId: string, ids: string[]) {
    const found = new Map<string, { id: string; customer_id: string; is_test: boolean }>();
    const missing: string[] = [];
    for (const id of new Set(ids)) {
      const cached = this.#keys.get(`${apiId}|${id}`);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    for (const row of missing.length ? await q.keysByIds(trx, apiId, missing) : []) {
      this.#keys.set(`${apiId}|${row.id}`, row);
      found.set(row.id, row);
    }
    // Usage of people's access tokens names the customer's token_key_id (full snapshot shape).
    const notKeys = missing.filter((id) => !found.has(id));
    for (const row of notKeys.length ? await q.tokenKeysByIds(trx, apiId, notKeys) : []) {
      this.#keys.set(`${apiId}|${row.id}`, row);
      found.set(row.id, row);
    }
    return found;
  }

  async #lookupPolicies(trx: Trx, apiId: string, ids: string[]) {
    const found = new Map<string, Policy>();
    const missing: string[] = [];
    for (const id of ids) {
      const cached = this.#policies.get(`${apiId}|${id}`);
      if (cached) found.set(id, cached);
      else missing.push(id);
    }
    for (const row of missing.length ? await q.policiesByIds(trx, apiId, missing) : []) {
      this.#policies.set(`${apiId}|${row.id}`, row);
      found.set(row.id, row);
    }
    return found;
  }

  /**
   * Applies new items under the locks, except those that would take the customer's balance or
   * usage entry of the day past ±MONEY_BOUND (platform/money.ts): their receipts go again, so
   * they change nothing, and their details are returned by idempotency key for `rejected`.
   */
  async #apply(trx: Trx, apiId: string, accepted: Priced[], now: Date): Promise<{ pastBound: Map<string, string>; balances: PostedBalance[] }> {
    // The API row before any customer, as a change of the API's terms takes them (API, then its
    // customers in id order); only the first report of an API changes the row at all, so once
    // this node has seen it set the statement (which then locks nothing) is left out.
    if (!this.#firstUsageSet.get(apiId)) {
      await this.apis.markFirstUsage(trx, apiId, now);
    }
    // Customers are locked in id order first: concurrent reports never deadlock on each other.
    const customerIds = [...new Set(accepted.map((p) => p.customerId))].sort();
    const locked = await this.ledger.lockCustomers(trx, apiId, customerIds);
    const days = [...new Set(accepted.map((p) => isoDay(p.item.periodStart)))];
    const entries = await this.ledger.usageEntriesOf(trx, apiId, customerIds, days);
    const verdicts = fitWithinBounds(
      accepted.map((p) => ({ customerId: p.customerId, day: isoDay(p.item.periodStart), count: p.item.count, charge: p.charge })),
      {
        balances: new Map(locked.map((c) => [c.id, BigInt(c.balance)])),
        entries: new Map(entries.map((e) => [`${e.customer_id}|${e.usage_day}`, { amount: BigInt(e.amount), requests: BigInt(e.requests) }])),
      },
    );
    const pastBound = new Map<string, string>();
    const fitting: Priced[] = [];
    accepted.forEach((p, i) => (verdicts[i] ? pastBound.set(p.item.idempotencyKey, verdicts[i]) : fitting.push(p)));
    await q.deleteReceipts(trx, apiId, [...pastBound.keys()]);
    const balances = fitting.length ? await this.#post(trx, apiId, fitting, now) : [];
    return { pastBound, balances };
  }

  /** Ledger, balances, counters and key activity for items that fit; customers are locked. */
  async #post(trx: Trx, apiId: string, items: Priced[], now: Date): Promise<PostedBalance[]> {
    const perCustomerDay = new Map<string, UsagePosting>();
    const perCustomerMonth = new Map<string, q.MonthCount & { chargeBig: bigint; quotaAt: number }>();
    const perCustomerDayCount = new Map<string, q.CustomerDayCount & { chargeBig: bigint }>();
    const perDay = new Map<string, q.DayCount & { chargeBig: bigint }>();
    for (const p of items) {
      const day = isoDay(p.item.periodStart);
      const month = isoDay(monthStart(p.item.periodStart));
      addTo(perCustomerDay, `${p.customerId}|${day}`, () => ({ customerId: p.customerId, day, requests: 0, chargeMicro: 0n }), (v) => {
        v.requests += p.item.count;
        v.chargeMicro += p.charge;
      });
      addTo(perCustomerMonth, `${p.customerId}|${month}`, () => ({ customerId: p.customerId, month, requests: 0, billable: 0, charged: 0, chargeBig: 0n, quota: null, quotaAt: -Infinity }), (v) => {
        v.requests += p.item.count;
        if (p.billable) v.billable += p.item.count;
        v.chargeBig += p.charge;
        // The quota of the newest item's policy: the terms in force when the month's last requests were made.
        if (p.item.periodStart.getTime() >= v.quotaAt) Object.assign(v, { quota: p.quota, quotaAt: p.item.periodStart.getTime() });
      });
      // Errors as the API's days count them (a status of 500 or above), so both pages agree.
      addTo(perCustomerDayCount, `${p.customerId}|${day}`, () => ({ customerId: p.customerId, day, requests: 0, billable: 0, errors: 0, charged: 0, chargeBig: 0n }), (v) => {
        v.requests += p.item.count;
        if (p.billable) v.billable += p.item.count;
        if (p.item.statusCode >= 500) v.errors += p.item.count;
        v.chargeBig += p.charge;
      });
      addTo(perDay, day, () => ({ day, requests: 0, billable: 0, errors: 0, charged: 0, testRequests: 0, chargeBig: 0n }), (v) => {
        v.requests += p.item.count;
        if (p.billable) v.billable += p.item.count;
        if (p.item.statusCode >= 500) v.errors += p.item.count;
        if (!p.isTest) v.chargeBig += p.charge;
        else v.testRequests += p.item.count;
      });
    }
    // Postings stay bigints (fitWithinBounds kept every balance and entry they make within the
    // bound); the counters are statistics and saturate at it (sdk-sync/queries.ts). Two round
    // trips: the money of record (the ledger's), then every counter (this capability's).
    const postings = [...perCustomerDay.values()];
    const balances = await this.ledger.postUsage(trx, apiId, postings, postings.map(() => newId('led')), now);
    const crossings = await q.addUsageCounters(trx, apiId, {
      months: [...perCustomerMonth.values()].map((v) => ({ ...v, charged: saturate(v.chargeBig) })),
      customerDays: [...perCustomerDayCount.values()].map((v) => ({ ...v, charged: saturate(v.chargeBig) })),
      // Day order: the API's day rows are shared by reports of different customers (queries.ts).
      apiDays: [...perDay.values()].sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0)).map((v) => ({ ...v, charged: saturate(v.chargeBig) })),
      keyIds: [...new Set(items.map((p) => p.item.apiKeyId))],
      at: now,
      staleBefore: addMs(now, -MINUTE),
    });
    await raiseQuotaThresholds(trx, apiId, now, crossings);
    return balances;
  }
}
