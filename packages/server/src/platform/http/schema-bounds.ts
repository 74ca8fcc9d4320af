import type { ErrorObject, SchemaObject } from 'ajv';

const SIZE_KEYWORDS = ['maxItems', 'maxLength', 'maxProperties'] as const;
type SizeKeyword = (typeof SIZE_KEYWORDS)[number];

/** Where a bounds schema keeps the limit the original schema states, for the error message. */
const STATED = 'x-stated-limit';

/**
 * The bounds check is loose on purpose: data a little past a limit goes on to the full check,
 * which names every bad field (a 201-character password and an unknown property in one answer);
 * data far past it (a megabyte string, a million items) stops here. Either way the full check
 * never sees more than about twice what the schema allows.
 */
const loose = (limit: number) => limit * 2 + 64;

const units: Record<SizeKeyword, string> = { maxItems: 'items', maxLength: 'characters', maxProperties: 'properties' };

/**
 * The bounds of a schema alone: how long strings, arrays and objects may be, at every depth, and
 * nothing else. Every value the schema accepts passes its bounds (this schema only relaxes the
 * original), and checking them stops at the first broken one, so hostile input (a million items,
 * a megabyte string, a hundred thousand unknown properties) is refused in one linear pass before
 * the full validation, which names every error, runs on data not much larger than allowed.
 */
export function boundsOf(schema: SchemaObject, inUnion = false): SchemaObject {
  if (typeof schema !== 'object' || schema === null) return {};
  const out: SchemaObject = {};
  const stated: Partial<Record<SizeKeyword, number>> = {};
  for (const keyword of SIZE_KEYWORDS) if (typeof schema[keyword] === 'number') stated[keyword] = schema[keyword];
  // Inside a union, a branch's type says which bounds apply: without it every branch of
  // `array | null` would accept a million items through its bound-free `null` side.
  if (inUnion && schema.type !== undefined) out.type = schema.type;
  if (schema.properties && typeof schema.properties === 'object') {
    const properties = Object.entries(schema.properties as Record<string, SchemaObject>);
    out.properties = Object.fromEntries(properties.map(([name, property]) => [name, boundsOf(property)]));
    // An object that refuses unknown properties holds at most its declared ones.
    if (schema.additionalProperties === false) stated.maxProperties = Math.min(stated.maxProperties ?? Infinity, properties.length);
  }
  for (const keyword of SIZE_KEYWORDS) {
    const limit = stated[keyword];
    if (limit !== undefined) out[keyword] = loose(limit);
  }
  if (Object.keys(stated).length > 0) out[STATED] = stated;
  if (schema.additionalProperties && typeof schema.additionalProperties === 'object') out.additionalProperties = boundsOf(schema.additionalProperties);
  if (schema.patternProperties && typeof schema.patternProperties === 'object') {
    out.patternProperties = Object.fromEntries(Object.entries(schema.patternProperties as Record<string, SchemaObject>).map(([pattern, s]) => [pattern, boundsOf(s)]));
  }
  if (Array.isArray(schema.items)) out.items = schema.items.map((item: SchemaObject) => boundsOf(item));
  else if (schema.items && typeof schema.items === 'object') out.items = boundsOf(schema.items);
  if (Array.isArray(schema.prefixItems)) out.prefixItems = schema.prefixItems.map((item: SchemaObject) => boundsOf(item));
  // oneOf becomes anyOf: two branches' bounds may both hold where only one branch's whole schema does.
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) out.anyOf = branches.map((branch: SchemaObject) => boundsOf(branch, true));
  if (Array.isArray(schema.allOf)) out.allOf = schema.allOf.map((part: SchemaObject) => boundsOf(part, inUnion));
  return out;
}

/** A broken bound as the original schema states it ("must NOT have more than 500 items"), not its loose check. */
export function statedBoundError(error: ErrorObject): ErrorObject {
  const keyword = error.keyword as SizeKeyword;
  const limit = (error.parentSchema?.[STATED] as Partial<Record<SizeKeyword, number>> | undefined)?.[keyword];
  if (limit === undefined || !(keyword in units)) return error;
  return { ...error, message: `must NOT have more than ${limit} ${units[keyword]}` };
}
