import { addMs } from '../platform/clock.js';
import type { Clock } from '../platform/clock.js';
import type { Trx } from '../platform/db/database.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { ApiService, PlatformPlanState } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import * as mails from './mails.js';
import * as q from './queries.js';
import type { PaymentEvent } from './stripe-events.js';
import { nextSubscriptionState } from './subscriptions.js';
import { LIVE_SUBSCRIPTION_STATUSES } from './tables.js';

// An owner's platform plan follows its one live subscription on the platform's own account (spec
// 3, API plan_status): active → past_due (plan_grace_until: 7 days from the first failed renewal)
// → canceled; canceling keeps the plan to the end of the paid period (plan_period_end); when the
// grace or the period is over the API is back on `free` (the grace job, or the provider's
// deletion event). An upgrade or downgrade changes that subscription (service.ts); a second live
// one (two checkouts raced) is never followed: it is recorded as `duplicate` and canceled at the
// provider at once (issue 23 item 1).

type PlatformEvent = Extract<PaymentEvent, { kind: 'platform_subscription' }>;
const LIVE = new Set<string>(LIVE_SUBSCRIPTION_STATUSES);
/** Our own end states of a platform subscription: the provider's ordering reads them as ended. */
const ENDED_HERE = new Set(['unpaid', 'duplicate']);

export function stateFor(status: string, event: PlatformEvent, pastDueSince: Date | null, graceMs: number): PlatformPlanState | null {
  const graceUntil = pastDueSince ? addMs(pastDueSince, graceMs) : null;
  switch (status) {
    case 'incomplete':
      return null; // not paid yet: nothing changes
    case 'active':
    case 'trialing':
      return { platform_plan: event.planCode, plan_status: event.cancelAtPeriodEnd ? 'canceled' : 'active', plan_grace_until: null, plan_period_end: event.periodEnd };
    case 'past_due':
      return { platform_plan: event.planCode, plan_status: 'past_due', plan_grace_until: graceUntil, plan_period_end: event.periodEnd };
    default:
      // canceled, incomplete_expired, unpaid (our past_due beyond its grace), paused
      return { platform_plan: 'free', plan_status: 'canceled', plan_grace_until: graceUntil, plan_period_end: event.periodEnd };
  }
}

/** Who changes a platform plan when the provider's event does. */
export const PAYMENTS_ACTOR = { type: 'system', id: 'payments', name: 'Payments', ip: '' } as const;

export interface PlatformDeps {
  apis: ApiService;
  clock: Clock;
  audit: AuditService;
  outbox: MailOutbox;
}

/** What an event did; `cancelAtProvider` names a duplicate subscription to cancel once committed. */
export interface PlatformOutcome {
  outcome: string;
  cancelAtProvider?: string;
}

export async function applyPlatformSubscription(trx: Trx, deps: PlatformDeps, event: PlatformEvent, at: Date, graceMs: number): Promise<PlatformOutcome> {
  if (!deps.apis.platformPlans.list.some((p) => p.code === event.planCode)) return { outcome: `ignored: no platform plan ${event.planCode}` };
  await deps.apis.lockAmongWriters(trx, event.apiId);
  const api = await deps.apis.findById(trx, event.apiId);
  if (!api) return { outcome: 'ignored: no such API' };
  const now = deps.clock.now();
  const row = (status: string) => ({ subscription_id: event.subscriptionId, api_id: event.apiId, provider_customer_id: event.providerCustomerId, status, plan_code: event.planCode, event_at: at, updated_at: now });
  const current = await q.lockCurrentPlatformSubscription(trx, event.apiId);
  if (current && current.subscription_id !== event.subscriptionId) {
    const other = await q.platformSubscriptionById(trx, event.subscriptionId);
    if (LIVE.has(current.status) && LIVE.has(event.status) && !other) {
      // Never a second live subscription: this one is canceled at once (it billed nothing more).
      await q.savePlatformSubscription(trx, row('duplicate'));
      return { outcome: 'duplicate platform subscription: canceled at the provider', cancelAtProvider: event.subscriptionId };
    }
    if (other) {
      // Not the subscription the API follows (a duplicate or an old one ending): its row only.
      if (!ENDED_HERE.has(other.status) && (!other.event_at || other.event_at <= at)) await q.savePlatformSubscription(trx, row(event.status));
      return { outcome: `recorded: ${event.subscriptionId} is not the current subscription` };
    }
  }
  const pastDueSince = api.plan_status === 'past_due' && api.plan_grace_until ? addMs(api.plan_grace_until, -graceMs) : null;
  const currentStatus = current ? (ENDED_HERE.has(current.status) ? 'canceled' : current.status) : null;
  const next = nextSubscriptionState(
    { subscriptionId: current?.subscription_id ?? null, status: currentStatus, eventAt: current?.event_at ?? null, pastDueSince },
    { subscriptionId: event.subscriptionId, status: event.status, at },
    graceMs,
  );
  if (!next.apply) return { outcome: `ignored: ${next.reason}` };
  const state = stateFor(next.status, event, next.pastDueSince, graceMs);
  if (!state) return { outcome: `ignored: subscription ${event.status}` };
  await q.savePlatformSubscription(trx, row(next.status));
  if (next.status !== 'past_due') await q.resetGraceWarning(trx, event.subscriptionId);
  await deps.apis.setPlatformPlan(trx, event.apiId, state);
  if (state.platform_plan !== api.platform_plan || state.plan_status !== api.plan_status) {
    await deps.audit.record(trx, PAYMENTS_ACTOR, {
      workspaceId: api.workspace_id, action: 'api.plan_change', target: { type: 'api', id: api.id }, api: { id: api.id, name: api.name },
      summary: `The platform plan of ${api.name} is ${state.platform_plan} (${state.plan_status}), was ${api.platform_plan} (${api.plan_status})`,
      details: { from: { plan: api.platform_plan, status: api.plan_status }, to: { plan: state.platform_plan, status: state.plan_status }, subscription_id: event.subscriptionId },
    });
  }
  // The owners hear when the plan goes past due and when it ends (issue 23 item 1).
  const planName = (code: string) => deps.apis.platformPlans.get(code).name;
  if (state.plan_status === 'past_due' && api.plan_status !== 'past_due') {
    for (const to of await deps.apis.ownerContacts(trx, api.workspace_id)) {
      await deps.outbox.enqueue(trx, mails.platformPastDue(to, api.name, planName(state.platform_plan), state.plan_grace_until, deps.apis.planPageUrl(api.id)));
    }
  }
  if (state.platform_plan === 'free' && api.platform_plan !== 'free') await mailEnded(trx, deps, api, planName(api.platform_plan), next.status === 'unpaid' ? 'unpaid past its grace' : 'canceled');
  return { outcome: `platform plan ${state.platform_plan} ${state.plan_status}` };
}

/** The plan is over: its owners are told it ended and why. */
export async function mailEnded(trx: Trx, deps: Pick<PlatformDeps, 'apis' | 'outbox'>, api: { id: string; name: string; workspace_id: string }, planName: string, why: string): Promise<void> {
  for (const to of await deps.apis.ownerContacts(trx, api.workspace_id)) {
    await deps.outbox.enqueue(trx, mails.platformCanceled(to, api.name, planName, why, deps.apis.planPageUrl(api.id)));
  }
}
