import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { sql, type Compilable } from 'kysely';
import type { Db, Trx } from '../platform/db/database.js';
import * as cq from './change-queries.js';
import * as q from './queries.js';
import { toWireCustomer, type WireOptions } from './wire-customer.js';

/**
 * The snapshot written to the response as it is read (issue 27; docs/decisions.md, "The snapshot
 * streams"): customers and keys in batches by id, in one REPEATABLE READ transaction held until
 * the last byte, so the server holds one batch and the socket's buffer, whatever the API's size.
 * The bytes are the whole build's (snapshot.ts), field for field.
 */

/**
 * Rows per fetch: large enough that round trips are a small part, small enough to stay a few MB.
 * An object so tests can make batches small.
 */
export const snapshotBatch = { rows: 5_000 };

/** Bytes buffered towards the socket before the reading waits for it to drain. */
const HIGH_WATER = 1 << 20;

export interface SnapshotHead {
  generatedAt: Date;
  month: string;
  /** The top fields, in the order the snapshot writes them (SnapshotService.tenantFields). */
  tenant: Record<string, unknown>;
  wireOptions: WireOptions;
  /** The full shape's sign-in block and person map: read whole (our SDK only; small). */
  full: null | { signin: (servers: { resource_url: string; name: string | null }[]) => unknown; members: (rows: { person_id: string; customer_id: string }[]) => unknown };
}

export interface StreamedSnapshot {
  etag: string;
  /** Null when the caller's ETag matched: nothing more is read. */
  body: Readable | null;
}

/**
 * The ETag of a streamed snapshot, known before any row is read: the API's change cursor (every
 * change of a customer, its terms, balance or keys moves it, migration 0020), the top fields (the
 * API's terms and platform numbers), the policy validity and month (month_requests starts again
 * each month), the shape, and for the full shape its sign-in block and person map themselves.
 */
function etagOf(parts: unknown): string {
  return `"${createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 32)}"`;
}

/** `done` runs once the stream's transaction has ended, however it ended (its slot goes back). */
export async function streamSnapshot(db: Db, apiId: string, head: SnapshotHead, ifNoneMatch: string | undefined, waitForSocket = true, done: () => void = () => {}): Promise<StreamedSnapshot> {
  let decided!: (answer: { etag: string; go: (proceed: boolean) => void }) => void;
  let failed!: (error: unknown) => void;
  const decision = new Promise<{ etag: string; go: (proceed: boolean) => void }>((resolve, reject) => {
    decided = resolve;
    failed = reject;
  });
  const out = new PassThrough({ highWaterMark: HIGH_WATER });
  let started = false;

  void db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      // In the same snapshot as the rows: every change up to it is in them, none after.
      const counter = await cq.changeCounter(trx, apiId);
      const fullParts = head.full
        ? { signin: head.full.signin(await q.snapshotServerPermissions(trx, apiId)), members: head.full.members(await q.snapshotMembers(trx, apiId, true)) }
        : null;
      const etag = etagOf({ v: 1, cursor: counter.seq, tenant: head.tenant, policy: head.wireOptions.policyValidUntil, month: head.month, full: fullParts });
      const proceed = await new Promise<boolean>((go) => decided({ etag, go }));
      if (!proceed) return;
      started = true;
      await writeBody(trx, apiId, head, counter.seq, fullParts, out, waitForSocket);
    })
    .then(
      () => {
        done();
        out.end();
      },
      (error: unknown) => {
        done();
        if (!started) failed(error);
        out.destroy(error as Error);
      },
    );

  const { etag, go } = await decision;
  if (ifNoneMatch === etag) {
    go(false);
    return { etag, body: null };
  }
  go(true);
  return { etag, body: out };
}

async function writeBody(trx: Trx, apiId: string, head: SnapshotHead, cursor: number, fullParts: { signin: unknown; members: unknown } | null, out: PassThrough, waitForSocket: boolean) {
  // Waits for the socket to take what is buffered; false once the client is gone (stop reading).
  const write = async (text: string): Promise<boolean> => {
    if (out.destroyed) return false;
    if (out.write(text) || !waitForSocket) return true;
    await new Promise<void>((resolve) => {
      const done = () => {
        out.off('drain', done);
        out.off('close', done);
        resolve();
      };
      out.once('drain', done);
      out.once('close', done);
    });
    return !out.destroyed;
  };
  // As JSON.stringify writes { generated_at, ...tenant, customers, keys, [signin, members], sync_cursor }.
  const tenant = JSON.stringify(head.tenant);
  if (!(await write(`{"generated_at":${JSON.stringify(head.generatedAt.toISOString())},${tenant.slice(1, -1)},"customers":[`))) return;
  // One cursor per list, declared on the whole query (one plan, as the whole build ran it), read
  // a batch at a time: batches by "id after the last" planned each batch again, and joined the
  // whole of the other table for each.
  const fetchAll = async <R>(name: string, query: Compilable, each: (row: R) => string): Promise<boolean> => {
    await sql`declare ${sql.raw(name)} no scroll cursor for ${query}`.execute(trx);
    let first = true;
    for (;;) {
      const { rows } = await sql<R>`fetch ${sql.raw(String(snapshotBatch.rows))} from ${sql.raw(name)}`.execute(trx);
      if (!rows.length) break;
      let text = '';
      for (const row of rows) {
        text += (first ? '' : ',') + each(row);
        first = false;
      }
      if (!(await write(text))) return false;
      if (rows.length < snapshotBatch.rows) break;
    }
    await sql`close ${sql.raw(name)}`.execute(trx);
    return true;
  };
  if (!(await fetchAll<q.CustomerRow>('snapshot_customers', q.snapshotCustomersQuery(trx, apiId, head.month), (row) => JSON.stringify(toWireCustomer(row, head.wireOptions))))) return;
  if (!(await write('],"keys":['))) return;
  if (!(await fetchAll<{ id: string; customer_id: string; key_hash: string }>('snapshot_keys', q.snapshotKeysQuery(trx, apiId), (row) => JSON.stringify({ id: row.id, customer_id: row.customer_id, key_hash: row.key_hash })))) return;
  const fullText = fullParts ? `,"signin":${JSON.stringify(fullParts.signin)},"members":${JSON.stringify(fullParts.members)}` : '';
  await write(`]${fullText},"sync_cursor":${JSON.stringify(String(cursor))}}`);
}
