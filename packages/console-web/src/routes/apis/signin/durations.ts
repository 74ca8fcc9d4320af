// Token and session lifetimes are seconds in the API; the page takes seconds (so the API's bounds
// and its 422 read the same as the field) and says each value back in words.

/** 3600 → "1 hour", 90 → "1 minute 30 seconds", 2592000 → "30 days". */
export function describeSeconds(total: number): string {
  if (!Number.isFinite(total) || total < 0) return '';
  const parts: string[] = [];
  let left = Math.floor(total);
  for (const [size, name] of [[86_400, 'day'], [3_600, 'hour'], [60, 'minute'], [1, 'second']] as const) {
    const count = Math.floor(left / size);
    left -= count * size;
    if (count > 0) parts.push(`${count} ${name}${count === 1 ? '' : 's'}`);
  }
  return parts.slice(0, 2).join(' ') || '0 seconds';
}
