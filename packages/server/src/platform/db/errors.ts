/** PostgreSQL's unique_violation (SQLSTATE 23505) on the named constraint. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const details = error as { code?: unknown; constraint?: unknown } | null;
  return details?.code === '23505' && details.constraint === constraint;
}
