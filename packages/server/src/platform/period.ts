// Calendar periods in UTC: the platform allowance, month_requests and daily statistics use them.

export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

export function nextMonthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

export function dayStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
}

/** YYYY-MM-DD of a UTC day, as PostgreSQL `date` columns take and give it. */
export function isoDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}
