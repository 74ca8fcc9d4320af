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
export const AuditQuery = Type.Object({
  before: Type.Optional(Type.String({ maxLength: 200 })),
  api_id: Type.Optional(Type.String({ maxLength: 64 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
