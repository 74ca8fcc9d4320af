import { sql, type Insertable, type Updateable } from 'kysely';
import { CHANGE_CHANNEL, type Db, type Trx } from '../platform/db/database.js';
import type { WebhookDeliveriesTable, WebhookEndpointsTable } from './tables.js';

type Executor = Db | Trx;

/** The change-feed tag that wakes every node's delivery loop once new deliveries are committed. */
export const DELIVERIES_DUE_TAG = 'webhooks:due';

// A delivery id made by the database, for deliveries fanned out by one statement: 122 random bits.
const newDeliveryId = sql<string>`'dlv_' || replace(gen_random_uuid()::text, '-', '')`;

export interface EventRow {
  id: string;
  type: string;
  payload: string;
}

/**
 * The outbox write (DESIGN 12), one statement in the caller's transaction: the events (kept only
 * while the API has an endpoint, enabled or not, so a receiver can catch up on them), a pending
 * delivery for each enabled endpoint subscribed to its type, and a notification that wakes the
 * delivery loops once it commits. Answers how many deliveries were made.
 */
export async function insertEvents(trx: Trx, apiId: string, rows: EventRow[], at: Date): Promise<number> {
  if (!rows.length) return 0;
  const result = await sql<{ deliveries: number }>`with events as (
      insert into webhook_events (id, api_id, type, payload, created_at)
      select r.id, ${apiId}, r.type, r.payload, ${at}::timestamptz
      from unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => r.type)}::text[], ${rows.map((r) => r.payload)}::text[])
        with ordinality as r(id, type, payload, n)
      where exists (select 1 from webhook_endpoints where api_id = ${apiId})
      order by r.n
      returning id, type
    ), deliveries as (
      insert into webhook_deliveries (id, api_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
      select ${newDeliveryId}, ${apiId}, e.id, ev.id, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz
      from events ev join webhook_endpoints e on e.api_id = ${apiId} and e.disabled_at is null
        and (cardinality(e.event_types) = 0 or ev.type = any(e.event_types))
      returning 1
    ), made as (select count(*)::int as n from deliveries)
    select made.n as deliveries, case when made.n > 0 then pg_notify(${CHANGE_CHANNEL}, ${DELIVERIES_DUE_TAG}) end as notified
    from made`.execute(trx);
  return Number(result.rows[0]?.deliveries ?? 0);
}

/** A test event for one endpoint, and its delivery. */
export async function insertTestEvent(trx: Trx, apiId: string, endpointId: string, row: EventRow, at: Date): Promise<string> {
  await trx.insertInto('webhook_events').values({ id: row.id, api_id: apiId, type: row.type, payload: row.payload, endpoint_id: endpointId, created_at: at }).execute();
  const delivery = await insertDeliveries(trx, apiId, endpointId, [row.id], at);
  return delivery[0]!;
}

/** New pending deliveries of existing events to one endpoint (a retry, a replay). */
export async function insertDeliveries(trx: Trx, apiId: string, endpointId: string, eventIds: string[], at: Date): Promise<string[]> {
  if (!eventIds.length) return [];
  const result = await sql<{ id: string }>`insert into webhook_deliveries (id, api_id, endpoint_id, event_id, status, attempts, next_attempt_at, created_at)
    select ${newDeliveryId}, ${apiId}, ${endpointId}, r.event_id, 'pending', 0, ${at}::timestamptz, ${at}::timestamptz
    from unnest(${eventIds}::text[]) with ordinality as r(event_id, n) order by r.n
    returning id`.execute(trx);
  await sql`select pg_notify(${CHANGE_CHANNEL}, ${DELIVERIES_DUE_TAG})`.execute(trx);
  return result.rows.map((r) => r.id);
}

// ---- Endpoints ----

export async function insertEndpoint(trx: Trx, row: Insertable<WebhookEndpointsTable>) {
  return trx.insertInto('webhook_endpoints').values(row).returningAll().executeTakeFirstOrThrow();
}

export function findEndpoint(db: Executor, apiId: string, endpointId: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('api_id', '=', apiId).where('id', '=', endpointId).executeTakeFirst();
}

export function lockEndpoint(trx: Trx, apiId: string, endpointId: string) {
  return trx.selectFrom('webhook_endpoints').selectAll().where('api_id', '=', apiId).where('id', '=', endpointId).forUpdate().executeTakeFirst();
}

export function endpointsOf(db: Executor, apiId: string) {
  return db.selectFrom('webhook_endpoints').selectAll().where('api_id', '=', apiId).orderBy('created_at').orderBy('id').execute();
}

export async function countEndpoints(trx: Trx, apiId: string): Promise<number> {
  const row = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll<number>().as('n')).where('api_id', '=', apiId).executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function updateEndpoint(db: Executor, apiId: string, endpointId: string, changes: Updateable<WebhookEndpointsTable>) {
  return db.updateTable('webhook_endpoints').set(changes).where('api_id', '=', apiId).where('id', '=', endpointId).returningAll().executeTakeFirstOrThrow();
}

export async function deleteEndpoint(trx: Trx, apiId: string, endpointId: string) {
  await trx.deleteFrom('webhook_endpoints').where('api_id', '=', apiId).where('id', '=', endpointId).execute();
}

// ---- Events ----

/** One event of an API (a test event too), for a retry or a cursor. */
export function findEvent(db: Executor, apiId: string, eventId: string) {
  return db.selectFrom('webhook_events').select(['id', 'type', 'payload', 'endpoint_id', 'created_at', 'seq', sql<string>`xid::text`.as('xid')]).where('api_id', '=', apiId).where('id', '=', eventId).executeTakeFirst();
}

/**
 * The API's events after a cursor, oldest first, created since `since`: only those of
 * transactions older than every transaction still running, in (transaction, insert) order, so a
 * page never skips an event that commits after it was read (migration 0014).
 */
export function eventsAfter(db: Db, apiId: string, options: { after: { xid: string; seq: number } | null; type: string | null; since: Date; limit: number }) {
  let query = db
    .selectFrom('webhook_events')
    .select(['id', 'type', 'payload', 'created_at', 'seq', sql<string>`xid::text`.as('xid')])
    .where('api_id', '=', apiId)
    .where('endpoint_id', 'is', null)
    .where('created_at', '>=', options.since)
    .where(sql<boolean>`xid < pg_snapshot_xmin(pg_current_snapshot())`);
  if (options.after) query = query.where(sql<boolean>`(xid, seq) > (${options.after.xid}::xid8, ${options.after.seq}::bigint)`);
  if (options.type) query = query.where('type', '=', options.type);
  return query.orderBy('xid').orderBy('seq').limit(options.limit).execute();
}

/** Ids of the API's events since a time, oldest first (a replay to one endpoint). */
export async function eventIdsSince(db: Executor, apiId: string, since: Date, types: string[], limit: number): Promise<string[]> {
  let query = db.selectFrom('webhook_events').select('id').where('api_id', '=', apiId).where('endpoint_id', 'is', null).where('created_at', '>=', since);
  if (types.length) query = query.where('type', 'in', types);
  const rows = await query.orderBy('xid').orderBy('seq').limit(limit).execute();
  return rows.map((r) => r.id);
}

/** Retention (30 days): events and, by cascade, their deliveries. */
export async function deleteEventsBefore(db: Executor, before: Date): Promise<number> {
  const result = await db.deleteFrom('webhook_events').where('created_at', '<', before).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// ---- Deliveries ----

/**
 * Claims due deliveries of enabled endpoints: each is locked (SKIP LOCKED: rows another node is
 * claiming are passed over, not waited for) and its next attempt moved to `leaseUntil`, past the
 * time an attempt may take, so no other node takes it meanwhile and a node that dies mid-attempt
 * only delays it. The caller records the outcome against the same `leaseUntil`.
 */
export async function claimDue(db: Db, now: Date, leaseUntil: Date, limit: number) {
  const result = await sql<{ id: string }>`update webhook_deliveries d set next_attempt_at = ${leaseUntil}::timestamptz
    where d.id in (
      select d2.id from webhook_deliveries d2 join webhook_endpoints e on e.id = d2.endpoint_id
      where d2.status = 'pending' and d2.next_attempt_at <= ${now}::timestamptz and e.disabled_at is null
      order by d2.next_attempt_at limit ${limit}
      for update of d2 skip locked)
    returning d.id`.execute(db);
  return result.rows.map((r) => r.id);
}

/** What an attempt needs of claimed deliveries: the event's body and the endpoint's address and secrets. */
export function deliveriesToAttempt(db: Db, ids: string[]) {
  if (!ids.length) return Promise.resolve([]);
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .innerJoin('webhook_endpoints as e', 'e.id', 'd.endpoint_id')
    .select(['d.id', 'd.api_id', 'd.endpoint_id', 'd.event_id', 'd.attempts', 'ev.payload', 'e.url', 'e.secret_sealed', 'e.previous_secret_sealed', 'e.previous_secret_expires_at'])
    .where('d.id', 'in', ids)
    .execute();
}

/** Records an attempt's outcome, if the claim is still this node's; false when it is not. */
export async function recordAttempt(trx: Trx, id: string, leaseUntil: Date, changes: Updateable<WebhookDeliveriesTable>): Promise<boolean> {
  const row = await trx.updateTable('webhook_deliveries').set(changes).where('id', '=', id).where('status', '=', 'pending').where('next_attempt_at', '=', leaseUntil).returning('id').executeTakeFirst();
  return row !== undefined;
}

/**
 * Records a successful attempt, if the claim is still this node's, and ends the endpoint's failing
 * streak if one ran: one statement, atomic on its own.
 */
export async function recordSuccess(db: Db, id: string, leaseUntil: Date, outcome: { attempts: number; at: Date; statusCode: number; excerpt: string }) {
  await sql`with done as (
      update webhook_deliveries set status = 'succeeded', attempts = ${outcome.attempts}, next_attempt_at = null, last_attempt_at = ${outcome.at}::timestamptz,
        last_status_code = ${outcome.statusCode}, last_response = ${outcome.excerpt}, last_error = null
      where id = ${id} and status = 'pending' and next_attempt_at = ${leaseUntil}::timestamptz
      returning endpoint_id
    )
    update webhook_endpoints e set failing_since = null, exhausted_mailed_at = null
    from done where e.id = done.endpoint_id and e.failing_since is not null`.execute(db);
}

/** One page of an endpoint's deliveries, newest first, with their events' types. */
export function deliveriesPage(db: Db, apiId: string, endpointId: string, options: { before: { at: Date; id: string } | null; limit: number }) {
  let query = db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .selectAll('d')
    .select('ev.type as event_type')
    .where('d.api_id', '=', apiId)
    .where('d.endpoint_id', '=', endpointId);
  if (options.before) {
    const { at, id } = options.before;
    query = query.where((eb) => eb.or([eb('d.created_at', '<', at), eb.and([eb('d.created_at', '=', at), eb('d.id', '<', id)])]));
  }
  return query.orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').limit(options.limit).execute();
}

export function findDelivery(db: Executor, apiId: string, endpointId: string, deliveryId: string) {
  return db
    .selectFrom('webhook_deliveries as d')
    .innerJoin('webhook_events as ev', 'ev.id', 'd.event_id')
    .selectAll('d')
    .select('ev.type as event_type')
    .where('d.api_id', '=', apiId)
    .where('d.endpoint_id', '=', endpointId)
    .where('d.id', '=', deliveryId)
    .executeTakeFirst();
}

// ---- An endpoint's health (delivery.ts) ----

/** A failure starts a failing streak unless one runs; answers the endpoint as it is now, locked. */
export async function markEndpointFailing(trx: Trx, endpointId: string, at: Date) {
  await trx.updateTable('webhook_endpoints').set({ failing_since: at }).where('id', '=', endpointId).where('failing_since', 'is', null).execute();
  return trx.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).forUpdate().executeTakeFirst();
}
