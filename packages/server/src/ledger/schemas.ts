import { Type } from '@sinclair/typebox';
import { Body, Timestamp } from '../console/common-schemas.js';

const Int64 = () => Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991 });

// Spec 2.2.
export const CreditInBody = Body({
  // 0 would post an empty entry and move balance_seq for nothing (issue 16, review).
  amount_micro: Type.Integer({ minimum: -100000000000, maximum: 100000000000, not: { const: 0 }, description: 'positive adds credit, negative removes it; never 0' }),
  // The note is stored trimmed: "   " passed minLength 1 and was stored empty, below the bound.
  note: Type.String({ minLength: 1, maxLength: 300, pattern: '\\S' }),
  ref: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'idempotency reference: a repeated ref is ignored' })),
});
export const CreditBody = Type.Object({ applied: Type.Boolean({ description: 'false when the ref was already applied' }), balance_micro: Int64() });
export const LedgerEntry = Type.Object({
  id: Type.String(),
  customer_id: Type.String(),
  customer_name: Type.Optional(Type.String()),
  kind: Type.String(),
  note: Type.String(),
  actor: Type.String(),
  amount_micro: Int64(),
  requests: Int64(),
  ref: Type.Optional(Type.String()),
  usage_day: Type.Optional(Timestamp),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const LedgerBody = Type.Object({ entries: Type.Union([Type.Array(LedgerEntry), Type.Null()]), next_cursor: Type.Optional(Type.String()) });
// The kinds the ledger writes (ledger/tables.ts LedgerKind): manual credit, welcome credit, usage
// folded per day, what payments credit (top-ups, a plan's credit, automatic top-ups), and what
// the provider takes back (refunds, disputes) or gives back (a dispute won).
export const LedgerKind = Type.Union([
  Type.Literal('welcome'),
  Type.Literal('credit'),
  Type.Literal('usage'),
  Type.Literal('topup'),
  Type.Literal('plan_credit'),
  Type.Literal('auto_recharge'),
  Type.Literal('refund'),
  Type.Literal('dispute'),
  Type.Literal('dispute_won'),
]);
export const LedgerQuery = Type.Object({
  customer_id: Type.Optional(Type.String({ maxLength: 64 })),
  kind: Type.Optional(LedgerKind),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
