// Money as the console writes it: amounts are integer micro units (spec conventions), written with
// integer arithmetic only, never by dividing by a million in floating point. The same rules as the
// portal's pages (two decimals, up to six when a price needs them, thousands grouped).

const MICRO = 1_000_000n;

const group = (digits: string) => digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** 5_990_000 → "5.99"; 1_234 → "0.001234"; -10_000 → "-0.01"; 12_000_000_000 → "12,000.00". */
export function formatMicro(micro: number | bigint): string {
  const value = BigInt(micro);
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  const fraction = (magnitude % MICRO).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${sign}${group((magnitude / MICRO).toString())}.${fraction}`;
}

/** A change of balance with its sign: "+5.00", "-0.01". */
export const formatSignedMicro = (micro: number) => (micro > 0 ? `+${formatMicro(micro)}` : formatMicro(micro));

/** A price in cents of the provider's currency (USD): 2900 → "$29.00". */
export function formatCents(cents: number): string {
  const value = BigInt(cents);
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  return `${sign}$${group((magnitude / 100n).toString())}.${(magnitude % 100n).toString().padStart(2, '0')}`;
}

/**
 * Reads an amount typed in units ("5", "5.5", "-0.001234", "1,000.25") as micro units, exactly;
 * null when it is not a number with at most six decimals.
 */
export function parseMicro(text: string): number | null {
  const match = /^\s*([+-])?(\d[\d,]*)?(?:\.(\d{0,6}))?\s*$/.exec(text);
  if (!match || (!match[2] && !match[3])) return null;
  const units = BigInt((match[2] ?? '0').replace(/,/g, '') || '0');
  const fraction = BigInt((match[3] ?? '').padEnd(6, '0') || '0');
  const magnitude = units * MICRO + fraction;
  const value = match[1] === '-' ? -magnitude : magnitude;
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(value);
}

/** Reads dollars and cents ("25", "25.5", "25.50") as cents, exactly; null when it is not one. */
export function parseCents(text: string): number | null {
  const match = /^\s*\$?(\d[\d,]*)(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  const cents = BigInt(match[1]!.replace(/,/g, '')) * 100n + BigInt((match[2] ?? '').padEnd(2, '0'));
  return cents > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(cents);
}

/** Counts with thousands grouped. */
export const formatCount = (count: number) => group(String(count));
