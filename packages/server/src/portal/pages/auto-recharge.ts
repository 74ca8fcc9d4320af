import { html, type SafeHtml } from '../../platform/pages/html.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { text, type FormBody } from '../../platform/pages/forms.js';
import { Problem } from '../../platform/errors.js';
import { customerRoleMay } from '../../customers/members.js';
import { MAX_THRESHOLD_MICRO } from '../../payments/auto-recharge.js';
import { MAX_TOPUP_CENTS } from '../../payments/service.js';
import { refusalStatus, type PortalContext, type PortalDeps } from '../context.js';
import { formatCents, formatMicro, formatTime } from '../../platform/format.js';
import { billingPage, parseDollars } from './billing.js';

/** "5", "5.5" or "1,000.000001" credit units → micro units, on integers; null when not an amount. */
export function parseCredit(value: string): number | null {
  const match = /^((?:\d{1,3}(?:,\d{3})+)|\d{1,9})(?:\.(\d{1,6}))?$/.exec(value.trim());
  if (!match) return null;
  return Number(match[1]!.replace(/,/g, '')) * 1_000_000 + Number((match[2] ?? '0').padEnd(6, '0'));
}

/** Credit units as a form shows them again: 5000000 → "5.00". */
const creditInput = (micro: number) => formatMicro(micro).replace(/,/g, '');

/**
 * The billing page's automatic top-ups: the saved card, the threshold and the amount. Shown when
 * the API allows them; owners and admins change them, members read them.
 */
export async function autoRechargeSection(deps: PortalDeps, ctx: PortalContext, ready: boolean): Promise<SafeHtml> {
  const api = ctx.tenant.api;
  if (!api.auto_recharge_allowed) return html``;
  const customer = await deps.view.autoRechargeOf(ctx.actor);
  const heading = html`<h2>Automatic top-ups</h2>`;
  if (!ready) return html`${heading}<p class="note" id="auto-recharge-unavailable">Automatic top-ups are not available yet.</p>`;
  const state = customer.enabled
    ? html`<p id="auto-recharge-state">On: when the balance falls below ${formatMicro(customer.thresholdMicro)}, the saved card is charged ${formatCents(customer.amountCents)}.</p>`
    : html`<p id="auto-recharge-state">Off.</p>`;
  const failed = customer.failedAt
    ? html`<p class="warning" id="auto-recharge-failed">The automatic top-up of ${formatTime(customer.failedAt)} failed: automatic top-ups are paused. Save a card again, or save these settings to try the card again.</p>`
    : '';
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return html`${heading}${failed}${state}<p class="note">Owners and admins of ${ctx.membership.name} change these.</p>`;
  const amounts = deps.payments.autoRecharge.amountBounds(api, MAX_TOPUP_CENTS);
  const card = customer.hasCard
    ? html`<p id="card-state">A card is saved for automatic top-ups.</p><form method="post" action="/billing/card" class="inline">${csrfInput(ctx.csrf)}<button type="submit" class="secondary" id="save-card">Save another card</button></form>`
    : html`<p id="card-state">No card saved yet: save one to turn automatic top-ups on.</p><form method="post" action="/billing/card" class="inline">${csrfInput(ctx.csrf)}<button type="submit" id="save-card">Save a card</button></form>`;
  return html`${heading}${failed}${state}${card}
<form method="post" action="/billing/auto-recharge" id="auto-recharge-form">${csrfInput(ctx.csrf)}
<label><input type="checkbox" name="enabled" value="on" id="auto-recharge-enabled"${customer.enabled ? html` checked` : ''}> Top up automatically</label>
<label for="auto-recharge-threshold">When the balance falls below (0.00 to ${formatMicro(MAX_THRESHOLD_MICRO)})</label>
<input type="text" id="auto-recharge-threshold" name="threshold" inputmode="decimal" required value="${creditInput(customer.enabled || customer.thresholdMicro > 0 ? customer.thresholdMicro : api.low_balance_micro)}">
<label for="auto-recharge-amount">Charge the card (${formatCents(amounts.min)} to ${formatCents(amounts.max)})</label>
<input type="text" id="auto-recharge-amount" name="amount" inputmode="decimal" required value="${((customer.amountCents || Math.max(amounts.min, api.topup_amounts_cents[0] ?? amounts.min)) / 100).toFixed(2)}">
<button type="submit" id="auto-recharge-save">Save</button></form>`;
}

/** Starts the provider's page that saves a card for off-session charges. */
export async function startCardSetup(deps: PortalDeps, ctx: PortalContext) {
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return billingPage(deps, ctx, { error: 'Only owners and admins save cards.', status: 403 });
  const back = `${ctx.tenant.issuer}/billing`;
  const started = await deps.payments
    .checkoutCardSetup({ apiId: ctx.tenant.api.id, customerId: ctx.membership.customer_id, successUrl: `${back}?card=saved`, cancelUrl: `${back}?card=canceled`, payer: { personId: ctx.actor.person.id, email: ctx.actor.person.email } })
    .catch((error: unknown) => {
      if (error instanceof Problem) return { ok: false as const, code: error.code, detail: error.detail };
      throw error;
    });
  if (!started.ok) return billingPage(deps, ctx, { error: started.detail ?? 'The card could not be saved. Try again.', status: refusalStatus(started.code) });
  return ctx.reply.redirect(started.value.url, 303);
}

/** Saves the threshold and amount, and turns automatic top-ups on or off. */
export async function saveAutoRecharge(deps: PortalDeps, ctx: PortalContext, body: FormBody) {
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return billingPage(deps, ctx, { error: 'Only owners and admins change automatic top-ups.', status: 403 });
  const amounts = deps.payments.autoRecharge.amountBounds(ctx.tenant.api, MAX_TOPUP_CENTS);
  const threshold = parseCredit(text(body, 'threshold'));
  if (threshold === null || threshold > MAX_THRESHOLD_MICRO) return billingPage(deps, ctx, { error: `Enter a balance from 0.00 to ${formatMicro(MAX_THRESHOLD_MICRO)}.`, status: 400 });
  const amount = parseDollars(text(body, 'amount'));
  if (amount === null || amount < amounts.min || amount > amounts.max) return billingPage(deps, ctx, { error: `Enter an amount from ${formatCents(amounts.min)} to ${formatCents(amounts.max)}.`, status: 400 });
  const saved = await deps.payments.autoRecharge.save(ctx.actor, { enabled: text(body, 'enabled') === 'on', thresholdMicro: threshold, amountCents: amount }, MAX_TOPUP_CENTS);
  if (!saved.ok) return billingPage(deps, ctx, { error: saved.detail ?? 'The settings could not be saved.', status: saved.code === 'validation' ? 400 : 409 });
  return ctx.reply.redirect(`/billing?auto_recharge=${saved.value.enabled ? 'on' : 'off'}`, 303);
}
