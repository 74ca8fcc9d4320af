import type { SnapshotBody, WireCustomer, WireSignin } from '@gatehouse/protocol';
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
  /** The id token usage is reported under (full shape), or null. */
  tokenKeyId: string | null;
  /** The customer's local counts (set when the view is placed in the state). */
  local: CustomerLocal | null;
}

/** What this process adds to a customer between snapshots: counts, rate state and credit holds. */
export interface CustomerLocal {
  /** Requests admitted this period, floored by the snapshot's month_requests. */
  monthCount: number;
  gcra: Gcra;
  /** Prices held by requests admitted and not finished. */
  inflightMicro: number;
  /** Charges recorded and not yet acknowledged by Gatehouse. */
  unackedMicro: number;
  /**
   * Charges acknowledged, kept until a snapshot fetched after the acknowledgement shows them: one
   * entry per sync, not per acknowledgement (see `acknowledge`).
   */
  acked: { amount: number; at: number }[];
  /** The sum of `acked`: admission reads it on every request, and the list grows with every delivery between syncs. */
  ackedMicro: number;
}

export function toView(c: WireCustomer): CustomerView {
  return {
    id: c.id,
    status: c.status,
    balance: c.credit_balance_micro,
    balanceSeq: c.balance_seq ?? 0,
    monthRequests: c.month_requests,
    policyId: c.usage_policy_id,
    policyValidUntil: c.policy_valid_until ? Date.parse(c.policy_valid_until) : Number.POSITIVE_INFINITY,
    rps: c.effective.rps,
    price: c.effective.price_per_request_micro,
    quota: c.effective.monthly_quota ?? null,
    billingModel: c.effective.billing_model,
    tokenKeyId: c.token_key_id ?? null,
    local: null,
  };
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
  /** When the fetch of the snapshot held started (its balances include every earlier acknowledgement). */
  fetchStartedAt = 0;
  keys = new Map<string, KeyEntry>();
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
      local = { monthCount: 0, gcra: { tat: 0 }, inflightMicro: 0, unackedMicro: 0, acked: [], ackedMicro: 0 };
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
    this.fetchStartedAt = fetchStartedAt;
    const customers = new Map<string, CustomerView>();
    for (const c of body.customers) {
      const view = toView(c);
      customers.set(c.id, view);
      const local = this.localOf(c.id);
      view.local = local;
      local.monthCount = newPeriod ? view.monthRequests : Math.max(local.monthCount, view.monthRequests);
      if (local.acked.length > 0) {
        local.acked = local.acked.filter((a) => a.at >= fetchStartedAt);
        local.ackedMicro = local.acked.reduce((sum, a) => sum + a.amount, 0);
      }
    }
    this.customers = customers;
    const keys = new Map<string, KeyEntry>();
    for (const k of body.keys) {
      const customer = customers.get(k.customer_id);
      keys.set(k.key_hash, { keyId: k.id, customerId: k.customer_id, customer, local: customer?.local ?? this.localOf(k.customer_id), metered: null, meteredFrom: null, bucket: undefined, generation: 0 });
    }
    this.keys = keys;
    // Entries of their own, not shared with keys: the recorder keeps a bucket hint per entry, and
    // token usage goes to buckets of the customer's token_key_id.
    const tokenKeys = new Map<string, KeyEntry>();
    const persons = new Map<string, KeyEntry>();
    for (const m of body.members ?? []) {
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
    this.signin = body.signin ?? null;
    return true;
  }

  /** Gatehouse has a charge of the customer's: held until a snapshot fetched after `at` shows it. */
  acknowledge(customerId: string, amount: number, at: number): void {
    const local = this.localOf(customerId);
    // Acknowledgements between two fetch starts share their fate: a snapshot whose fetch started
    // after the later one shows them all. Merged under the latest time, so the entry is kept as
    // long as any of them must be, and the list grows by one per sync, not one per delivery.
    const last = local.acked[local.acked.length - 1];
    if (last && last.at >= this.lastFetchStart) {
      last.amount += amount;
      last.at = Math.max(last.at, at);
    } else local.acked.push({ amount, at });
    local.ackedMicro += amount;
  }

  /** Credit a customer can still spend: balance less every hold and unsettled charge. */
  available(customer: CustomerView, local: CustomerLocal): number {
    return customer.balance - local.inflightMicro - local.unackedMicro - local.ackedMicro;
  }
}
