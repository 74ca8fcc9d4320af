import { addMs } from '../platform/clock.js';
import type { Clock } from '../platform/clock.js';
import type { Trx } from '../platform/db/database.js';
import type { ApiService, PlatformPlanState } from '../apis/service.js';
import type { AuditService } from '../audit/service.js';
import * as q from './queries.js';
import type { PaymentEvent } from './stripe-events.js';
import { nextSubscriptionState } from './subscriptions.js';

// An owner's platform plan follows its subscription on the platform's own account (spec 3, API
// plan_status): active → past_due (plan_grace_until: 7 days from the first failed renewal) →
// canceled; canceling keeps the plan to the end of the paid period (plan_period_end); when the
// grace or the period is over the API is back on `free` (the grace job, or the provider's
// deletion event).

type PlatformEvent = Extract<PaymentEvent, { kind: 'platform_subscription' }>;

/** The provider status the API's plan state stands for, for ordering a new event against it. */
function statusOf(api: { platform_plan: string; plan_status: string }): string {
  if (api.plan_status === 'past_due') return 'past_due';
  if (api.plan_status === 'canceled' && api.platform_plan === 'free') return 'canceled';
  return 'active';
}

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

export async function applyPlatformSubscription(trx: Trx, deps: { apis: ApiService; clock: Clock; audit: AuditService }, event: PlatformEvent, at: Date, graceMs: number): Promise<string> {
  if (!deps.apis.platformPlans.list.some((p) => p.code === event.planCode)) return `ignored: no platform plan ${event.planCode}`;
  await deps.apis.lockForUpdate(trx, event.apiId);
  const api = await deps.apis.findById(trx, event.apiId);
  if (!api) return 'ignored: no such API';
  const known = await q.lockPlatformSubscription(trx, event.apiId);
  const pastDueSince = api.plan_status === 'past_due' && api.plan_grace_until ? addMs(api.plan_grace_until, -graceMs) : null;
  const next = nextSubscriptionState(
    { subscriptionId: known?.subscription_id ?? null, status: known?.subscription_id ? statusOf(api) : null, eventAt: known?.event_at ?? null, pastDueSince },
    { subscriptionId: event.subscriptionId, status: event.status, at },
    graceMs,
  );
  if (!next.apply) return `ignored: ${next.reason}`;
  const state = stateFor(next.status, event, next.pastDueSince, graceMs);
  if (!state) return `ignored: subscription ${event.status}`;
  await q.savePlatformSubscription(trx, { api_id: event.apiId, provider_customer_id: event.providerCustomerId, subscription_id: event.subscriptionId, event_at: at, updated_at: deps.clock.now() });
  await deps.apis.setPlatformPlan(trx, event.apiId, state);
  if (state.platform_plan !== api.platform_plan || state.plan_status !== api.plan_status) {
    await deps.audit.record(trx, PAYMENTS_ACTOR, {
      workspaceId: api.workspace_id, action: 'api.plan_change', target: { type: 'api', id: api.id }, api: { id: api.id, name: api.name },
      summary: `The platform plan of ${api.name} is ${state.platform_plan} (${state.plan_status}), was ${api.platform_plan} (${api.plan_status})`,
      details: { from: { plan: api.platform_plan, status: api.plan_status }, to: { plan: state.platform_plan, status: state.plan_status }, subscription_id: event.subscriptionId },
    });
  }
  return `platform plan ${state.platform_plan} ${state.plan_status}`;
}
