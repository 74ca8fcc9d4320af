import { createHash } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
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

/** Rows per batch: large enough that round trips are a small part, small enough to stay a few MB. */
export const SNAPSHOT_BATCH = 5_000;

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

export async function streamSnapshot(db: Db, apiId: string, head: SnapshotHead, ifNoneMatch: string | undefined, waitForSocket = true): Promise<StreamedSnapshot> {
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
      () => out.end(),
      (error: unknown) => {
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
  let after = '';
  let first = true;
  for (;;) {
    const rows = await q.snapshotCustomersAfter(trx, apiId, head.month, after, SNAPSHOT_BATCH);
    if (!rows.length) break;
    let text = '';
    for (const row of rows) {
      text += (first ? '' : ',') + JSON.stringify(toWireCustomer(row, head.wireOptions));
      first = false;
    }
    if (!(await write(text))) return;
    after = rows[rows.length - 1]!.id;
    if (rows.length < SNAPSHOT_BATCH) break;
  }
  if (!(await write('],"keys":['))) return;
  let afterKey: string | null = null;
  first = true;
  for (;;) {
    const rows = await q.snapshotKeysAfter(trx, apiId, afterKey, SNAPSHOT_BATCH);
    if (!rows.length) break;
    let text = '';
    for (const row of rows) {
      text += (first ? '' : ',') + JSON.stringify({ id: row.id, customer_id: row.customer_id, key_hash: row.key_hash });
      first = false;
    }
    if (!(await write(text))) return;
    afterKey = rows[rows.length - 1]!.id;
    if (rows.length < SNAPSHOT_BATCH) break;
  }
  const fullText = fullParts ? `,"signin":${JSON.stringify(fullParts.signin)},"members":${JSON.stringify(fullParts.members)}` : '';
  await write(`]${fullText},"sync_cursor":${JSON.stringify(String(cursor))}}`);
}
