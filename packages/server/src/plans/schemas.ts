import { Type } from '@sinclair/typebox';
import { Body, Timestamp } from '../console/common-schemas.js';

const Int64 = (options: object = {}) => Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991, ...options });
const fields = {
  // Names are stored trimmed: "   " passed minLength 1 and was stored empty, below the bound.
  name: Type.String({ minLength: 1, maxLength: 60, pattern: '\\S' }),
  price_monthly_cents: Type.Integer({ minimum: 0, maximum: 1000000 }),
  active: Type.Optional(Type.Boolean()),
  credit_micro: Type.Optional(Type.Integer({ minimum: 0, maximum: 100000000000, description: 'credit added on every paid invoice' })),
  description: Type.Optional(Type.String({ maxLength: 300 })),
  monthly_quota: Type.Optional(Type.Union([Int64({ minimum: 0 }), Type.Null()], { description: 'null uses the API default, 0 is unlimited' })),
  price_per_request_micro: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100000000 }), Type.Null()])),
  rps: Type.Optional(Type.Union([Type.Integer({ minimum: 0, maximum: 100000 }), Type.Null()])),
  sort: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('private')], { default: 'public' })),
};

// Spec 2.3. Updates take the same fields, each optional.
export const PlanFields = Body(fields);
// No default on update: with the create default, ajv filled in visibility "public" on every PATCH
// that left it out, turning private plans public.
export const PlanUpdateFields = Body({
  ...fields,
  name: Type.Optional(fields.name),
  price_monthly_cents: Type.Optional(fields.price_monthly_cents),
  visibility: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('private')])),
});
export const PlanOut = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  price_monthly_cents: Type.Integer(),
  credit_micro: Int64(),
  price_per_request_micro: Type.Union([Int64(), Type.Null()]),
  rps: Type.Union([Type.Integer(), Type.Null()]),
  monthly_quota: Type.Union([Int64(), Type.Null()]),
  visibility: Type.String(),
  active: Type.Boolean(),
  sort: Type.Integer(),
  subscribers: Int64(),
  created_at: Timestamp,
  portal_url: Type.Optional(Type.String({ description: "the plan's page on the portal; a private plan is offered by this link only" })),
  provider_price_id: Type.Optional(Type.String()),
  provider_sync_error: Type.Optional(Type.String()),
  provider_synced_at: Type.Optional(Timestamp),
});
export const PlanParams = Type.Object({ api: Type.String({ maxLength: 64 }), id: Type.String({ maxLength: 64 }) });
