import type { SnapshotBody, VerifyBody, WireMember, WireResourceServer } from '@gatehouse/protocol';
import { createHash } from 'node:crypto';
import type { Clock } from '../platform/clock.js';
import { DAY, HOUR } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { isoDay, monthStart, nextMonthStart } from '../platform/period.js';
import type { ApiRow, ApiService } from '../apis/service.js';
import * as cq from './change-queries.js';
import * as q from './queries.js';
import { streamSnapshot, type StreamedSnapshot } from './snapshot-stream.js';
import { StreamSlots } from './stream-slots.js';
import { toWireCustomer } from './wire-customer.js';

/** How long a snapshot's policies stay authoritative; SDKs refresh before admitting past it. */
export const POLICY_VALIDITY_MS = DAY;

/**
 * policy_valid_until of a snapshot or verify answer made at `at`: a day ahead, rounded up to the
 * next whole hour. It used to be exactly generated_at + 1 day, which moved with every fetch, so
 * the ETag (taken over everything but generated_at) changed every time and If-None-Match never
 * got its 304. Rounded, it stays the same for an hour of fetches and is still well in the future,
 * as SDKs need (wire protocol section 2, "Policy expiry").
 */
export function policyValidUntil(at: Date): string {
  return new Date(Math.ceil((at.getTime() + POLICY_VALIDITY_MS) / HOUR) * HOUR).toISOString();
}

export interface BuiltSnapshot {
  /** The JSON text, ready to send. */
  json: string;
  /** Strong ETag over everything but generated_at, so an unchanged snapshot answers 304. */
  etag: string;
  customers: number;
  keys: number;
}

/** Rows of resource_url and permission name (null for a server without any), as the full shape lists them. */
function serversOf(rows: { resource_url: string; name: string | null }[]): WireResourceServer[] {
  const byResource = new Map<string, string[]>();
  for (const row of rows) {
    const permissions = byResource.get(row.resource_url) ?? [];
    if (row.name !== null) permissions.push(row.name);
    byResource.set(row.resource_url, permissions);
  }
  return [...byResource].map(([resource, permissions]) => ({ resource, permissions }));
}

/**
 * One customer per person: the first of their memberships in the query's order (an active customer
 * before others, then the oldest), among the customers this snapshot carries.
 */
function firstMembership(rows: { person_id: string; customer_id: string }[], customerIds: Set<string> | null): WireMember[] {
  const out: WireMember[] = [];
  let last = '';
  for (const row of rows) {
    // null: the rows are of the snapshot's customers only (read so: snapshot-stream.ts).
    if (row.person_id === last || (customerIds && !customerIds.has(row.customer_id))) continue;
    last = row.person_id;
    out.push({ person_id: row.person_id, customer_id: row.customer_id });
  }
  return out;
}

/**
 * How long a snapshot request waits for a stream slot before it is told to come back: streams of
 * small APIs end in milliseconds, so a burst of SDK restarts queues briefly; a queue behind streams
 * of a large API is answered at once rather than held past the SDK's own 5-second wait for a head.
 */
export const SNAPSHOT_SLOT_WAIT_MS = 2_000;

/** Builds SDK snapshots and answers key lookups (wire protocol sections 2 and 3). */
export class SnapshotService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly apis: ApiService,
    /**
     * Whether the stream's transaction may wait for the client's socket. Not on PGlite: it runs one
     * transaction at a time, so a slow client would hold every other request of the node; there
     * the rows are read at the database's pace and buffered (the memory of the whole build).
     */
    private readonly holdTransaction = true,
    /** Streams that may hold a connection at once (stream-slots.ts); only where they hold one. */
    readonly streamSlots: StreamSlots = new StreamSlots(4),
  ) {}

  /**
   * The top of a snapshot (and of a changes answer): the API's terms and platform numbers, in the
   * order the snapshot has always written them.
   */
  async tenantFields(api: ApiRow, now: Date) {
    const platform = await this.#platform(api, now);
    return {
      tenant_id: api.id,
      tenant_name: api.name,
      tenant_status: api.status,
      billable_status_codes: [...new Set(api.billable_status_codes)].sort((a, b) => a - b),
      platform_monthly_limit: platform.limit,
      platform_monthly_used: platform.used,
      platform_monthly_remaining: platform.remaining,
      platform_period_end: platform.end.toISOString(),
      platform_hard_cap: platform.hardCap,
      platform_monthly_allowance: {
        limit: platform.limit,
        used: platform.used,
        remaining: platform.remaining,
        period_start: platform.start.toISOString(),
        period_end: platform.end.toISOString(),
        hard_cap: platform.hardCap,
      },
    };
  }

  async #platform(api: ApiRow, now: Date) {
    const plan = this.apis.platformPlans.get(api.platform_plan);
    const start = monthStart(now);
    const end = nextMonthStart(now);
    // A wire "int" is never negative, whatever rows an older version left (wire protocol section 2).
    const used = Math.max(0, await q.apiRequestsBetween(this.db, api.id, isoDay(start), isoDay(end)));
    // The period is the calendar month in UTC: platform_period_end stays fixed for all of it.
    return { limit: plan.monthly_requests, used, remaining: Math.max(0, plan.monthly_requests - used), start, end, hardCap: plan.hard_cap };
  }

  /**
   * The snapshot as it is served: streamed from the database to the response (snapshot-stream.ts),
   * with an ETag known before any row is read, so a matching If-None-Match reads no rows at all.
   */
  async stream(api: ApiRow, full: boolean, ifNoneMatch: string | undefined): Promise<StreamedSnapshot | 'busy'> {
    // A slot before anything is read (PostgreSQL only: on PGlite the rows are read at once and the
    // transaction never waits for a client).
    const release = this.holdTransaction ? await this.streamSlots.take(SNAPSHOT_SLOT_WAIT_MS) : () => {};
    if (!release) return 'busy';
    try {
      return await this.#stream(api, full, ifNoneMatch, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  async #stream(api: ApiRow, full: boolean, ifNoneMatch: string | undefined, release: () => void): Promise<StreamedSnapshot> {
    // Stamp first, then read: the data is at least as new as generated_at, which rises strictly.
    const generatedAt = await this.apis.stampSnapshot(api.id);
    const wireOptions = { full, apiSuspended: api.status === 'suspended', policyValidUntil: policyValidUntil(generatedAt) };
    const head = {
      generatedAt,
      month: isoDay(monthStart(generatedAt)),
      tenant: await this.tenantFields(api, generatedAt),
      wireOptions,
      full: full
        ? {
            signin: (servers: { resource_url: string; name: string | null }[]) => ({ issuer: this.apis.portalUrl(api.slug), servers: serversOf(servers) }),
            members: (rows: { person_id: string; customer_id: string }[]) => firstMembership(rows, null),
          }
        : null,
    };
    return streamSnapshot(this.db, api.id, head, ifNoneMatch, this.holdTransaction, release);
  }

  /**
   * The whole snapshot built in memory, as it was served before it streamed: the reference the
   * streamed bytes are tested against, and the bench's figure of the old way.
   */
  async build(api: ApiRow, full: boolean): Promise<BuiltSnapshot> {
    // Stamp first, then read: the data is at least as new as generated_at, which rises strictly.
    const generatedAt = await this.apis.stampSnapshot(api.id);
    const month = isoDay(monthStart(generatedAt));
    const { customers, keys, members, servers, counter } = await this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => ({
        customers: await q.snapshotCustomers(trx, api.id, month),
        keys: await q.snapshotKeys(trx, api.id),
        // Only our SDK asks for the full shape; existing SDKs get exactly the wire protocol's.
        members: full ? await q.snapshotMembers(trx, api.id) : [],
        servers: full ? await q.snapshotServerPermissions(trx, api.id) : [],
        // In the same snapshot as the rows: every change up to it is in them, none after.
        counter: await cq.changeCounter(trx, api.id),
      }));
    const wireOptions = { full, apiSuspended: api.status === 'suspended', policyValidUntil: policyValidUntil(generatedAt) };
    const customerIds = new Set(customers.map((c) => c.id));
    const body: Omit<SnapshotBody, 'generated_at'> = {
      ...(await this.tenantFields(api, generatedAt)),
      customers: customers.map((c) => toWireCustomer(c, wireOptions)),
      // Every key names a customer in this snapshot, or SDKs refuse the whole snapshot.
      keys: keys.filter((k) => customerIds.has(k.customer_id)),
      ...(full ? { signin: { issuer: this.apis.portalUrl(api.slug), servers: serversOf(servers) }, members: firstMembership(members, customerIds) } : {}),
      // Last, after everything SDKs read (issue 27): they ignore fields they do not know.
      sync_cursor: String(counter.seq),
    };
    const content = JSON.stringify(body);
    const etag = `"${createHash('sha256').update(content).digest('base64url').slice(0, 32)}"`;
    return { json: `{"generated_at":${JSON.stringify(generatedAt.toISOString())},${content.slice(1)}`, etag, customers: customers.length, keys: body.keys.length };
  }

  /** A key not in the SDK's snapshot; unknown, revoked or malformed hashes are simply not valid. */
  async verify(api: ApiRow, keyHash: string, full: boolean): Promise<VerifyBody> {
    if (!/^[0-9a-f]{64}$/.test(keyHash)) return { valid: false };
    const now = this.clock.now();
    const row = await q.keyWithCustomer(this.db, api.id, keyHash, isoDay(monthStart(now)));
    if (!row) return { valid: false };
    return {
      valid: true,
      key_id: row.key_id,
      customer: toWireCustomer(row, { full, apiSuspended: api.status === 'suspended', policyValidUntil: policyValidUntil(now) }),
      billable_status_codes: [...new Set(api.billable_status_codes)].sort((a, b) => a - b),
    };
  }
}
