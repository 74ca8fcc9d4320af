import assert from 'node:assert/strict';
import { sql } from 'kysely';
import Stripe from 'stripe';
import type { TestApp } from './harness.js';

/** After every money test: for every customer, the balance is the sum of its ledger entries. */
export async function assertBalancesMatchLedger(t: TestApp): Promise<void> {
  const { rows } = await sql<{ id: string; balance: string; total: string }>`
    select c.id, c.balance_micro::text as balance, coalesce(sum(l.amount_micro), 0)::text as total
    from customers c left join ledger_entries l on l.customer_id = c.id group by c.id`.execute(t.services.db);
  for (const row of rows) assert.equal(row.balance, row.total, `customer ${row.id}: balance ${row.balance}, ledger ${row.total}`);
}

/** A Stripe-shaped event as JSON text. */
export function eventJson(type: string, object: Record<string, unknown>, options: { id?: string; account?: string | null; created?: number } = {}): string {
  return JSON.stringify({
    id: options.id ?? `evt_${Math.random().toString(36).slice(2, 14)}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: options.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    ...(options.account ? { account: options.account } : {}),
    data: { object },
  });
}

/** Posts an event to a webhook endpoint, signed with the library's test-header helper. */
export async function postEvent(t: TestApp, path: string, payload: string, secret: string, options: { timestamp?: number; signature?: string } = {}) {
  const header = options.signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: options.timestamp ?? Math.floor(t.clock.now().getTime() / 1000) });
  const response = await fetch(`${t.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header }, body: payload });
  const text = await response.text();
  return { status: response.status, text, body: text ? JSON.parse(text) : undefined };
}

/** Rows of a table, for "nothing changed" checks. */
export async function countRows(t: TestApp, table: 'payment_events' | 'ledger_entries' | 'payment_customers' | 'payment_accounts'): Promise<number> {
  const { rows } = await sql<{ n: string }>`select count(*)::text as n from ${sql.table(table)}`.execute(t.services.db);
  return Number(rows[0]!.n);
}

/**
 * The money invariants checked after every billing test (issue 23 item 7): for every customer the
 * balance is the sum of its ledger entries, and no API has more than one live platform
 * subscription.
 */
export async function assertMoneyInvariants(t: TestApp): Promise<void> {
  await assertBalancesMatchLedger(t);
  const { rows } = await sql<{ api_id: string; live: string }>`
    select api_id, count(*)::text as live from platform_subscriptions
    where status in ('trialing', 'active', 'past_due')
    group by api_id having count(*) > 1`.execute(t.services.db);
  assert.deepEqual(rows, [], 'no API has two live platform subscriptions');
}
