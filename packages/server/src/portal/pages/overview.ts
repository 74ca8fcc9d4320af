import { html } from '../../platform/pages/html.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { formatCount, formatMicro } from '../../platform/format.js';

/** Balance, this month's requests and charges, effective limits and plan; a line when the balance is low. */
export async function overviewPage(deps: PortalDeps, ctx: PortalContext) {
  const overview = await deps.view.overview(ctx.tenant.api, ctx.membership.customer_id);
  if (!overview) return ctx.page({ title: 'Overview', active: '/', body: html`<h1>Overview</h1><p>This customer no longer exists.</p>`, status: 404 });
  const { effective } = overview;
  const limits = [
    html`<tr><th>Price per billable request</th><td class="num">${formatMicro(effective.price_per_request_micro)}</td></tr>`,
    html`<tr><th>Requests per second</th><td class="num">${effective.rps === 0 ? 'no limit' : formatCount(effective.rps)}</td></tr>`,
    html`<tr><th>Requests per month</th><td class="num">${effective.monthly_quota === undefined || effective.monthly_quota === 0 ? 'no limit' : formatCount(effective.monthly_quota)}</td></tr>`,
    html`<tr><th>Billing</th><td class="num">${{ payg: 'pay as you go', subscription: 'subscription', none: 'not billed per request' }[effective.billing_model]}</td></tr>`,
  ];
  return ctx.page({
    title: 'Overview',
    active: '/',
    body: html`<h1>${overview.name}</h1>
${overview.lowBalance ? html`<p class="warning" id="low-balance">Your balance is below ${formatMicro(overview.lowBalanceMicro)}. Requests stop when it runs out.</p>` : ''}
<div class="cards">
<div class="card"><div class="label">Balance</div><div class="value" id="balance">${formatMicro(overview.balanceMicro)}</div></div>
<div class="card"><div class="label">Requests this month</div><div class="value" id="month-requests">${formatCount(overview.monthRequests)}</div></div>
<div class="card"><div class="label">Charged this month</div><div class="value" id="month-charged">${formatMicro(overview.monthChargedMicro)}</div></div>
<div class="card"><div class="label">Plan</div><div class="value">${overview.planName ?? 'None'}</div></div>
</div>
<h2>Your limits</h2>
<table>${limits}</table>
<p class="note">Amounts are in credit units (1.00 = 1,000,000 micro units). Counts update as the API reports usage.</p>`,
  });
}
