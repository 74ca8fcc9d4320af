// Event ordering of a customer's subscription (docs/decisions.md): providers deliver events late,
// twice and out of order, so an event's state is applied only when it is newer than what was
// applied, and an ended subscription never comes back.

export interface SubscriptionState {
  subscriptionId: string | null;
  status: string | null;
  /** Creation time of the newest event applied. */
  eventAt: Date | null;
  pastDueSince: Date | null;
}

export type NextState = { apply: true; status: string; pastDueSince: Date | null } | { apply: false; reason: string };

const ENDED = new Set(['canceled', 'incomplete_expired']);
const IN_GOOD_STANDING = new Set(['active', 'trialing', 'past_due']);
/** Within one second (the precision of event times) a subscription only moves forward. */
const rank = (status: string | null) => (status === null || status === 'incomplete' ? 0 : ENDED.has(status) ? 2 : 1);

export function nextSubscriptionState(current: SubscriptionState, event: { subscriptionId: string; status: string; at: Date }, graceMs: number): NextState {
  const same = current.subscriptionId === event.subscriptionId;
  if (same) {
    if (current.eventAt && event.at < current.eventAt) return { apply: false, reason: 'older than the state applied' };
    if (ENDED.has(current.status ?? '') && !ENDED.has(event.status)) return { apply: false, reason: 'an ended subscription does not come back' };
    if (current.eventAt && event.at.getTime() === current.eventAt.getTime() && rank(event.status) < rank(current.status)) return { apply: false, reason: 'a step back within the same second' };
  } else if (current.subscriptionId && IN_GOOD_STANDING.has(current.status ?? '')) {
    // Another subscription is current: an older one ending, or a new one not yet paid, leaves it be.
    if (!IN_GOOD_STANDING.has(event.status)) return { apply: false, reason: 'another subscription is current' };
    if (current.eventAt && event.at < current.eventAt) return { apply: false, reason: 'older than the state applied' };
  }
  if (event.status !== 'past_due') return { apply: true, status: event.status, pastDueSince: null };
  // The grace runs from the first past-due event of this subscription, however often it repeats.
  const since = same && current.pastDueSince ? current.pastDueSince : event.at;
  return { apply: true, status: event.at.getTime() - since.getTime() >= graceMs ? 'unpaid' : 'past_due', pastDueSince: since };
}
