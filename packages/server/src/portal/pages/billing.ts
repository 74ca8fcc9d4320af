import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { text, type FormBody } from '../../platform/pages/forms.js';
import { customerRoleMay } from '../../customers/members.js';
import { MAX_TOPUP_CENTS } from '../../payments/service.js';
import { Problem } from '../../platform/errors.js';
import { refusalStatus, type PortalContext, type PortalDeps } from '../context.js';
import { formatCents, formatMicro, formatTime } from '../../platform/format.js';
import { autoRechargeSection } from './auto-recharge.js';

export interface Notice {
  error?: string;
  ok?: string;
  status?: number;
}

/** A query parameter when it is one string (repeated or absent: null). */
function param(ctx: PortalContext, name: string): string | null {
  const value = (ctx.request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

/** What the customer comes back to from the provider's checkout page. */
async function returnNotice(deps: PortalDeps, ctx: PortalContext): Promise<Notice> {
  const card = param(ctx, 'card');
  if (card === 'canceled') return { ok: 'No card was saved.' };
  if (card === 'saved') return (await deps.view.autoRechargeOf(ctx.actor)).hasCard ? { ok: 'Your card is saved.' } : { ok: 'Thank you: your card is being confirmed.' };
  const auto = param(ctx, 'auto_recharge');
  if (auto === 'on') return { ok: 'Automatic top-ups are on.' };
  if (auto === 'off') return { ok: 'Automatic top-ups are off.' };
  const topup = param(ctx, 'topup');
  if (topup === 'canceled') return { ok: 'Checkout canceled: nothing was charged.' };
  if (topup !== 'done') return {};
  const session = param(ctx, 'session');
  const outcome = session && /^[A-Za-z0-9_]{1,200}$/.test(session) ? await deps.payments.topUpOutcome(ctx.tenant.api.id, ctx.membership.customer_id, session) : null;
  if (!outcome) return { ok: 'Thank you: your payment is being confirmed.' };
  return outcome.state === 'credited'
    ? { ok: `Payment received: ${formatCents(outcome.amountCents)}. ${formatMicro(outcome.amountCents * 10_000)} was added to your balance.` }
    : { ok: `Thank you: your payment of ${formatCents(outcome.amountCents)} is being confirmed. Your balance shows it once the payment provider confirms it.` };
}

/** Buttons for the owner's amounts and a custom amount of at least the minimum. */
function topUpForms(ctx: PortalContext): SafeHtml {
  const api = ctx.tenant.api;
  const offered = api.topup_amounts_cents.filter((cents) => cents >= api.min_topup_cents && cents <= MAX_TOPUP_CENTS);
  return html`${offered.length
    ? html`<form method="post" action="/billing/topup" class="row" id="topup-amounts">${csrfInput(ctx.csrf)}${offered.map((cents) => html`<button type="submit" name="amount_cents" value="${cents}" id="topup-${cents}">${formatCents(cents)}</button>`)}</form>`
    : ''}
<form method="post" action="/billing/topup" class="row" id="topup-custom-form">${csrfInput(ctx.csrf)}
<div><label for="custom-amount">${offered.length ? 'Another amount' : 'Amount'} (${formatCents(api.min_topup_cents)} to ${formatCents(MAX_TOPUP_CENTS)})</label><input type="text" id="custom-amount" name="amount" inputmode="decimal" required placeholder="${(api.min_topup_cents / 100).toFixed(2)}"></div>
<button type="submit" id="topup-custom">Buy credit</button></form>
<p class="note">You pay on the payment provider's page and come back here. 1.00 of credit costs $1.00.</p>`;
}

function topUpSection(ctx: PortalContext, ready: boolean): SafeHtml {
  const api = ctx.tenant.api;
  if (!api.payg_enabled) return html`<p class="note" id="topup-unavailable">${api.name} does not sell prepaid credit.</p>`;
  if (!ready) return html`<p class="note" id="topup-unavailable">Buying credit online is not available yet. Ask the team of ${api.name} to add credit.</p>`;
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return html`<p class="note" id="topup-members-only">Owners and admins of ${ctx.membership.name} buy credit.</p>`;
  return topUpForms(ctx);
}

/** A refund or dispute of a payment, under its amount (issue 23: the receipts list shows the refund). */
function reversalNote(r: { refundedCents: number; disputeStatus: string | null }): SafeHtml | string {
  const notes = [
    ...(r.refundedCents > 0 ? [`refunded ${formatCents(r.refundedCents)}`] : []),
    ...(r.disputeStatus ? [r.disputeStatus === 'open' ? 'disputed' : `dispute ${r.disputeStatus}`] : []),
  ];
  return notes.length ? html`<br><span class="note reversal">${notes.join(' · ')}</span>` : '';
}

async function receiptsTable(deps: PortalDeps, ctx: PortalContext): Promise<SafeHtml> {
  const receipts = await deps.payments.receipts.list(ctx.tenant.api.id, ctx.membership.customer_id);
  if (receipts.length === 0) return html`<p class="note" id="no-receipts">No payments yet.</p>`;
  const what = (r: (typeof receipts)[number]) => (r.kind === 'topup' ? 'Top-up' : r.kind === 'auto_recharge' ? 'Automatic top-up' : r.description || 'Plan');
  // A plan invoice's link is the provider's invoice page; a top-up's, its receipt.
  const rows = receipts.map((r) => html`<tr id="receipt-${r.ref}" data-kind="${r.kind}"><td>${formatTime(r.at)}</td><td>${what(r)}</td>
<td class="num">${formatCents(r.amountCents)}${reversalNote(r)}</td><td class="num credit">+${formatMicro(r.creditMicro)}</td>
<td>${r.receiptUrl ? html`<a href="${r.receiptUrl}" rel="noopener" class="receipt-link">${r.kind === 'plan' ? 'Invoice' : 'Receipt'}</a>` : html`<span class="note">${r.kind === 'plan' ? 'at the provider' : 'being prepared'}</span>`}</td></tr>`);
  return html`<table id="receipts-table"><thead><tr><th scope="col">Paid</th><th scope="col">What</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Credit</th><th scope="col">Receipt</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/**
 * Billing (issue 13): the balance, buying credit (the owner's amounts or a custom one, paid on the
 * provider's page), automatic top-ups, and receipts. Owners and admins pay; members read.
 */
export async function billingPage(deps: PortalDeps, ctx: PortalContext, notice: Notice = {}) {
  const api = ctx.tenant.api;
  const shown = notice.error || notice.ok ? notice : await returnNotice(deps, ctx);
  const [overview, ready] = await Promise.all([deps.view.overview(api, ctx.membership.customer_id), deps.payments.ready(api.id)]);
  if (!overview) return ctx.page({ title: 'Billing', active: '/billing', status: 404, body: html`<h1>Billing</h1><p>This customer no longer exists.</p>` });
  // Forms that start a checkout are answered with a redirect to the provider's page, which the
  // CSP must allow; without one the page keeps the strict form-action 'self'.
  const checkout = ready && customerRoleMay.manageBilling(ctx.membership.role) && (api.payg_enabled || api.auto_recharge_allowed);
  const origin = checkout ? deps.payments.checkoutOrigin : null;
  return ctx.page({
    title: 'Billing',
    active: '/billing',
    status: notice.status ?? 200,
    ...(origin ? { formActions: [origin] } : {}),
    body: html`<h1>Billing</h1>
${errorBox(shown.error ?? null)}${shown.ok ? html`<p class="ok" role="status" id="billing-notice">${shown.ok}</p>` : ''}
<div class="cards"><div class="card"><div class="label">Balance</div><div class="value" id="balance">${formatMicro(overview.balanceMicro)}</div></div></div>
<h2>Buy credit</h2>
${topUpSection(ctx, ready)}
${await autoRechargeSection(deps, ctx, ready)}
<h2>Payments</h2>
${await receiptsTable(deps, ctx)}`,
  });
}

/**
 * "10", "10.5", "10.50" or "$1,000.00" in dollars → cents, on integers; null when not an amount.
 * Exported for the auto-recharge form, which takes its amount the same way.
 */
export function parseDollars(value: string): number | null {
  const match = /^\$?((?:\d{1,3}(?:,\d{3})+)|\d{1,9})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]!.replace(/,/g, '')) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/** The amount of a top-up form: a button's amount_cents or the typed amount. */
function amountOf(body: FormBody): number | null {
  const button = text(body, 'amount_cents');
  if (button) return /^\d{1,9}$/.test(button) ? Number(button) : null;
  return parseDollars(text(body, 'amount'));
}

/** Starts a top-up checkout and sends the browser to the provider's page. */
export async function startTopUp(deps: PortalDeps, ctx: PortalContext, body: FormBody) {
  const api = ctx.tenant.api;
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return billingPage(deps, ctx, { error: 'Only owners and admins buy credit.', status: 403 });
  const cents = amountOf(body);
  if (cents === null || cents < api.min_topup_cents || cents > MAX_TOPUP_CENTS) {
    return billingPage(deps, ctx, { error: `Enter an amount from ${formatCents(api.min_topup_cents)} to ${formatCents(MAX_TOPUP_CENTS)}.`, status: 400 });
  }
  const back = `${ctx.tenant.issuer}/billing`;
  const started = await deps.payments
    .checkoutTopUp({
      apiId: api.id, customerId: ctx.membership.customer_id, amountCents: cents,
      successUrl: `${back}?topup=done&session={CHECKOUT_SESSION_ID}`, cancelUrl: `${back}?topup=canceled`,
      payer: { personId: ctx.actor.person.id, email: ctx.actor.person.email },
    })
    .catch((error: unknown) => {
      if (error instanceof Problem) return { ok: false as const, code: error.code, detail: error.detail };
      throw error;
    });
  if (!started.ok) return billingPage(deps, ctx, { error: started.detail ?? 'The checkout could not start. Try again.', status: refusalStatus(started.code) });
  return ctx.reply.redirect(started.value.url, 303);
}
