import { isWellFormedApiKey } from '@gatehouse/protocol';
import { AuthorizationError, ControlClient } from './control-client.js';
import { ChangeFollower } from './follower.js';
import { deny, type Admission, type Decision, type Denied, type DenialReason, type MeteredCustomer } from './decision.js';
import { keyHash } from './key-hash.js';
import { KeyLookups } from './key-lookups.js';
import { prometheusText, type MeterMetrics } from './metrics.js';
import { resolveOptions, type MeterOptions, type ResolvedOptions } from './options.js';
import { gcraCheck } from './rate-limiter.js';
import { SharedLimits } from './redis-limits.js';
import { MeterState, toView, type CustomerLocal, type CustomerView, type KeyEntry } from './state.js';
import { DeadLetters, replayDeadLetters } from './usage/dead-letters.js';
import { Journal } from './usage/journal.js';
import { Recorder, type Bucket } from './usage/recorder.js';
import { RedisUsageQueue } from './usage/redis-queue.js';
import { Reporter } from './usage/reporter.js';
import { MemoryStore, type UsageStore } from './usage/store.js';

export interface AdmitInput {
  /** The API key the customer sent (the value of the key header), if any. */
  key: string | null | undefined;
  /** The client's address, for logs and abuse guards. */
  clientAddress?: string;
  /**
   * The request's `Authorization` header, if any: a key sent there as a Bearer token (where many
   * APIs take keys) is not read, but the 401 then says which header to send it in.
   */
  authorization?: string | null | undefined;
}

const secondsUntil = (ms: number) => String(Math.max(1, Math.ceil(ms / 1000)));
const RETRY_5: Record<string, string> = { 'retry-after': '5' };
const NO_SETTLEMENT = () => undefined;
/** A key of spec 4.4 starts with its prefix and an underscore; only those carry a checksum. */
const PREFIXED_KEY = /^[a-z][a-z0-9]{1,9}_/;
/** How many keys found in the snapshot are remembered by their raw value (see `#seen`). */
const SEEN_KEYS_MAX = 10_000;

/**
 * Meters an API: decides every request locally from a snapshot of customers and keys, and reports
 * usage so Gatehouse's balances stay exact. Build one per process with `createMeter`.
 */
export class Meter {
  readonly options: ResolvedOptions;
  readonly state = new MeterState();
  readonly #client: ControlClient;
  readonly #store: UsageStore;
  readonly #recorder: Recorder;
  readonly #reporter: Reporter;
  readonly #deadLetters: DeadLetters;
  readonly #lookups: KeyLookups;
  /** Denials by reason (admissions in #admittedCount). */
  readonly #admissions: Record<string, number> = {};
  #admittedCount = 0;
  /**
   * Keys already found in the snapshot, by the raw key the customer sent: a repeat skips the
   * SHA-256. Only keys in `#seenFor` (the snapshot's keys map) are held, and the whole cache is
   * dropped as soon as that map is replaced, so a key revoked by a new snapshot is never admitted
   * from here. Bounded; unknown keys are never held. See docs/decisions.md (The SDK).
   */
  readonly #seen = new Map<string, KeyEntry>();
  #seenFor: object | null = null;
  /** Follows changes between snapshots (null with `followChanges: false`). */
  readonly #follower: ChangeFollower | null;
  #sweeping = false;
  /** When the last snapshot fetch that Gatehouse answered (200 or 304) started. */
  #lastSnapshotAt = -Infinity;
  /** People a fresh snapshot did not know, until when they are refused without fetching it again. */
  readonly #unknownPersons = new Map<string, number>();
  #syncing: Promise<void> | null = null;
  #etag: string | null = null;
  #authorizationInvalid = false;
  #timers: NodeJS.Timeout[] = [];
  #deliveringSoon = false;
  #sharedLimits: SharedLimits | null = null;
  #closed = false;
  /** Resolves once the journal is recovered and a first snapshot was tried (never rejects). */
  readonly #started: Promise<void>;
  /** The refusal of the secret by the first snapshot fetch, which `ready` rejects with. */
  #refusedAtStart: AuthorizationError | null = null;
  /**
   * Resolves once the journal is recovered and a first snapshot was tried; rejects when Gatehouse
   * refused the secret, so `await meter.ready` before listening stops a server started with a
   * wrong or revoked secret, with the reason. Other start-up errors (Gatehouse unreachable) go to
   * `onError`: the meter keeps trying.
   */
  readonly ready: Promise<void>;

  constructor(options: MeterOptions) {
    const resolved = resolveOptions(options);
    this.options = { ...resolved, onError: onceAMinuteForRefusals(resolved.onError, resolved.now) };
    const onError = this.options.onError;
    this.#client = new ControlClient(this.options);
    this.#recorder = new Recorder(() => this.#store.schedule());
    this.#store = this.#makeStore();
    this.#deadLetters = new DeadLetters(this.options.journalDir);
    this.#lookups = new KeyLookups(this.#client, { ...this.options, onAuthorizationInvalid: () => (this.#authorizationInvalid = true) });
    this.#reporter = new Reporter(this.#client, this.#recorder, this.#store, this.#deadLetters, {
      onAcknowledged: (bucket, balance) => {
        void this.#shared?.acknowledge(bucket.customerId, bucket.key, bucket.chargeMicro, this.options.now()).catch(this.options.onError);
        const local = this.state.localOf(bucket.customerId);
        local.unackedMicro -= bucket.chargeMicro;
        // The balance the acknowledgement reported shows this charge: taken into the state (if
        // newer than what it holds), the charge is then held no longer.
        if (balance) this.state.applyBalance(balance);
        if (bucket.chargeMicro) this.state.acknowledge(bucket.customerId, bucket.chargeMicro, this.options.now(), balance?.balance_seq);
      },
      onRejected: (bucket) => {
        void this.#shared?.releaseCommitted(bucket.customerId, bucket.chargeMicro).catch(this.options.onError);
        this.state.localOf(bucket.customerId).unackedMicro -= bucket.chargeMicro;
      },
      onAuthorizationInvalid: () => (this.#authorizationInvalid = true),
      now: this.options.now,
    });
    this.#follower = this.options.followChanges
      ? new ChangeFollower(this.#client, this.state, {
          snapshot: () => this.sync(),
          snapshotInFlight: () => this.#syncing,
          onError,
          onAuthorizationInvalid: () => (this.#authorizationInvalid = true),
          onApplied: (body) => {
            this.options.onChanges?.(body.cursor);
            this.#sweepRemoved();
          },
          now: this.options.now,
        })
      : null;
    this.#started = this.#start().catch(onError);
    this.ready = this.#started.then(() => {
      if (this.#refusedAtStart) throw this.#refusedAtStart;
    });
    // Reported through onError already: a caller who never awaits `ready` gets no unhandled rejection.
    this.ready.catch(() => undefined);
  }

  /** Where usage is made durable before delivery: Redis, the journal file, or nowhere. */
  #makeStore(): UsageStore {
    const { redis, journalDir, onError } = this.options;
    if (redis) {
      return new RedisUsageQueue(redis, this.#recorder, {
        tenantId: () => this.state.tenantId,
        leaseMs: this.options.usageLeaseMs,
        onError,
        onAdopted: (buckets) => {
          this.#recorder.adopt(buckets);
          this.#hold(buckets, 1);
          this.#deliverSoon();
        },
        // Released here, held again by the adopter: it delivers and acknowledges those buckets.
        onHandedOver: () => this.#hold(this.#recorder.handOver(), -1),
        holdMoves: () => this.#sharedLimits?.takeMoves() ?? null,
      }, this.options.commitIntervalMs);
    }
    return journalDir ? new Journal(journalDir, this.#recorder, onError, this.options.commitIntervalMs, this.options.fsyncIntervalMs) : new MemoryStore(this.#recorder);
  }

  /** Credit held locally by recorded usage not yet acknowledged, per customer. */
  #hold(buckets: Bucket[], sign: 1 | -1) {
    for (const bucket of buckets) this.state.localOf(bucket.customerId).unackedMicro += sign * bucket.chargeMicro;
  }

  async #start(): Promise<void> {
    // Usage a previous process journaled and never delivered: held again, and sent first.
    this.#hold(await this.#store.open(), 1);
    await this.sync().catch((error: Error) => {
      if (error instanceof AuthorizationError) this.#refusedAtStart = error;
      this.options.onError(error);
    });
    if (this.#store instanceof RedisUsageQueue) {
      const queue = this.#store;
      await queue.adoptOrphans().catch((error: Error) => this.options.onError(error));
    }
    if (this.#closed) return;
    this.#follower?.start();
    this.#timers.push(setInterval(() => void this.#periodicSync().catch((e: Error) => this.options.onError(e)), this.options.syncIntervalMs));
    this.#timers.push(setInterval(() => void this.flush().catch((e: Error) => this.options.onError(e)), this.options.reportIntervalMs));
    for (const timer of this.#timers) timer.unref();
    if (this.#recorder.pendingRequests > 0) void this.flush().catch((e: Error) => this.options.onError(e));
  }

  /**
   * The snapshot every \`syncIntervalMs\`; while changes are followed, only every
   * \`followingSyncIntervalMs\` (a safety net: members, servers and month floors come only with it).
   */
  async #periodicSync(): Promise<void> {
    if (this.#follower?.healthy && !this.#authorizationInvalid && this.options.now() - this.#lastSnapshotAt < this.options.followingSyncIntervalMs) return;
    await this.sync();
  }

  /**
   * Takes removed keys' entries out of the state in slices, one per turn of the event loop, after
   * the answer that removed them is applied (MeterState.sweepRemoved): a pass over millions of
   * keys neither delays that answer's decisions nor holds up requests for its whole length.
   */
  #sweepRemoved(): void {
    if (this.#sweeping || !this.state.sweepPending) return;
    this.#sweeping = true;
    const step = () => {
      if (this.state.sweepRemoved()) setImmediate(step).unref();
      else this.#sweeping = false;
    };
    setImmediate(step).unref();
  }

  /** Fetches the snapshot now (single flight). A 401/403 marks the secret invalid until a fetch succeeds. */
  sync(): Promise<void> {
    this.#syncing ??= (async () => {
      const startedAt = this.options.now();
      this.state.lastFetchStart = startedAt;
      try {
        const fetched = await this.#client.snapshot(this.state.loaded ? this.#etag : null);
        this.#authorizationInvalid = false;
        this.#lastSnapshotAt = startedAt;
        if (!fetched) {
          this.state.confirmedAt = startedAt; // 304: what we hold is current as of the request
          return;
        }
        if (this.state.applyPrepared(fetched.body, startedAt, this.options.now())) {
          this.state.confirmedAt = Date.parse(fetched.body.head!.generated_at);
          this.#etag = fetched.etag;
        }
      } catch (error) {
        if (error instanceof AuthorizationError) this.#authorizationInvalid = true;
        throw error;
      }
    })().finally(() => (this.#syncing = null));
    return this.#syncing;
  }

  #decide(outcome: Decision['outcome'], status: number, customerId: string | null) {
    this.#admissions[outcome] = (this.#admissions[outcome] ?? 0) + 1;
    this.options.onDecision?.({ outcome, status, customerId, at: this.options.now() });
  }

  /** #decide for an admission: a field of its own, since every admitted request counts here. */
  #admit(customerId: string) {
    this.#admittedCount++;
    this.options.onDecision?.({ outcome: 'admitted', status: 200, customerId, at: this.options.now() });
  }

  #deny(status: Denied['status'], reason: DenialReason, customerId: string | null, headers?: Record<string, string>): Denied {
    this.#decide(reason, status, customerId);
    return deny(status, reason, headers);
  }

  /** 401 missing_key, naming the header the key goes in, and saying so when it came as a Bearer token. */
  #missingKey(authorization: string | null | undefined): Denied {
    const header = this.options.keyHeader;
    const denied = this.#deny(401, 'missing_key', null);
    const asBearer = header !== 'authorization' && /^bearer\s+\S/i.test(authorization ?? '');
    const message = asBearer
      ? `An API key is required in the ${header} header. This request sent a Bearer token in Authorization, which this API does not read keys from: send the key as "${header}: <key>".`
      : `An API key is required in the ${header} header.`;
    return { ...denied, body: { ...denied.body, message } };
  }

  /**
   * Decides one request: 401 unknown key, 503 data too old or unavailable, 403 suspended or pending,
   * 429 rate, quota or platform limit, 402 out of credit; otherwise admits it and reserves its
   * share of every limit. Call `finish(status)` on the answer.
   */
  async admit(input: AdmitInput): Promise<Admission> {
    return this.admitNow(input);
  }

  /**
   * The decision of `admit()`, returned as it is when it needs no waiting (a key in the snapshot,
   * limits in this process) and as a promise when it does. The adapters use it: awaiting a
   * decision that is already there costs a turn of the event loop's microtask queue per request.
   */
  admitNow(input: AdmitInput): Admission | Promise<Admission> {
    const key = input.key;
    if (!key) return this.#missingKey(input.authorization);
    if (!this.state.loaded) return this.#admitOnceLoaded(key);
    const keys = this.state.keys;
    if (this.#seenFor !== this.state.keysToken) {
      // A new snapshot (or the first), or a followed removal: what was remembered may have been revoked since.
      this.#seen.clear();
      this.#seenFor = this.state.keysToken;
    }
    let entry = this.#seen.get(key);
    let hash = '';
    if (entry === undefined) {
      hash = keyHash(key);
      entry = keys.get(hash);
      if (entry !== undefined) this.#remember(key, entry);
    }
    // A key a followed answer removed, still in the map until the sweep takes it out.
    if (entry !== undefined && this.state.removedKeyIds.size !== 0 && this.state.removedKeyIds.has(entry.keyId)) return this.#deny(401, 'invalid_key', null);
    // Keys of spec 4.4 carry a checksum: a mistyped key is refused without asking anyone. Keys in
    // the snapshot are Gatehouse's own, so only the others need the check.
    if (entry === undefined && PREFIXED_KEY.test(key) && !isWellFormedApiKey(key)) return this.#deny(401, 'invalid_key', null);
    const now = this.options.now();
    const unfit = this.#snapshotUnfit(now);
    if (unfit) return unfit;
    if (entry !== undefined) return this.#admitKey(entry, now);
    if (this.#lookups.knownUnknown(hash, now)) return this.#deny(401, 'invalid_key', null);
    return this.#admitUnknown(hash, now);
  }

  /** 503 while the secret is refused or the snapshot is too old to decide from; null when it is fit. */
  #snapshotUnfit(now: number): Denied | null {
    if (this.#authorizationInvalid) return this.#deny(503, 'unavailable', null, RETRY_5);
    const age = now - this.state.confirmedAt;
    if (age > this.options.maxStaleMs || (age > this.options.staleAfterMs && !this.options.failOpen)) {
      return this.#deny(503, 'stale_snapshot', null, RETRY_5);
    }
    return null;
  }

  /**
   * Decides a request made with an access token the caller has verified (`protectResource` does):
   * `sub` names a person of the API's sign-in service, who is metered as the customer they
   * belong to (snapshot `members`), with that customer's limits, credit and status. A person
   * missing from the snapshot may have signed up since it was fetched: it is fetched again, at
   * most once per `negativeCacheTtlMs` for each person, before the answer is 403 `no_customer`.
   */
  admitPerson(personId: string): Admission | Promise<Admission> {
    if (!this.state.loaded) return this.#admitPersonOnceLoaded(personId);
    const now = this.options.now();
    const unfit = this.#snapshotUnfit(now);
    if (unfit) return unfit;
    const entry = this.state.persons.get(personId);
    if (entry !== undefined) return this.#admitKey(entry, now);
    return this.#admitUnknownPerson(personId, now);
  }

  async #admitPersonOnceLoaded(personId: string): Promise<Admission> {
    await this.#started;
    if (!this.state.loaded) await this.sync().catch(() => undefined);
    if (!this.state.loaded) return this.#deny(503, 'unavailable', null, RETRY_5);
    return this.admitPerson(personId);
  }

  async #admitUnknownPerson(personId: string, now: number): Promise<Admission> {
    const until = this.#unknownPersons.get(personId);
    if (until === undefined || until <= now) {
      this.#unknownPersons.delete(personId);
      try {
        await this.sync();
      } catch (error) {
        // Nothing is remembered: whether the person belongs to a customer is not known.
        this.options.onError(error as Error);
        return this.#deny(503, 'unavailable', null, RETRY_5);
      }
      const entry = this.state.persons.get(personId);
      if (entry !== undefined) return this.#admitKey(entry, this.options.now());
      if (this.#unknownPersons.size >= this.options.negativeCacheSize) this.#unknownPersons.delete(this.#unknownPersons.keys().next().value as string);
      this.#unknownPersons.set(personId, now + this.options.negativeCacheTtlMs);
    }
    return this.#deny(403, 'no_customer', null);
  }

  /** Remembers a key found in the snapshot; past the bound the oldest goes first. */
  #remember(key: string, entry: KeyEntry) {
    if (this.#seen.size >= SEEN_KEYS_MAX) this.#seen.delete(this.#seen.keys().next().value as string);
    this.#seen.set(key, entry);
  }

  /** A request that came before the first snapshot: it waits for the start, then is decided. */
  async #admitOnceLoaded(key: string): Promise<Admission> {
    if (PREFIXED_KEY.test(key) && !isWellFormedApiKey(key)) return this.#deny(401, 'invalid_key', null);
    await this.#started;
    if (!this.state.loaded) await this.sync().catch(() => undefined);
    if (!this.state.loaded) return this.#deny(503, 'unavailable', null, RETRY_5);
    return this.admitNow({ key });
  }

  /** A key missing from the snapshot: looked up (once per hash, a bounded number at a time). */
  async #admitUnknown(hash: string, now: number): Promise<Admission> {
    const verified = await this.#lookups.lookup(hash);
    if (!verified) return this.#deny(503, 'unavailable', null, RETRY_5);
    if (!verified.valid) {
      this.#lookups.remember(hash, verified);
      return this.#deny(401, 'invalid_key', null);
    }
    let entry = this.state.keys.get(hash);
    if (!entry) {
      const customerId = verified.customer.id;
      entry = { keyId: verified.key_id, customerId, customer: undefined, local: this.state.localOf(customerId), metered: null, meteredFrom: null, bucket: undefined, generation: 0 };
      this.state.keys.set(hash, entry);
    }
    if (!this.state.customers.has(entry.customerId)) {
      const view = toView(verified.customer);
      view.local = entry.local;
      this.state.customers.set(entry.customerId, view);
      entry.local.monthCount = Math.max(entry.local.monthCount, verified.customer.month_requests);
    }
    return this.#admitKey(entry, now);
  }

  #admitKey(entry: KeyEntry, now: number): Admission | Promise<Admission> {
    let customer = entry.customer;
    if (customer === undefined || customer.stale) {
      // A key found by a lookup, whose customer came with it (or with another key's lookup); or a
      // customer a followed change replaced (or removed) since this entry was made.
      customer = this.state.customers.get(entry.customerId);
      if (!customer) return this.#deny(401, 'invalid_key', null);
      entry.customer = customer;
    }
    if (customer.status !== 'active') return this.#deny(403, customer.status === 'pending' ? 'pending' : 'suspended', customer.id);
    if (customer.policyValidUntil <= now) return this.#admitAfterRefresh(entry, now);
    const shared = this.#shared;
    return shared ? this.#reserveShared(shared, customer, entry, now) : this.#reserve(customer, entry, now);
  }

  /** An expired policy is refreshed before anything is admitted under it. */
  async #admitAfterRefresh(entry: KeyEntry, now: number): Promise<Admission> {
    await this.sync().catch(() => undefined);
    const customer = this.state.customers.get(entry.customerId);
    if (!customer || customer.policyValidUntil <= this.options.now()) return this.#deny(503, 'policy_expired', entry.customerId, RETRY_5);
    const shared = this.#shared;
    return shared ? this.#reserveShared(shared, customer, entry, now) : this.#reserve(customer, entry, now);
  }

  /** Limits shared through Redis, once the tenant is known from the first snapshot. */
  get #shared(): SharedLimits | null {
    if (!this.options.redis || !this.state.tenantId) return null;
    // Credit in flight is held under this process's usage queue: it goes when the queue is adopted.
    const queue = this.#store as RedisUsageQueue;
    this.#sharedLimits ??= new SharedLimits(this.options.redis, this.state.tenantId, { id: () => queue.holderId() });
    return this.#sharedLimits;
  }

  /** The Redis-shared counterpart of #reserve: the same checks, atomically across processes. */
  async #reserveShared(shared: SharedLimits, customer: CustomerView, entry: KeyEntry, now: number): Promise<Admission> {
    const hold = customer.billingModel !== 'none' && customer.price > 0 ? customer.price : 0;
    let outcome;
    try {
      outcome = await shared.reserve({
        customerId: customer.id,
        now,
        rps: customer.rps,
        quota: customer.quota,
        monthFloor: customer.monthRequests,
        platform: { limit: this.state.platform.limit, floor: this.state.platform.floor, hardCap: this.state.platform.hardCap },
        hold,
        snapshot: { generatedAt: this.state.generatedAt, balance: customer.balance, fetchStartedAt: this.state.fetchStartedAt },
        periodEnd: this.state.periodEnd,
      });
    } catch (error) {
      this.options.onError(error as Error);
      return this.#deny(503, 'unavailable', customer.id, RETRY_5);
    }
    if (!outcome.ok) {
      if (outcome.reason === 'rate_limited') return this.#deny(429, 'rate_limited', customer.id, { 'retry-after': secondsUntil(outcome.retryAfterMs) });
      if (outcome.reason === 'insufficient_credit') return this.#deny(402, 'insufficient_credit', customer.id);
      return this.#deny(429, outcome.reason, customer.id, { 'retry-after': secondsUntil(this.state.periodEnd - now) });
    }
    const local = entry.local;
    local.inflightMicro += hold;
    this.#admit(customer.id);
    const holder = outcome.holder;
    return this.#admitted(customer, local, entry, now, hold, (charge) => {
      // A hold that will not be charged ends now; a charged one ends when Gatehouse acknowledges it.
      if (hold > 0) void shared.finish(customer.id, holder, hold - charge, charge).catch(this.options.onError);
    });
  }

  #reserve(customer: CustomerView, entry: KeyEntry, now: number): Admission {
    const local = entry.local;
    const platform = this.state.platform;
    // Checked here, taken below with the rest: gcraTake here let a request then refused for
    // quota or credit use up the rate, so a customer refused 402 got 429 on its next request.
    let rateTat: number | null = null;
    if (customer.rps > 0) {
      const checked = gcraCheck(local, customer.rps, now);
      if (!checked.ok) return this.#deny(429, 'rate_limited', customer.id, { 'retry-after': secondsUntil(checked.retryAfterMs) });
      rateTat = checked.tat;
    }
    if (customer.quota !== null && local.monthCount >= customer.quota) {
      return this.#deny(429, 'quota_exceeded', customer.id, { 'retry-after': secondsUntil(this.state.periodEnd - now) });
    }
    if (platform.hardCap && platform.count >= platform.limit) {
      return this.#deny(429, 'platform_limit', customer.id, { 'retry-after': secondsUntil(this.state.periodEnd - now) });
    }
    const hold = customer.billingModel !== 'none' && customer.price > 0 ? customer.price : 0;
    if (hold > 0 && this.state.available(customer, local) < hold) return this.#deny(402, 'insufficient_credit', customer.id);
    // Everything is checked before anything is taken, so a refusal reserves nothing.
    if (rateTat !== null) local.tat = rateTat;
    local.monthCount += 1;
    platform.count += 1;
    local.inflightMicro += hold;
    this.#admit(customer.id);
    return this.#admitted(customer, local, entry, now, hold, NO_SETTLEMENT);
  }

  /** The admitted answer: `finish` records the final status (once) and settles the request's hold. */
  #admitted(customer: CustomerView, local: CustomerLocal, entry: KeyEntry, now: number, hold: number, settle: (charge: number) => void): Admission {
    let finished = false;
    return {
      ok: true,
      customer: this.#meteredCustomer(customer, entry),
      finish: (status: number) => {
        if (finished) return;
        finished = true;
        local.inflightMicro -= hold;
        const code = Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500;
        const charge = this.state.billable[code] === 1 && customer.billingModel !== 'none' ? customer.price : 0;
        local.unackedMicro += charge;
        settle(charge);
        this.#recorder.record(entry.keyId, customer.policyId, code, now, charge, customer.id, entry);
        if (this.#recorder.openBuckets >= this.options.batchItems) this.#deliverSoon();
      },
    };
  }

  /** What handlers see of the customer: one frozen object per key and snapshot, not one per request. */
  #meteredCustomer(customer: CustomerView, entry: KeyEntry): MeteredCustomer {
    if (entry.meteredFrom !== customer || entry.metered === null) {
      entry.metered = Object.freeze({ id: customer.id, keyId: entry.keyId, status: 'active', balanceMicro: customer.balance, pricePerRequestMicro: customer.price, billingModel: customer.billingModel });
      entry.meteredFrom = customer;
    }
    return entry.metered;
  }

  #deliverSoon() {
    if (this.#deliveringSoon) return;
    this.#deliveringSoon = true;
    setImmediate(() => {
      this.#deliveringSoon = false;
      void this.flush().catch((e: Error) => this.options.onError(e));
    });
  }

  /** Delivers every recorded request now. Rejects when Gatehouse cannot be reached (usage stays queued). */
  flush(): Promise<void> {
    return this.#reporter.deliver();
  }

  /** Sends dead-lettered usage again; returns how many Gatehouse took and how many are still set aside. */
  replayDeadLetters(): Promise<{ delivered: number; remaining: number }> {
    return replayDeadLetters(this.#client, this.#deadLetters);
  }

  /** Where following changes stands: the cursor held, answers applied, and whether the last poll was answered. */
  get following(): { cursor: string | null; applied: number; healthy: boolean } {
    return { cursor: this.state.cursor, applied: this.#follower?.applied ?? 0, healthy: this.#follower?.healthy ?? false };
  }

  metrics(): MeterMetrics {
    return {
      admissions: this.#admittedCount > 0 ? { admitted: this.#admittedCount, ...this.#admissions } : { ...this.#admissions },
      snapshotAgeMs: this.state.loaded ? this.options.now() - this.state.confirmedAt : null,
      queueDepth: this.#recorder.pendingRequests,
      deadLetters: this.#reporter.deadLettered,
      reportFailures: this.#reporter.failures,
      verifyLookups: this.#lookups.lookups,
      verifyRefused: this.#lookups.refused,
    };
  }

  /** The metrics in Prometheus text format, to serve from your own /metrics. */
  prometheus(): string {
    return prometheusText(this.metrics());
  }

  /** Stops the timers, delivers what it can, and closes the journal (what is left stays in it). */
  async close(): Promise<void> {
    this.#closed = true;
    this.#timers.forEach(clearInterval);
    await this.#follower?.stop();
    this.#seen.clear();
    await this.ready.catch(() => undefined);
    await this.flush().catch((error: Error) => this.options.onError(error));
    await this.#store.close().catch((error: Error) => this.options.onError(error));
  }
}

/**
 * Builds a meter. Options are checked now; the first snapshot is fetched in the background.
 * @example
 * const meter = createMeter({ secret: process.env.GATEHOUSE_SECRET_KEY });
 * const d = await meter.admit({ key: req.headers['x-api-key'] });
 * if (!d.ok) return res.writeHead(d.status, d.headers).end(JSON.stringify(d.body));
 * res.on('finish', () => d.finish(res.statusCode));
 */
export function createMeter(options: MeterOptions = {}): Meter {
  return new Meter(options);
}

/** How often the SDK says its secret is refused while it keeps being refused. */
const REFUSAL_REPORT_INTERVAL_MS = 60_000;

/**
 * A refused secret fails every sync, lookup and report, many a second under traffic: the first
 * refusal is reported at once, then at most one a minute. Other errors pass through as they come.
 */
function onceAMinuteForRefusals(onError: (error: Error) => void, now: () => number): (error: Error) => void {
  let lastReported = -Infinity;
  return (error) => {
    if (error instanceof AuthorizationError) {
      const at = now();
      if (at - lastReported < REFUSAL_REPORT_INTERVAL_MS) return;
      lastReported = at;
    }
    onError(error);
  };
}
