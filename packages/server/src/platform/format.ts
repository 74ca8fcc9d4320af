// How pages and mails write amounts and times (the portal's pages, payment receipts). Money is integer micro units (spec conventions):
// written as units with two decimals, or up to six when a price needs them, never through floats.

const MICRO = 1_000_000n;

/** 5_990_000 → "5.99"; 1_234 → "0.001234"; -10_000 → "-0.01"; thousands grouped. */
export function formatMicro(micro: number): string {
  const value = BigInt(micro);
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  const units = (magnitude / MICRO).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (magnitude % MICRO).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${units}.${fraction}`;
}

/** Counts with thousands grouped. */
export const formatCount = (count: number) => count.toLocaleString('en-US');

/** A UTC day and time, as every page shows times (the service keeps UTC days). */
export function formatTime(at: Date | null): string {
  if (!at) return 'never';
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

export const formatDay = (at: Date) => at.toISOString().slice(0, 10);

/** A price in cents, in the currency the payments provider charges (USD): 2900 → "$29.00". */
export function formatCents(cents: number): string {
  const units = Math.trunc(cents / 100).toLocaleString('en-US');
  return `$${units}.${String(Math.abs(cents % 100)).padStart(2, '0')}`;
}
