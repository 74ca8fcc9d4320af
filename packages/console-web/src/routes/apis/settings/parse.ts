// Reading what an owner types in the settings into the API's integers. Bounds are the API's to
// judge (its 422 lands on the field); these only refuse what is not a number at all.
import { formatCents, parseCents, parseMicro } from '../../../format/money.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

/** A whole number ("10", "10,000"). */
export function parseWhole(text: string): Parsed<number> {
  const cleaned = text.trim().replace(/,/g, '');
  if (!/^\d{1,16}$/.test(cleaned)) return { ok: false, message: 'Enter a whole number.' };
  const value = Number(cleaned);
  return Number.isSafeInteger(value) ? { ok: true, value } : { ok: false, message: 'This number is too large.' };
}

/** An amount in units ("0.001") as micro units. */
export function parseAmount(text: string): Parsed<number> {
  const value = parseMicro(text);
  return value === null ? { ok: false, message: 'Enter an amount such as 0.001 (at most six decimals).' } : { ok: true, value };
}

/** Dollars and cents ("25", "25.50") as cents. */
export function parseDollars(text: string): Parsed<number> {
  const value = parseCents(text);
  return value === null ? { ok: false, message: 'Enter an amount in dollars, such as 25 or 25.50.' } : { ok: true, value };
}

const items = (text: string) => text.split(/[\s,;]+/).filter(Boolean);

/** HTTP status codes, separated by commas or spaces. */
export function parseStatusCodes(text: string): Parsed<number[]> {
  const codes = items(text);
  const bad = codes.find((code) => !/^\d{3}$/.test(code));
  return bad ? { ok: false, message: `${bad} is not an HTTP status code.` } : { ok: true, value: codes.map(Number) };
}

/** Amounts in dollars separated by commas or spaces, as cents ("10, 25.50"); no thousands separators. */
export function parseDollarList(text: string): Parsed<number[]> {
  const out: number[] = [];
  for (const item of items(text.replace(/\$/g, ''))) {
    const cents = parseCents(item);
    if (cents === null) return { ok: false, message: `${item} is not an amount in dollars.` };
    out.push(cents);
  }
  return { ok: true, value: out };
}

/** Cents written back as a dollar amount without the sign, as the field takes it. */
export const dollars = (cents: number) => formatCents(cents).replace('$', '').replace(/,/g, '');
