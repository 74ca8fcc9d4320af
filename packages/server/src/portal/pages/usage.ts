import { html } from '../../platform/pages/html.js';
import { USAGE_DAYS, type UsageDay } from '../../customers/portal-view.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { barChart, legend } from '../chart.js';
import { formatCount, formatMicro } from '../../platform/format.js';

const sum = (days: UsageDay[], pick: (day: UsageDay) => number) => days.reduce((total, day) => total + pick(day), 0);

/**
 * The customer's last 30 UTC days: totals, a chart of requests (all, billable, errors), a chart
 * of charges, and the same numbers as a table, newest day first.
 */
export async function usagePage(deps: PortalDeps, ctx: PortalContext) {
  const days = await deps.view.usage(ctx.actor);
  const dayNames = days.map((d) => d.day);
  const from = days[0]!.day;
  const to = days.at(-1)!.day;
  const requests = barChart({
    id: 'requests-chart',
    title: `Requests per day, ${from} to ${to} (UTC)`,
    description: `Requests of each day: all of them, the billable ones and errors (status 500 and above). ${formatCount(sum(days, (d) => d.requests))} requests in all; the table below lists every day.`,
    days: dayNames,
    series: [
      { label: 'requests', className: 'bar-requests', values: days.map((d) => d.requests) },
      { label: 'billable', className: 'bar-billable', values: days.map((d) => d.billable) },
      { label: 'errors', className: 'bar-errors', values: days.map((d) => d.errors) },
    ],
    format: formatCount,
  });
  const charges = barChart({
    id: 'charges-chart',
    title: `Charges per day, ${from} to ${to} (UTC)`,
    description: `What the billable requests of each day cost, ${formatMicro(sum(days, (d) => d.chargedMicro))} in all; the table below lists every day.`,
    days: dayNames,
    series: [{ label: 'charged', className: 'bar-charged', values: days.map((d) => d.chargedMicro) }],
    format: formatMicro,
  });
  // Days without usage are dimmed, so the days with some stand out in a month of rows.
  const rows = [...days].reverse().map((d) => html`<tr${d.requests === 0 ? html` class="quiet"` : ''}><td>${d.day}</td><td class="num">${formatCount(d.requests)}</td><td class="num">${formatCount(d.billable)}</td><td class="num">${formatCount(d.errors)}</td><td class="num">${formatMicro(d.chargedMicro)}</td></tr>`);
  return ctx.page({
    title: 'Usage',
    active: '/usage',
    body: html`<h1>Usage</h1>
<p class="note">The last ${USAGE_DAYS} days in UTC, today included. Requests show up here once the API reports them, usually within seconds.</p>
<div class="cards">
<div class="card"><div class="label">Requests</div><div class="value" id="total-requests">${formatCount(sum(days, (d) => d.requests))}</div></div>
<div class="card"><div class="label">Billable</div><div class="value" id="total-billable">${formatCount(sum(days, (d) => d.billable))}</div></div>
<div class="card"><div class="label">Errors</div><div class="value" id="total-errors">${formatCount(sum(days, (d) => d.errors))}</div></div>
<div class="card"><div class="label">Charged</div><div class="value" id="total-charged">${formatMicro(sum(days, (d) => d.chargedMicro))}</div></div>
</div>
<h2>Requests</h2>
${legend([{ label: 'All requests', className: 'bar-requests' }, { label: 'Billable', className: 'bar-billable' }, { label: 'Errors (5xx)', className: 'bar-errors' }])}
<figure class="chart">${requests}</figure>
<h2>Charges</h2>
<figure class="chart">${charges}</figure>
<h2>By day</h2>
<table id="usage-table"><thead><tr><th scope="col">Day (UTC)</th><th scope="col" class="num">Requests</th><th scope="col" class="num">Billable</th><th scope="col" class="num">Errors</th><th scope="col" class="num">Charged</th></tr></thead>
<tbody>${rows}</tbody></table>`,
  });
}
