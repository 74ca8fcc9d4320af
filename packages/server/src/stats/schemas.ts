import { Type } from '@sinclair/typebox';
import { Timestamp } from '../console/common-schemas.js';

const Int64 = () => Type.Integer({ minimum: -9007199254740991, maximum: 9007199254740991 });

// Spec 2.1.
export const DayStat = Type.Object({ day: Type.String(), requests: Int64(), billable: Int64(), errors: Int64(), charged_micro: Int64() });
export const TopCustomer = Type.Object({ id: Type.String(), name: Type.String(), requests: Int64(), charged_micro: Int64(), balance_micro: Int64() });
export const StatsBody = Type.Object({
  requests_today: Int64(),
  requests_month: Int64(),
  charged_month_micro: Int64(),
  topups_month_micro: Int64(),
  customers: Int64(),
  active_customers: Int64(),
  pending_customers: Int64(),
  platform_limit: Int64(),
  daily: Type.Union([Type.Array(DayStat), Type.Null()]),
  top_customers: Type.Union([Type.Array(TopCustomer), Type.Null()]),
});
export const StatsQuery = Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 30 })) });
export const ConnectionBody = Type.Object({
  sdk_connected: Type.Boolean({ description: 'an SDK fetched a snapshot in the last 10 minutes' }),
  test_requests: Int64(),
  customers: Int64(),
  payments_ready: Type.Boolean(),
  first_usage_at: Type.Optional(Timestamp),
  sdk_first_seen_at: Type.Optional(Timestamp),
  sdk_last_seen_at: Type.Optional(Timestamp),
  sdk_agent: Type.Optional(Type.String()),
});
