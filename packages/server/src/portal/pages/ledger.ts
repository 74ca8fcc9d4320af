import { html } from '../../platform/pages/html.js';
import { textFault } from '../../platform/text.js';
import type { LedgerKind } from '../../ledger/tables.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { formatCount, formatMicro } from '../../platform/format.js';

/** Entries per page of the ledger. */
export const LEDGER_PAGE_SIZE = 25;

const KIND_NAMES: Record<LedgerKind, string> = {
  welcome: 'Welcome credit',
  credit: 'Credit',
  usage: 'Usage',
  topup: 'Top-up',
  plan_credit: 'Plan credit',
  auto_recharge: 'Auto-recharge',
  refund: 'Refund',
  dispute: 'Dispute',
  dispute_won: 'Dispute won',
};

/** "+1.00" or "-0.012": the sign always shown, so credit and charges read apart. */
const signed = (micro: number) => (micro > 0 ? `+${formatMicro(micro)}` : formatMicro(micro));

/** The `cursor` of the query: absent (the newest page), a string, or undefined when it cannot be one (repeated, or breaking the text rule). */
function cursorOf(query: unknown): string | null | undefined {
  const value = (query as Record<string, unknown>).cursor;
  if (value === undefined) return null;
  return typeof value === 'string' && textFault(value) === null ? value : undefined;
}

/** The note, unless it only repeats the kind ("Welcome credit"); a usage entry names its requests. */
function noteOf(entry: { kind: LedgerKind; note: string; requests: number }): string {
  if (entry.kind === 'usage' && !entry.note) return `${formatCount(entry.requests)} ${entry.requests === 1 ? 'request' : 'requests'}`;
  return entry.note.trim().toLowerCase() === KIND_NAMES[entry.kind].toLowerCase() ? '' : entry.note;
}

/**
 * Every change of the customer's balance, newest first, a page at a time: credit added, usage
 * charged (one entry per UTC day, growing through the day), top-ups and plan credit.
 */
export async function ledgerPage(deps: PortalDeps, ctx: PortalContext) {
  const cursor = cursorOf(ctx.request.query);
  const page = cursor === undefined ? null : await deps.ledger.customerEntries(ctx.tenant.api.id, ctx.membership.customer_id, { cursor, limit: LEDGER_PAGE_SIZE });
  if (!page) {
    return ctx.page({ title: 'Ledger', active: '/ledger', status: 400, body: html`<h1>Ledger</h1><p class="error" role="alert">This page of the ledger does not exist.</p><p><a href="/ledger">Go to the newest entries</a></p>` });
  }
  const rows = page.entries.map((e) => html`<tr id="entry-${e.id}"><td>${e.day}</td><td>${KIND_NAMES[e.kind]}</td>
<td>${noteOf(e)}</td><td class="num ${e.amountMicro < 0 ? 'debit' : 'credit'}">${signed(e.amountMicro)}</td></tr>`);
  const pager = html`<p class="pager">${cursor ? html`<a href="/ledger" id="ledger-newest">Newest entries</a>` : ''}${page.next ? html`<a href="/ledger?cursor=${encodeURIComponent(page.next)}" id="ledger-older">Older entries</a>` : ''}</p>`;
  return ctx.page({
    title: 'Ledger',
    active: '/ledger',
    body: html`<h1>Ledger</h1>
<p class="note">Every change of your balance, newest first. Usage is one entry per UTC day, added to as the API reports requests.</p>
${page.entries.length === 0
  ? html`<p class="note" id="ledger-empty">${cursor ? 'No older entries.' : 'No entries yet.'}</p>`
  : html`<table id="ledger-table"><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Kind</th><th scope="col">Note</th><th scope="col" class="num">Amount</th></tr></thead><tbody>${rows}</tbody></table>`}
${pager}`,
  });
}
