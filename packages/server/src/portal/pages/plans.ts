import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { Problem } from '../../platform/errors.js';
import { customerRoleMay } from '../../customers/members.js';
import { effectiveLimits } from '../../customers/effective.js';
import type { CustomerPortalView } from '../../customers/portal-view.js';
import type { PlansTable } from '../../plans/tables.js';
import { refusalStatus, type PortalContext, type PortalDeps } from '../context.js';
import { formatCents, formatCount, formatDay, formatMicro } from '../../platform/format.js';

type Plan = PlansTable;
type Subscription = Awaited<ReturnType<CustomerPortalView['subscriptionOf']>>;

interface Notice {
  error?: string;
  ok?: string;
  status?: number;
}

/** What the page knows of the customer: its subscription, and whether this person may buy online. */
interface PlanState {
  subscription: Subscription;
  /** The owner's account takes charges. */
  ready: boolean;
  /** This person may subscribe, switch and cancel (owners and admins, while payments are ready). */
  online: boolean;
}

async function stateOf(deps: PortalDeps, ctx: PortalContext): Promise<PlanState> {
  const [subscription, ready] = await Promise.all([deps.view.subscriptionOf(ctx.actor), deps.payments.ready(ctx.tenant.api.id)]);
  return { subscription, ready, online: ready && customerRoleMay.manageBilling(ctx.membership.role) };
}

/** How to ask the API's team for a plan (no online payments, or a free plan). */
function askAction(ctx: PortalContext, plan: Plan): SafeHtml {
  const support = ctx.tenant.api.support_email;
  if (!support) return html`<p class="plan-action note">Ask the team of ${ctx.tenant.api.name} to put you on this plan.</p>`;
  const subject = `Plan ${plan.name} for ${ctx.membership.name}`;
  return html`<p class="plan-action"><a class="button secondary" id="ask-${plan.id}" href="mailto:${support}?subject=${encodeURIComponent(subject)}">Ask for this plan</a></p>`;
}

/** The current plan's subscription: when it renews or ends, and how to cancel or keep it. */
function currentAction(ctx: PortalContext, plan: Plan, state: PlanState): SafeHtml {
  const sub = state.subscription;
  if (!sub.subscribed) return html`<p class="plan-action note">You are on this plan.</p>`;
  const until = sub.periodEnd ? formatDay(sub.periodEnd) : null;
  const line = sub.status === 'past_due'
    ? html`<p class="plan-action warning" id="subscription-state">The last payment failed: update your card with the payment provider to keep this plan.</p>`
    : sub.cancelAtPeriodEnd
      ? html`<p class="plan-action note" id="subscription-state">Canceled: you keep this plan${until ? ` until ${until}` : ''}.</p>`
      : html`<p class="plan-action note" id="subscription-state">Subscribed${until ? `, renews ${until}` : ''}.</p>`;
  if (!state.online) return line;
  const action = sub.cancelAtPeriodEnd
    ? html`<form method="post" action="/plans/${plan.id}/switch" class="inline">${csrfInput(ctx.csrf)}<button type="submit" class="secondary" id="keep-subscription">Keep my subscription</button></form>`
    : html`<a class="danger" href="/plans/cancel" id="cancel-subscription">Cancel subscription</a>`;
  return html`${line}<p class="plan-action">${action}</p>`;
}

/**
 * What a customer can do about a plan: subscribe (checkout on the provider's page), switch an
 * existing subscription, or, without online payments (or for a free plan), ask the team by mail.
 */
export function planAction(ctx: PortalContext, plan: Plan, current: boolean, state: PlanState): SafeHtml {
  if (current) return currentAction(ctx, plan, state);
  if (plan.price_monthly_cents <= 0 || !state.ready) return askAction(ctx, plan);
  if (!state.online) return html`<p class="plan-action note">Owners and admins of ${ctx.membership.name} subscribe.</p>`;
  if (state.subscription.subscribed) return html`<p class="plan-action"><a class="button secondary" href="/plans/${plan.id}/switch" id="switch-${plan.id}">Switch to this plan</a></p>`;
  return html`<form method="post" action="/plans/${plan.id}/subscribe" class="plan-action">${csrfInput(ctx.csrf)}<button type="submit" id="subscribe-${plan.id}">Subscribe</button></form>`;
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

function planCard(ctx: PortalContext, plan: Plan, state: PlanState): SafeHtml {
  const current = plan.id === state.subscription.planId;
  return html`<section class="card plan${current ? ' current' : ''}" id="plan-${plan.id}" aria-labelledby="plan-${plan.id}-name">
<h2 id="plan-${plan.id}-name">${plan.name}${current ? html` <span class="badge">Your plan</span>` : ''}</h2>
<p class="price"><span class="amount">${formatCents(plan.price_monthly_cents)}</span> a month</p>
${plan.description ? html`<p class="description">${plan.description}</p>` : ''}
${terms(ctx, plan)}
${planAction(ctx, plan, current, state)}</section>`;
}

/** A query parameter when it is one string. */
function param(ctx: PortalContext, name: string): string | null {
  const value = (ctx.request.query as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
}

/** What the customer comes back to: a checkout, a switch or a cancellation. */
async function returnNotice(deps: PortalDeps, ctx: PortalContext, state: PlanState): Promise<Notice> {
  const plan = state.subscription.planId ? await deps.plans.find(deps.db, ctx.tenant.api.id, state.subscription.planId) : undefined;
  const subscribe = param(ctx, 'subscribe');
  if (subscribe === 'canceled') return { ok: 'Checkout canceled: nothing was charged.' };
  if (subscribe === 'done') {
    return state.subscription.subscribed && plan
      ? { ok: `Subscribed to ${plan.name}.${plan.credit_micro > 0 ? ` Its ${formatMicro(plan.credit_micro)} of credit comes with every paid invoice.` : ''}` }
      : { ok: 'Thank you: your subscription is being confirmed.' };
  }
  const done = param(ctx, 'done');
  if (done === 'switched') return { ok: plan ? `Your plan is now ${plan.name}.` : 'Your plan change is being confirmed.' };
  if (done === 'kept') return { ok: 'Your subscription continues.' };
  if (done === 'canceled') {
    const until = state.subscription.periodEnd ? ` You keep ${plan?.name ?? 'your plan'} until ${formatDay(state.subscription.periodEnd)}.` : '';
    return { ok: `Your subscription is canceled.${until}` };
  }
  return {};
}

/**
 * A subscribe form is answered with a redirect to the provider's checkout page, which the CSP
 * must allow; pages without one keep the strict form-action 'self'.
 */
const formActions = (deps: PortalDeps, state: PlanState) =>
  state.online && !state.subscription.subscribed && deps.payments.checkoutOrigin ? { formActions: [deps.payments.checkoutOrigin] } : {};

/** The API's public, active plans (and the customer's own, even private), when the API offers plans. */
export async function plansPage(deps: PortalDeps, ctx: PortalContext, notice: Notice = {}) {
  const api = ctx.tenant.api;
  if (!api.plans_enabled) {
    return ctx.page({ title: 'Plans', active: '/plans', body: html`<h1>Plans</h1><p id="no-plans">${api.name} does not offer plans: you pay for what you use, at the price on your <a href="/">overview</a>.</p>` });
  }
  const [offered, state] = await Promise.all([deps.plans.offered(api.id), stateOf(deps, ctx)]);
  const own = state.subscription.planId && !offered.some((p) => p.id === state.subscription.planId) ? await deps.plans.find(deps.db, api.id, state.subscription.planId) : undefined;
  const plans = own ? [...offered, own] : offered;
  const shown = notice.error || notice.ok ? notice : await returnNotice(deps, ctx, state);
  const how = api.support_email
    ? html`To change your plan, write to <a href="mailto:${api.support_email}">${api.support_email}</a>.`
    : html`To change your plan, ask the team of ${api.name}.`;
  return ctx.page({
    title: 'Plans',
    active: '/plans',
    status: notice.status ?? 200,
    ...formActions(deps, state),
    body: html`<h1>Plans</h1>
${errorBox(shown.error ?? null)}${shown.ok ? html`<p class="ok" role="status" id="plans-notice">${shown.ok}</p>` : ''}
${plans.length === 0
  ? html`<p id="no-plans">${api.name} offers no plans right now.</p>`
  : html`${state.ready ? '' : html`<p class="note">Subscribing online is not available yet. ${how}</p>`}<div class="plans">${plans.map((plan) => planCard(ctx, plan, state))}</div>`}`,
  });
}

/** An active plan of the API by id: any visibility, so a private plan's link works. */
async function linkedPlan(deps: PortalDeps, ctx: PortalContext, planId: string): Promise<Plan | null> {
  if (!ctx.tenant.api.plans_enabled || !/^[A-Za-z0-9_]{1,64}$/.test(planId)) return null;
  const plan = await deps.plans.find(deps.db, ctx.tenant.api.id, planId);
  return plan && plan.active ? plan : null;
}

/** One plan, as the link the owner copies from the console shows it (private plans included). */
export async function planPage(deps: PortalDeps, ctx: PortalContext, planId: string) {
  const plan = await linkedPlan(deps, ctx, planId);
  if (!plan) return plansPage(deps, ctx, { error: 'This plan is not offered.', status: 404 });
  const state = await stateOf(deps, ctx);
  return ctx.page({
    title: plan.name,
    active: '/plans',
    ...formActions(deps, state),
    body: html`<h1>${plan.name}</h1>${plan.visibility === 'private' ? html`<p class="note" id="private-plan">A plan ${ctx.tenant.api.name} offers you by this link.</p>` : ''}
<div class="plans">${planCard(ctx, plan, state)}</div><p><a href="/plans">All plans</a></p>`,
  });
}

/** Refusals of the payments service as a page; a provider that did not answer is a 502. */
async function refused<T>(deps: PortalDeps, ctx: PortalContext, call: () => Promise<{ ok: true; value: T } | { ok: false; code: string; detail?: string }>) {
  const result = await call().catch((error: unknown) => {
    if (error instanceof Problem) return { ok: false as const, code: error.code, detail: error.detail };
    throw error;
  });
  if (result.ok) return { value: result.value };
  return { page: await plansPage(deps, ctx, { error: result.detail ?? 'That did not work. Try again.', status: refusalStatus(result.code) }) };
}

const billingOnly = (deps: PortalDeps, ctx: PortalContext) => plansPage(deps, ctx, { error: 'Only owners and admins change the plan.', status: 403 });

/** Starts the provider's checkout of a plan's subscription. */
export async function subscribe(deps: PortalDeps, ctx: PortalContext, planId: string) {
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return billingOnly(deps, ctx);
  const plan = await linkedPlan(deps, ctx, planId);
  if (!plan) return plansPage(deps, ctx, { error: 'This plan is not offered.', status: 404 });
  const back = `${ctx.tenant.issuer}${plan.visibility === 'private' ? `/plans/${plan.id}` : '/plans'}`;
  const started = await refused(deps, ctx, () => deps.payments.checkoutSubscription({
    apiId: ctx.tenant.api.id, customerId: ctx.membership.customer_id, planId: plan.id,
    successUrl: `${ctx.tenant.issuer}/plans?subscribe=done`, cancelUrl: `${back}?subscribe=canceled`,
    payer: { personId: ctx.actor.person.id, email: ctx.actor.person.email },
  }));
  return started.page ?? ctx.reply.redirect(started.value.url, 303);
}

/** Asks before switching: the provider charges the difference for the rest of the period. */
export async function switchConfirmPage(deps: PortalDeps, ctx: PortalContext, planId: string) {
  const [plan, state] = await Promise.all([linkedPlan(deps, ctx, planId), stateOf(deps, ctx)]);
  if (!plan) return plansPage(deps, ctx, { error: 'This plan is not offered.', status: 404 });
  if (!state.subscription.subscribed) return plansPage(deps, ctx, { error: 'You have no subscription to switch: subscribe to a plan instead.', status: 409 });
  const from = state.subscription.planId ? await deps.plans.find(deps.db, ctx.tenant.api.id, state.subscription.planId) : undefined;
  return ctx.page({
    title: 'Switch plan',
    active: '/plans',
    body: html`<h1>Switch to ${plan.name}?</h1>
<p>From ${from?.name ?? 'your plan'} to ${plan.name} at ${formatCents(plan.price_monthly_cents)} a month. The payment provider charges or credits the difference for the rest of this period; ${plan.name}'s limits apply once it confirms.</p>
<form method="post" action="/plans/${plan.id}/switch" class="row">${csrfInput(ctx.csrf)}<button type="submit" id="confirm-switch">Switch plan</button><a href="/plans" class="cancel">Keep ${from?.name ?? 'my plan'}</a></form>`,
  });
}

/** Moves the subscription to another plan (or back from a cancellation: the same plan). */
export async function switchPlan(deps: PortalDeps, ctx: PortalContext, planId: string) {
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return billingOnly(deps, ctx);
  const plan = await linkedPlan(deps, ctx, planId);
  if (!plan) return plansPage(deps, ctx, { error: 'This plan is not offered.', status: 404 });
  const current = (await deps.view.subscriptionOf(ctx.actor)).planId;
  const switched = await refused(deps, ctx, () => deps.payments.switchSubscription({ apiId: ctx.tenant.api.id, customerId: ctx.membership.customer_id, planId: plan.id }));
  return switched.page ?? ctx.reply.redirect(`/plans?done=${current === plan.id ? 'kept' : 'switched'}`, 303);
}

/** Asks before cancelling: the plan stays until the end of the paid period. */
export async function cancelConfirmPage(deps: PortalDeps, ctx: PortalContext) {
  const state = await stateOf(deps, ctx);
  const plan = state.subscription.planId ? await deps.plans.find(deps.db, ctx.tenant.api.id, state.subscription.planId) : undefined;
  if (!state.subscription.subscribed || !plan) return plansPage(deps, ctx, { error: 'You have no subscription to cancel.', status: 409 });
  const until = state.subscription.periodEnd ? formatDay(state.subscription.periodEnd) : 'the end of the paid period';
  return ctx.page({
    title: 'Cancel subscription',
    active: '/plans',
    body: html`<h1>Cancel ${plan.name}?</h1>
<p>You keep ${plan.name} and its limits until ${until}; nothing more is charged. After that, the limits and prices of ${ctx.tenant.api.name} without a plan apply.</p>
<form method="post" action="/plans/cancel" class="row">${csrfInput(ctx.csrf)}<button type="submit" class="danger" id="confirm-cancel">Cancel subscription</button><a href="/plans" class="cancel">Keep it</a></form>`,
  });
}

export async function cancelSubscription(deps: PortalDeps, ctx: PortalContext) {
  if (!customerRoleMay.manageBilling(ctx.membership.role)) return billingOnly(deps, ctx);
  const canceled = await refused(deps, ctx, () => deps.payments.cancelSubscription({ apiId: ctx.tenant.api.id, customerId: ctx.membership.customer_id, atPeriodEnd: true }));
  return canceled.page ?? ctx.reply.redirect('/plans?done=canceled', 303);
}
