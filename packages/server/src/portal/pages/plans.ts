import { html, type SafeHtml } from '../../platform/pages/html.js';
import { effectiveLimits } from '../../customers/effective.js';
import type { PlansTable } from '../../plans/tables.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { formatCents, formatCount, formatMicro } from '../format.js';

type Plan = PlansTable;

/**
 * What a customer can do about a plan. Until subscriptions arrive (payments), they ask the API's
 * team by mail; a subscribe button replaces this, one plan at a time, without touching the cards.
 */
export function planAction(ctx: PortalContext, plan: Plan, current: boolean): SafeHtml {
  if (current) return html`<p class="plan-action note">You are on this plan.</p>`;
  const support = ctx.tenant.api.support_email;
  if (!support) return html`<p class="plan-action note">Ask the team of ${ctx.tenant.api.name} to put you on this plan.</p>`;
  const subject = `Plan ${plan.name} for ${ctx.membership.name}`;
  return html`<p class="plan-action"><a class="button secondary" id="ask-${plan.id}" href="mailto:${support}?subject=${encodeURIComponent(subject)}">Ask for this plan</a></p>`;
}

/** The plan's terms in words; a limit the plan leaves empty is the API's own. */
function terms(ctx: PortalContext, plan: Plan): SafeHtml {
  const limits = effectiveLimits({ api: ctx.tenant.api, plan, custom: { price_per_request_micro: null, rps: null, monthly_quota: null } });
  const lines = [
    plan.credit_micro > 0 ? html`<li>${formatMicro(plan.credit_micro)} of credit every month</li>` : null,
    html`<li>${limits.price_per_request_micro > 0 ? html`${formatMicro(limits.price_per_request_micro)} per billable request` : 'Requests are not charged'}</li>`,
    html`<li>${limits.rps === 0 ? 'No rate limit' : `Up to ${formatCount(limits.rps)} requests a second`}</li>`,
    html`<li>${limits.monthly_quota === null ? 'No monthly quota' : `${formatCount(limits.monthly_quota)} requests a month`}</li>`,
  ];
  return html`<ul class="terms">${lines}</ul>`;
}

function planCard(ctx: PortalContext, plan: Plan, current: boolean): SafeHtml {
  return html`<section class="card plan${current ? ' current' : ''}" id="plan-${plan.id}" aria-labelledby="plan-${plan.id}-name">
<h2 id="plan-${plan.id}-name">${plan.name}${current ? html` <span class="badge">Your plan</span>` : ''}</h2>
<p class="price"><span class="amount">${formatCents(plan.price_monthly_cents)}</span> a month</p>
${plan.description ? html`<p class="description">${plan.description}</p>` : ''}
${terms(ctx, plan)}
${planAction(ctx, plan, current)}</section>`;
}

/** The API's public, active plans with their price, credit and limits, when the API offers plans. */
export async function plansPage(deps: PortalDeps, ctx: PortalContext) {
  const api = ctx.tenant.api;
  if (!api.plans_enabled) {
    return ctx.page({ title: 'Plans', active: '/plans', body: html`<h1>Plans</h1><p id="no-plans">${api.name} does not offer plans: you pay for what you use, at the price on your <a href="/">overview</a>.</p>` });
  }
  const [plans, currentId] = await Promise.all([deps.plans.offered(api.id), deps.view.planIdOf(ctx.actor)]);
  const how = api.support_email
    ? html`To change your plan, write to <a href="mailto:${api.support_email}">${api.support_email}</a>.`
    : html`To change your plan, ask the team of ${api.name}.`;
  return ctx.page({
    title: 'Plans',
    active: '/plans',
    body: html`<h1>Plans</h1>
${plans.length === 0
  ? html`<p id="no-plans">${api.name} offers no plans right now.</p>`
  : html`<p class="note">Subscribing online is coming soon. ${how}</p><div class="plans">${plans.map((plan) => planCard(ctx, plan, plan.id === currentId))}</div>`}`,
  });
}
