import type { ChangesBody, SnapshotBody, WireBalance, WireCustomer, WireKey, WireMember, WireSignin } from '@gatehouse/protocol';
import type { MeteredCustomer } from './decision.js';
import type { Gcra } from './rate-limiter.js';
import type { BucketHint } from './usage/recorder.js';

/**
 * A key of the snapshot (or found by a lookup), by its hash. It is also the recorder's hint of
 * the bucket the key's last request went to (BucketHint).
 */
export interface KeyEntry extends BucketHint {
  keyId: string;
  customerId: string;
  /**
   * The key's customer in the snapshot this entry belongs to, and the customer's local counts:
   * admission reads them from here, not through two more map lookups per request. Entries are
   * made anew with every snapshot, so the view can never be older than the entry.
   */
  customer: CustomerView | undefined;
  local: CustomerLocal;
  /** What handlers see, made once per key and customer view (see Meter), and the view it was made from. */
  metered: MeteredCustomer | null;
  meteredFrom: CustomerView | null;
}

export interface CustomerView {
  id: string;
  status: WireCustomer['status'];
  balance: number;
  balanceSeq: number;
  monthRequests: number;
  policyId: string | null;
  policyValidUntil: number;
  rps: number;
  price: number;
  quota: number | null;
  billingModel: string;
  /**
   * The id token usage is reported under (full shape), or null; read only to make the persons'
   * entries when a snapshot is applied, then dropped (null).
   */
  tokenKeyId: string | null;
  /** The customer's local counts (set when the view is placed in the state). */
  local: CustomerLocal | null;
  /**
   * Replaced by a newer view (a followed change) or removed: key entries still pointing here look
   * the customer up again. Views are never changed in place, so a request admitted under one
   * finishes under the terms it was admitted with.
   */
  stale: boolean;
}

/**
 * What this process adds to a customer between snapshots: counts, rate state (it is its own Gcra:
 * `tat`, so no second object per customer) and credit holds.
 */
export interface CustomerLocal extends Gcra {
  /** Requests admitted this period, floored by the snapshot's month_requests. */
  monthCount: number;
  /** Prices held by requests admitted and not finished. */
  inflightMicro: number;
  /** Charges recorded and not yet acknowledged by Gatehouse. */
  unackedMicro: number;
  /**
   * Charges acknowledged, kept until a snapshot fetched after the acknowledgement shows them: one
   * entry per sync, not per acknowledgement (see `acknowledge`). null while there are none: most
   * customers never hold one, and an empty array each is 16 bytes times a million.
   */
  acked: AckedCharge[] | null;
  /** The sum of `acked`: admission reads it on every request, and the list grows with every delivery between syncs. */
  ackedMicro: number;
}

/**
 * Charges Gatehouse acknowledged, held until the state shows them in the balance: with `seq` (the
 * customer's balance_seq the acknowledgement answered) once the state has seen that balance_seq or
 * a later one; without it (a server that does not answer balances) once a snapshot or changes
 * answer whose fetch started after `at` is applied.
 */
export interface AckedCharge {
  amount: number;
  at: number;
  seq: number | undefined;
}

/**
 * The same string object for every customer's status and billing model: JSON.parse makes a new
 * string for each value it reads, and a view keeps what it is given.
 */
const STATUSES: Record<string, WireCustomer['status']> = { active: 'active', suspended: 'suspended', pending: 'pending' };
const MODELS: Record<string, string> = { payg: 'payg', subscription: 'subscription', none: 'none' };

export function toView(c: WireCustomer): CustomerView {
  return {
    id: c.id,
    status: STATUSES[c.status] ?? c.status,
    balance: c.credit_balance_micro,
    balanceSeq: c.balance_seq ?? 0,
    monthRequests: c.month_requests,
    policyId: c.usage_policy_id,
    policyValidUntil: c.policy_valid_until ? Date.parse(c.policy_valid_until) : Number.POSITIVE_INFINITY,
    rps: c.effective.rps,
    price: c.effective.price_per_request_micro,
    quota: c.effective.monthly_quota ?? null,
    billingModel: MODELS[c.effective.billing_model] ?? c.effective.billing_model,
    tokenKeyId: c.token_key_id ?? null,
    local: null,
    stale: false,
  };
}

/** A snapshot's top fields: everything but its arrays. */
export type SnapshotHead = Omit<SnapshotBody, 'customers' | 'keys' | 'members'>;

/** Stands for a prepared key entry's counts until it is placed in the state (applyPrepared gives it the customer's own). */
const NO_LOCAL = { tat: 0, monthCount: 0, inflightMicro: 0, unackedMicro: 0, acked: null, ackedMicro: 0 } as CustomerLocal;

/**
 * A snapshot turned into the state's own records as it was read (see snapshot-reader.ts): the
 * wire records are dropped one by one, so at no time does a process hold the snapshot's text or
 * its parsed tree beside the state it becomes.
 */
export class PreparedSnapshot {
  readonly customers = new Map<string, CustomerView>();
  readonly keys = new Map<string, KeyEntry>();
  readonly members: WireMember[] = [];
  head: SnapshotHead | null = null;

  customer(c: WireCustomer): void {
    this.customers.set(c.id, toView(c));
  }

  key(k: WireKey): void {
    // The customer's own id string when the customer came first (as Gatehouse writes them), not a
    // copy per key.
    const customerId = this.customers.get(k.customer_id)?.id ?? k.customer_id;
    this.keys.set(k.key_hash, { keyId: k.id, customerId, customer: undefined, local: NO_LOCAL, metered: null, meteredFrom: null, bucket: undefined, generation: 0 });
  }

  member(m: WireMember): void {
    this.members.push({ person_id: m.person_id, customer_id: this.customers.get(m.customer_id)?.id ?? m.customer_id });
  }

  /** A body already parsed whole (tests, and callers holding one). */
  static of(body: SnapshotBody): PreparedSnapshot {
    const prepared = new PreparedSnapshot();
    const { customers, keys, members, ...head } = body;
    for (const c of customers) prepared.customer(c);
    for (const k of keys) prepared.key(k);
    for (const m of members ?? []) prepared.member(m);
    prepared.head = head;
    return prepared;
  }
}

/** What applying a changes answer found: `resnapshot` when only a snapshot can bring the state up to date. */
export type ChangesOutcome = 'applied' | 'resnapshot';

/** A cursor as Gatehouse hands them out: decimal digits, below 2^53. */
export const CURSOR = /^(0|[1-9][0-9]{0,14})$/;

/** A view's balance gives way only to a newer balance_seq: a balance never goes back. */
function keepNewerBalance(view: CustomerView, old: CustomerView): void {
  if (old.balanceSeq > view.balanceSeq) {
    view.balance = old.balance;
    view.balanceSeq = old.balanceSeq;
  }
}

/**
 * The meter's picture of the world: the newest snapshot, plus local counts that survive snapshot
 * replacement. Counts restart when the period (platform_period_end) changes.
 */
export class MeterState {
  generatedAt = 0;
  /** When Gatehouse last confirmed the snapshot is current (a 200 or a 304). */
  confirmedAt = 0;
  periodEnd = 0;
  /** Billable statuses, indexed by status (1 = billable): one array read per request, not a set lookup. */
  billable = new Uint8Array(600);
  platform = { limit: 0, hardCap: false, count: 0, floor: 0 };
  tenantId = '';
  tenantStatus: SnapshotBody['tenant_status'] = 'active';
  /** When the fetch of the snapshot held started (its balances include every earlier acknowledgement). */
  fetchStartedAt = 0;
  keys = new Map<string, KeyEntry>();
  /**
   * Replaced whenever a key may have left \`keys\` or changed customer (a snapshot, a followed
   * removal): the meter's cache of keys by their raw value is kept only while it is the same object.
   */
  keysToken: object = {};
  /** Where following changes resumes (the snapshot's sync_cursor, then each answer's cursor); null when the server gives none. */
  cursor: string | null = null;
  /**
   * Keys a followed answer removed, and customers it removed, whose entries are still in \`keys\`
   * (and \`persons\`): admission refuses a key named here (one size check per request while there
   * are none), and \`sweepRemoved\` takes the entries out in slices after the answer is applied.
   * Why not at once: removals name keys by id and the map is by hash, so taking them out is a pass
   * over every key (2 million at a million customers, seconds on a loaded machine), which held up
   * the decision the removal was for (bench/sync-scale: the SDK's part of a revocation's
   * propagation). An index by id would cost a second map entry per key instead.
   */
  removedKeyIds = new Set<string>();
  removedCustomerIds = new Set<string>();
  #sweep: { keys: Map<string, KeyEntry>; entries: Iterator<[string, KeyEntry]>; keyIds: Set<string>; customerIds: Set<string> } | null = null;
  /** Customers holding acknowledged charges (their local \`acked\` is not empty). */
  readonly holding = new Set<string>();
  /** When the newest snapshot fetch started: acknowledgements before it may be in its balances. */
  lastFetchStart = 0;
  customers = new Map<string, CustomerView>();
  /**
   * People of the sign-in service by person id (a token's `sub`), each as the entry of the
   * customer their calls are metered to, under the customer's token_key_id (full shape).
   */
  persons = new Map<string, KeyEntry>();
  /** The API's issuer and resource servers (full shape); null before the first snapshot. */
  signin: WireSignin | null = null;
  readonly local = new Map<string, CustomerLocal>();

  get loaded(): boolean {
    return this.generatedAt > 0;
  }

  localOf(customerId: string): CustomerLocal {
    let local = this.local.get(customerId);
    if (!local) {
      local = { tat: 0, monthCount: 0, inflightMicro: 0, unackedMicro: 0, acked: null, ackedMicro: 0 };
      this.local.set(customerId, local);
    }
    return local;
  }

  /**
   * Applies a snapshot unless it is not newer than the one held (wire protocol: monotonic).
   * `fetchStartedAt` settles acknowledged charges: a snapshot fetched after an acknowledgement
   * already has that debit in its balance.
   */
  apply(body: SnapshotBody, fetchStartedAt: number, now: number): boolean {
    return this.applyPrepared(PreparedSnapshot.of(body), fetchStartedAt, now);
  }

  /** `apply` for a snapshot already turned into records as it was read (the SDK's own path). */
  applyPrepared(prepared: PreparedSnapshot, fetchStartedAt: number, now: number): boolean {
    const body = prepared.head!;
    const generatedAt = Date.parse(body.generated_at);
    if (!(generatedAt > this.generatedAt)) return false;
    const periodEnd = Date.parse(body.platform_period_end);
    const newPeriod = periodEnd !== this.periodEnd;
    this.generatedAt = generatedAt;
    this.confirmedAt = now;
    this.periodEnd = periodEnd;
    const billable = new Uint8Array(600);
    for (const code of body.billable_status_codes) billable[code] = 1;
    this.billable = billable;
    this.platform = {
      limit: body.platform_monthly_limit,
      hardCap: body.platform_hard_cap,
      count: newPeriod ? body.platform_monthly_used : Math.max(this.platform.count, body.platform_monthly_used),
      floor: body.platform_monthly_used,
    };
    this.tenantId = body.tenant_id;
    this.tenantStatus = body.tenant_status ?? 'active';
    this.fetchStartedAt = fetchStartedAt;
    const customers = prepared.customers;
    const previous = this.customers;
    for (const view of customers.values()) {
      const old = previous.get(view.id);
      if (old) {
        old.stale = true;
        keepNewerBalance(view, old);
      }
      const local = this.localOf(view.id);
      view.local = local;
      local.monthCount = newPeriod ? view.monthRequests : Math.max(local.monthCount, view.monthRequests);
    }
    for (const old of previous.values()) old.stale = true;
    this.customers = customers;
    this.#releaseAcked(fetchStartedAt);
    this.cursor = typeof body.sync_cursor === 'string' && CURSOR.test(body.sync_cursor) ? body.sync_cursor : null;
    this.keysToken = {};
    const keys = prepared.keys;
    for (const entry of keys.values()) {
      const customer = customers.get(entry.customerId);
      entry.customer = customer;
      entry.local = customer?.local ?? this.localOf(entry.customerId);
    }
    this.keys = keys;
    // The snapshot is newer than every followed removal: none of them is in it.
    this.removedKeyIds = new Set();
    this.removedCustomerIds = new Set();
    this.#sweep = null;
    // Entries of their own, not shared with keys: the recorder keeps a bucket hint per entry, and
    // token usage goes to buckets of the customer's token_key_id.
    const tokenKeys = new Map<string, KeyEntry>();
    const persons = new Map<string, KeyEntry>();
    for (const m of prepared.members) {
      const customer = customers.get(m.customer_id);
      const keyId = customer?.tokenKeyId;
      if (!customer || !keyId) continue;
      let entry = tokenKeys.get(m.customer_id);
      if (!entry) {
        entry = { keyId, customerId: m.customer_id, customer, local: customer.local!, metered: null, meteredFrom: null, bucket: undefined, generation: 0 };
        tokenKeys.set(m.customer_id, entry);
      }
      persons.set(m.person_id, entry);
    }
    this.persons = persons;
    // Only the persons' entries need the token key ids (they hold them now): not kept in a view
    // each, 48 bytes per customer, a million times.
    for (const view of customers.values()) view.tokenKeyId = null;
    this.signin = body.signin ?? null;
    return true;
  }

  /**
   * Gatehouse has a charge of the customer's: held until the state shows it in the balance. With
   * `seq` (the balance_seq the acknowledgement answered for the customer) that is as soon as the
   * state has seen that balance_seq or a later one, which may be now; without it, once a snapshot
   * or changes answer fetched after `at` is applied (docs/decisions.md, "SDK following changes").
   */
  acknowledge(customerId: string, amount: number, at: number, seq?: number): void {
    if (seq !== undefined && (this.customers.get(customerId)?.balanceSeq ?? -1) >= seq) return;
    const local = this.localOf(customerId);
    // Acknowledgements between two fetch starts share their fate: a snapshot whose fetch started
    // after the later one shows them all. Merged under the latest time (and the highest seq), so
    // the entry is kept as long as any of them must be, and the list grows by one per sync, not
    // one per delivery.
    const acked = (local.acked ??= []);
    const last = acked[acked.length - 1];
    if (last && last.at >= this.lastFetchStart && (last.seq === undefined) === (seq === undefined)) {
      last.amount += amount;
      last.at = Math.max(last.at, at);
      if (seq !== undefined) last.seq = Math.max(last.seq!, seq);
    } else acked.push({ amount, at, seq });
    local.ackedMicro += amount;
    this.holding.add(customerId);
  }

  /**
   * Releases acknowledged charges the state now shows: those with a balance_seq at or below the
   * customer's, and those without one acknowledged before \`fetchStartedAt\` (null: none of those).
   */
  #releaseAcked(fetchStartedAt: number | null, only?: Iterable<string>): void {
    for (const id of only ?? [...this.holding]) {
      const local = this.local.get(id);
      if (!local || local.acked === null || local.acked.length === 0) {
        if (local) local.acked = null;
        this.holding.delete(id);
        continue;
      }
      const seen = this.customers.get(id)?.balanceSeq ?? -1;
      const kept = local.acked.filter((a) => (a.seq === undefined ? fetchStartedAt === null || a.at >= fetchStartedAt : a.seq > seen));
      if (kept.length === local.acked.length) continue;
      local.acked = kept.length === 0 ? null : kept;
      local.ackedMicro = kept.reduce((sum, a) => sum + a.amount, 0);
      if (kept.length === 0) this.holding.delete(id);
    }
  }

  /**
   * A customer's balance as Gatehouse answered it (a followed change, or a usage acknowledgement):
   * taken only when its balance_seq is newer than the one held, so a balance never goes back.
   */
  applyBalance(b: WireBalance): void {
    const old = this.customers.get(b.id);
    if (!old || !(b.balance_seq > old.balanceSeq)) return;
    const view: CustomerView = { ...old, balance: b.credit_balance_micro, balanceSeq: b.balance_seq, stale: false };
    old.stale = true;
    this.customers.set(b.id, view);
    if (this.holding.has(b.id)) this.#releaseAcked(null, [b.id]);
  }

  /**
   * Applies what changed after \`this.cursor\` (GET /sdk/v1/changes), fetched from \`fetchStartedAt\`:
   * the answer shows every change committed before that, so it settles acknowledgements before it
   * as a snapshot does. A new period needs every customer's month_requests: only a snapshot has them.
   */
  applyChanges(body: ChangesBody, fetchStartedAt: number): ChangesOutcome {
    // A suspended API shows every customer suspended, and the change of status moves no customer.
    if (Date.parse(body.platform_period_end) !== this.periodEnd || (body.tenant_status ?? 'active') !== this.tenantStatus) return 'resnapshot';
    this.confirmedAt = Math.max(this.confirmedAt, fetchStartedAt);
    const billable = new Uint8Array(600);
    for (const code of body.billable_status_codes) billable[code] = 1;
    this.billable = billable;
    const platform = this.platform;
    this.platform = { limit: body.platform_monthly_limit, hardCap: body.platform_hard_cap, count: Math.max(platform.count, body.platform_monthly_used), floor: body.platform_monthly_used };
    const customers = this.customers;
    for (const c of body.customers) {
      const view = toView(c);
      const old = customers.get(c.id);
      if (old) {
        old.stale = true;
        keepNewerBalance(view, old);
      }
      const local = this.localOf(c.id);
      view.local = local;
      local.monthCount = Math.max(local.monthCount, view.monthRequests);
      customers.set(c.id, view);
    }
    for (const b of body.balances) this.applyBalance(b);
    for (const id of body.removed_customers) {
      const old = customers.get(id);
      if (old) old.stale = true;
      customers.delete(id);
      // Its keys' entries find no customer from now on (admission looks a stale view up again).
      this.removedCustomerIds.add(id);
    }
    const keys = this.keys;
    let keysMoved = false;
    for (const k of body.keys) {
      this.removedKeyIds.delete(k.id);
      const existing = keys.get(k.key_hash);
      if (existing && existing.keyId === k.id && existing.customerId === k.customer_id) continue;
      if (existing) keysMoved = true;
      const customer = customers.get(k.customer_id);
      keys.set(k.key_hash, { keyId: k.id, customerId: customer?.id ?? k.customer_id, customer, local: customer?.local ?? this.localOf(k.customer_id), metered: null, meteredFrom: null, bucket: undefined, generation: 0 });
    }
    for (const c of body.customers) this.removedCustomerIds.delete(c.id);
    for (const id of body.removed_keys) this.removedKeyIds.add(id);
    if (body.removed_keys.length > 0 || body.removed_customers.length > 0) keysMoved = true;
    if (keysMoved) this.keysToken = {};
    this.#releaseAcked(fetchStartedAt);
    this.cursor = body.cursor;
    return 'applied';
  }

  /** Whether removed keys or customers still have entries to take out (`sweepRemoved`). */
  get sweepPending(): boolean {
    return this.removedKeyIds.size + this.removedCustomerIds.size > 0;
  }

  /**
   * Takes out of \`keys\` (and \`persons\`) the entries of removed keys and customers, visiting at
   * most \`budget\` entries; true while there is more to do. A pass covers the removals known when it
   * started; those that came during it are left for the next pass.
   */
  sweepRemoved(budget = 50_000): boolean {
    if (this.#sweep === null || this.#sweep.keys !== this.keys) {
      if (!this.sweepPending) return false;
      this.#sweep = { keys: this.keys, entries: this.keys.entries(), keyIds: new Set(this.removedKeyIds), customerIds: new Set(this.removedCustomerIds) };
    }
    const sweep = this.#sweep;
    for (let n = 0; n < budget; n++) {
      const next = sweep.entries.next();
      if (next.done) {
        for (const [person, entry] of this.persons) if (sweep.customerIds.has(entry.customerId)) this.persons.delete(person);
        for (const id of sweep.keyIds) this.removedKeyIds.delete(id);
        for (const id of sweep.customerIds) if (!this.customers.has(id)) this.removedCustomerIds.delete(id);
        this.#sweep = null;
        // The meter's cache of keys by raw value may hold an entry just taken out, which admission
        // refused by removedKeyIds until now.
        this.keysToken = {};
        return this.sweepPending;
      }
      const [hash, entry] = next.value;
      if (sweep.keyIds.has(entry.keyId) || sweep.customerIds.has(entry.customerId)) sweep.keys.delete(hash);
    }
    return true;
  }

  /** Credit a customer can still spend: balance less every hold and unsettled charge. */
  available(customer: CustomerView, local: CustomerLocal): number {
    return customer.balance - local.inflightMicro - local.unackedMicro - local.ackedMicro;
  }
}
