// Keyset cursors over (created_at, id), opaque to clients.

export function encodeCursor(at: Date, id: string): string {
  return Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');
}

// Exactly what encodeCursor writes: an ISO time with a four-digit year, then a prefixed id. A looser
// check let through times the database cannot hold (year -271821 or +275760) and ids with a NUL
// byte, and those answered 500 instead of the 422 a cursor the service never made deserves.
const CURSOR_PATTERN = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([A-Za-z0-9_-]{1,100})$/;
// No row of ours was made before 1970, and every time from then to 9999 (the pattern's four digits)
// reaches both databases as itself. Earlier ones do not: PGlite sends a time as ISO text, and
// PostgreSQL has no year 0000 (the list answered 500) and reads year 0001 as 2001.
const EARLIEST_MS = Date.UTC(1970, 0, 1);

/** null when the text is not a cursor this service made. */
export function decodeCursor(cursor: string): { at: Date; id: string } | null {
  const match = CURSOR_PATTERN.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return null;
  const date = new Date(match[1]!);
  const valid = !Number.isNaN(date.getTime()) && date.toISOString() === match[1] && date.getTime() >= EARLIEST_MS;
  return valid ? { at: date, id: match[2]! } : null;
}

/** Splits a limit+1 fetch into the page and the cursor of the next one. */
export function pageOf<T extends { created_at: Date; id: string }>(rows: T[], limit: number): { page: T[]; next?: string } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return rows.length > limit && last ? { page, next: encodeCursor(last.created_at, last.id) } : { page };
}
