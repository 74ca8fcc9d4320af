import { Type } from '@sinclair/typebox';
import { Body } from '../console/common-schemas.js';

export { PaymentsOut } from '../apis/schemas.js';

/** spec 2.3 PlanCheckoutInBody. */
export const PlanCheckoutInBody = Body({ plan_code: Type.String({ minLength: 1, maxLength: 32 }) });
/** Where to send the browser next: a hosted onboarding or checkout page. */
export const UrlBody = Type.Object({ url: Type.String() });

/** Switch a customer's subscription to another plan of the API (issue 23). */
export const SubscriptionSwitchInBody = Body({ plan_id: Type.String({ minLength: 1, maxLength: 64 }) });
/** Cancel a customer's subscription: at the end of the paid period (default) or at once. */
export const SubscriptionCancelInBody = Body({ at_period_end: Type.Optional(Type.Boolean({ default: true, description: 'false ends it now, with proration as the provider computes it' })) });
export const PaymentsQuery = Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })) });
/** A receipt or paid invoice of a customer, with its refunds and dispute. */
export const PaymentOut = Type.Object({
  id: Type.String({ description: "the provider's object: checkout session (top-up), payment intent (automatic top-up), invoice (plan)" }),
  kind: Type.Union([Type.Literal('topup'), Type.Literal('auto_recharge'), Type.Literal('plan')]),
  description: Type.String(),
  amount_cents: Type.Integer(),
  credit_micro: Type.Integer({ description: 'credit the payment added' }),
  status: Type.Union(['paid', 'partially_refunded', 'refunded', 'disputed', 'dispute_won', 'dispute_lost'].map((s) => Type.Literal(s))),
  refunded_cents: Type.Integer(),
  credit_taken_back_micro: Type.Integer({ description: 'credit refunds and an open or lost dispute took back' }),
  url: Type.Optional(Type.String({ description: "the provider's receipt or invoice page" })),
  created_at: Type.String({ format: 'date-time' }),
});
export const PaymentsBody = Type.Object({ payments: Type.Array(PaymentOut) });
