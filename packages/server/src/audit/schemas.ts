import { Type } from '@sinclair/typebox';
import { Timestamp } from '../console/common-schemas.js';

// Spec 2.1: AuditBody and AuditOut.
export const AuditOut = Type.Object({
  id: Type.String(),
  actor_type: Type.String(),
  actor_id: Type.String(),
  actor_name: Type.String(),
  action: Type.String(),
  target_type: Type.String(),
  target_id: Type.String(),
  summary: Type.String(),
  ip: Type.String(),
  created_at: Timestamp,
  details: Type.Record(Type.String(), Type.Unknown()),
  api_id: Type.Optional(Type.String()),
  api_name: Type.Optional(Type.String()),
  customer_id: Type.Optional(Type.String()),
  customer_name: Type.Optional(Type.String()),
});
export const AuditBody = Type.Object({
  events: Type.Union([Type.Array(AuditOut), Type.Null()]),
  next_before: Type.Optional(Type.String({ description: 'cursor for the next older page' })),
});
// An id as the service makes them (`usr_…`, `wsk_…`, `cus_…`) or a system actor's (`domain-checks`).
const IdFilter = (description: string) => Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$', description });
export const AuditQuery = Type.Object({
  before: Type.Optional(Type.String({ maxLength: 200 })),
  api_id: Type.Optional(Type.String({ maxLength: 64 })),
  action: Type.Optional(
    Type.String({
      maxLength: 64,
      pattern: '^[a-z][a-z0-9_]*(\\.[a-z0-9_]+)?$',
      description: 'an action (`member.invite`), or a family of actions (`member`: every `member.…`)',
    }),
  ),
  actor_id: Type.Optional(IdFilter('events by this actor (a person, a workspace key or a system actor)')),
  customer_id: Type.Optional(IdFilter('events about this customer')),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
