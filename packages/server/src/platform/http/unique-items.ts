import type { FuncKeywordDefinition } from 'ajv';

/** A key equal for two values exactly when they are deep-equal as JSON (object keys sorted). */
function canonicalKey(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/**
 * `uniqueItems` in linear time. ajv's own compares every pair of items when they may be objects,
 * which let one unauthenticated request of 120,000 items hold the event loop for seconds; here
 * each item is reduced to a canonical key and looked up in a map.
 */
export const uniqueItemsByKey: FuncKeywordDefinition = {
  keyword: 'uniqueItems',
  type: 'array',
  schemaType: 'boolean',
  errors: true,
  validate: function validate(this: unknown, unique: boolean, data: unknown[]) {
    if (!unique) return true;
    const seen = new Map<string, number>();
    for (let i = 0; i < data.length; i++) {
      const key = typeof data[i] === 'string' ? `s${data[i] as string}` : canonicalKey(data[i]);
      const first = seen.get(key);
      if (first !== undefined) {
        (validate as { errors?: unknown[] }).errors = [{ keyword: 'uniqueItems', message: `must NOT have duplicate items (items ## ${first} and ${i} are identical)`, params: { i: first, j: i } }];
        return false;
      }
      seen.set(key, i);
    }
    return true;
  },
};
