// Times as the console writes them: UTC, as the service keeps its days and the portal shows them.

/** "2026-11-26 14:05 UTC", or the fallback for a missing time. */
export function formatTime(at: string | null | undefined, missing = 'never'): string {
  if (!at) return missing;
  return `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "2026-11-26". */
export const formatDay = (at: string) => new Date(at).toISOString().slice(0, 10);

/** How long ago, in the largest whole unit: "just now", "5 minutes ago", "3 days ago". */
export function formatAgo(at: string | null | undefined, now = Date.now(), missing = 'never'): string {
  if (!at) return missing;
  const seconds = Math.max(0, Math.round((now - new Date(at).getTime()) / 1000));
  if (seconds < 45) return 'just now';
  const units: [number, string][] = [[86_400, 'day'], [3_600, 'hour'], [60, 'minute']];
  for (const [size, name] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `${count} ${name}${count === 1 ? '' : 's'} ago`;
  }
  return 'just now';
}
