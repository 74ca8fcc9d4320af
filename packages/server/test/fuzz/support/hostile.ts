// Hostile values as fast-check arbitraries: the inputs issue 11 found answered with 500s, frozen
// event loops or 15 MB error bodies. Each is named for what it tests, so a failure report reads
// as "a NUL in body.email" rather than as a raw value.
import fc from 'fast-check';

export const NUL = '\u0000';

/** Lone UTF-16 surrogates: JSON can carry them (`"\ud800"`), UTF-8 and PostgreSQL cannot. */
export const LONE_SURROGATES = ['\ud800', '\udbff', '\udc00', '\udfff'] as const;

/** `base` with a NUL at a generated place (start, middle or end). */
export const withNul = (base: string): fc.Arbitrary<string> =>
  fc.nat({ max: base.length }).map((at) => base.slice(0, at) + NUL + base.slice(at));

/** `base` with one lone surrogate at a generated place. */
export const withSurrogate = (base: string): fc.Arbitrary<string> =>
  fc.tuple(fc.nat({ max: base.length }), fc.constantFrom(...LONE_SURROGATES)).map(([at, half]) => base.slice(0, at) + half + base.slice(at));

/** A string longer than `max`: just over it, far over it, or close to the 1 MB body limit. */
export const overLong = (max: number): fc.Arbitrary<string> =>
  fc.oneof(
    fc.integer({ min: max + 1, max: max + 16 }),
    fc.integer({ min: max + 1000, max: max + 100_000 }),
    fc.integer({ min: 900_000, max: 1_000_000 }),
  ).map((length) => 'x'.repeat(length));

/** Integers a bounded field must refuse: beyond its bounds and beyond what a double holds exactly. */
export const outOfRange = (minimum: number | undefined, maximum: number | undefined): fc.Arbitrary<number> => {
  const choices: fc.Arbitrary<number>[] = [fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 53) - 2, 1e308, -1e308, 2 ** 63)];
  if (maximum !== undefined && maximum < 2 ** 53) choices.push(fc.integer({ min: 1, max: 1000 }).map((over) => maximum + over));
  if (minimum !== undefined && minimum > -(2 ** 53)) choices.push(fc.integer({ min: 1, max: 1000 }).map((under) => minimum - under));
  return fc.oneof(...choices);
};

/**
 * Tens of thousands of items: numbers counting up (each distinct, so `uniqueItems` must compare
 * them all) or objects (whose uniqueness check is quadratic in a naive validator).
 */
export const hugeArray: fc.Arbitrary<unknown[]> = fc.oneof(
  fc.integer({ min: 20_000, max: 120_000 }).map((length) => Array.from({ length }, (_, i) => i)),
  fc.integer({ min: 10_000, max: 40_000 }).map((length) => Array.from({ length }, (_, i) => ({ server_id: `srv_${i}`, permission: `p${i}` }))),
  fc.integer({ min: 20_000, max: 60_000 }).map((length) => Array.from({ length }, () => 'x')),
);

/** Marks a place in a JSON value where raw text is spliced in (nesting too deep to build). */
export class RawJson {
  constructor(
    readonly text: string,
    readonly depth = 0,
  ) {}
}

/** Arrays or objects nested thousands of levels deep, as raw JSON text. */
export const deepNesting: fc.Arbitrary<RawJson> = fc.tuple(fc.integer({ min: 2_000, max: 50_000 }), fc.boolean()).map(([depth, arrays]) =>
  arrays ? new RawJson('['.repeat(depth) + ']'.repeat(depth), depth) : new RawJson('{"a":'.repeat(depth) + '0' + '}'.repeat(depth), depth),
);

/** Serializes a value that may hold RawJson parts (JSON.stringify would recurse into them). */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return '[' + value.map(toJsonText).join(',') + ']';
  if (value !== null && typeof value === 'object') {
    return '{' + Object.entries(value).map(([key, item]) => JSON.stringify(key) + ':' + toJsonText(item)).join(',') + '}';
  }
  return JSON.stringify(value) ?? 'null';
}

/** Values of other JSON types than the one a field declares. */
export const wrongTypeFor = (type: string | undefined): fc.Arbitrary<unknown> => {
  const all: Record<string, unknown[]> = {
    string: [0, -1, 1.5, true, false, {}, [], ['x'], { a: 'x' }],
    integer: ['1', '', 1.5, -0.5, true, {}, [], [1], 'NaN', '1e3'],
    number: ['1', '', true, {}, [], [1]],
    boolean: ['true', 'false', 1, 0, {}, [], [true]],
    array: ['x', '', 0, true, {}, { 0: 'x', length: 1 }],
    object: ['x', 0, true, [], [{}]],
  };
  return fc.constantFrom(...(all[type ?? 'object'] ?? all.object!));
};

/** Property names a schema never declares, the odd ones included. */
export const unknownKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('undeclared', '__proto__', 'constructor', 'prototype', NUL, `name${NUL}`, '\ud800', '', ' ', 'a'.repeat(5000)),
  fc.string({ minLength: 1, maxLength: 20, unit: 'binary' }).map((key) => `zz_${key}`),
);

/**
 * Authorization headers no credential of ours matches: Basic (`%00:%00` encoded, empty, not
 * base64), unknown schemes, Bearer with junk or a value too long.
 */
export const oddAuthorization: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'Basic JTAwOiUwMA==',
    'Basic Og==',
    'Basic',
    'Basic !!!',
    'Basic ' + Buffer.from('%E0%A4%A:%ZZ').toString('base64'),
    'Basic ' + Buffer.from('\u0000:\u0000').toString('base64'),
    'Basic ' + Buffer.from([0xed, 0xa0, 0x80, 0x3a, 0xff]).toString('base64'),
    'Bearer',
    'Bearer ',
    'Bearer %00',
    'Bearer a b',
    'Bearer ' + 'A'.repeat(8000),
    'Digest username="x"',
    'ghw_not_a_key',
    'Bearer ghw_' + 'x'.repeat(43),
    'Bearer mas_' + 'x'.repeat(43),
  ),
  fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme-ascii' }).map((junk) => `Bearer ${junk}!`),
);

/**
 * Escapes of bytes that are not UTF-8: truncated sequences, an encoded surrogate, an overlong
 * NUL, a lone continuation byte. RFC 3986 2.5 and RFC 6749 Appendix B make text UTF-8 before
 * percent-encoding, so no client may send these.
 */
export const notUtf8: fc.Arbitrary<string> = fc.constantFrom('%E0%A4%A', '%E0%A4', '%ED%A0%80', '%ED%BF%BF', '%C0%80', '%FF', '%C3%28', '%80');

/**
 * Whether escaped bytes that are not UTF-8 count as refused in queries and forms. The text rule
 * (docs/decisions.md, hostile input) judges decoded text, and form and query parsers decode them
 * to U+FFFD as WHATWG does, so by default they are probes, sent only where nothing can change.
 * GH_FUZZ_STRICT_UTF8=1 holds the service to refusing them (RFC 3986 2.5, RFC 6749 Appendix B).
 */
export const NOT_UTF8_REFUSED = process.env.GH_FUZZ_STRICT_UTF8 === '1';

/** Escapes that are not escapes (`%`, `%zz`): form and query parsers read them as literal text. */
export const badEscape: fc.Arbitrary<string> = fc.constantFrom('%', '%zz', 'a%2', '%%', '%g0');

/** Either kind: a path holding one is refused by the router (issue 11 item 8). */
export const badPercent: fc.Arbitrary<string> = fc.oneof(notUtf8, badEscape);

/** ISO times a database cannot hold or no cursor of ours ever names. */
export const outOfRangeDate: fc.Arbitrary<string> = fc.constantFrom(
  '0000-01-01T00:00:00.000Z',
  '0001-01-01T00:00:00.000Z',
  '9999-12-31T23:59:59.999Z',
  '+099999-01-01T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '1969-12-31T23:59:59.999Z',
);

/** Cursors as a client could forge them: dates out of range, NULs, junk, wrong encodings. */
export const forgedCursor: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(outOfRangeDate, fc.constantFrom('cus_x', 'x', 'per_0', 'aud_0')).map(([at, id]) => Buffer.from(`${at}|${id}`).toString('base64url')),
  fc.constantFrom(
    Buffer.from(`2024-01-01T00:00:00.000Z|a${NUL}b`).toString('base64url'),
    Buffer.from('2024-01-01T00:00:00.000Z|').toString('base64url'),
    Buffer.from([0xff, 0xfe, 0x7c, 0x00]).toString('base64url'),
    '!!!!',
    '====',
    'a'.repeat(200),
    NUL,
  ),
);

/**
 * Cookie values no cookie of ours holds: cookie parsers percent-decode them, so `%00` becomes a
 * NUL; also an encoded surrogate, a bad escape, a value of kilobytes, quotes, nothing.
 */
export const oddCookieValue: fc.Arbitrary<string> = fc.constantFrom('%00', 'a%00b', '%ED%A0%80', '%E0%A4%A', '%', 'x'.repeat(6000), '"quoted"', '', '%22%00%22', 'a,b;c');
