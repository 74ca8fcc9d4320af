// The fields of a request schema, as the OpenAPI document declares them, and a check that a
// generated body really breaks the schema: the suite only sends requests that must be refused, so
// that "nothing changed" afterwards is a fair thing to assert.
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { NoSampleError, sampleOf, type JsonSchema, type OpenApiDocument } from '../../support/openapi.js';

/** One place in a body a value can be put: `['permissions', 0, 'server_id']`. */
export interface Field {
  path: (string | number)[];
  /** The JSON type the field declares (the first non-null one of a union). */
  type: string | undefined;
  schema: JsonSchema & { maximum?: number; maxItems?: number; uniqueItems?: boolean };
  /** Values an enum (or a union of single-value enums) allows. */
  allowed: unknown[] | null;
}

/** The declared type, the bounds and the allowed values of a schema that may be a union. */
function flatten(schema: JsonSchema): Omit<Field, 'path'> {
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) {
    const parts = choices.filter((choice) => choice.type !== 'null');
    const enums = parts.flatMap((part) => part.enum ?? (part.const !== undefined ? [part.const] : []));
    const richest = parts.find((part) => !part.enum) ?? parts[0] ?? {};
    const type = Array.isArray(richest.type) ? richest.type[0] : richest.type;
    return { type, schema: richest as Field['schema'], allowed: enums.length === parts.length ? enums : null };
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  return { type, schema: schema as Field['schema'], allowed: schema.enum ?? null };
}

/** Every property of an object schema, nested objects and the first item of arrays included. */
export function fieldsOf(schema: JsonSchema, prefix: (string | number)[] = [], depth = 0): Field[] {
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const flat = flatten(property);
    const path = [...prefix, name];
    fields.push({ path, ...flat });
    if (depth > 3) continue;
    if (flat.type === 'object') fields.push(...fieldsOf(flat.schema, path, depth + 1));
    if (flat.type === 'array' && flat.schema.items) {
      const item = flatten(flat.schema.items);
      fields.push({ path: [...path, 0], ...item });
      if (item.type === 'object') fields.push(...fieldsOf(item.schema, [...path, 0], depth + 1));
    }
  }
  return fields;
}

/** A value the field's schema accepts, when one can be made without a hand-written sample. */
export function sampleFor(schema: JsonSchema, doc: OpenApiDocument): unknown {
  try {
    return sampleOf(schema, doc);
  } catch (error) {
    if (error instanceof NoSampleError) return 'x';
    throw error;
  }
}

/** A copy of `body` with `value` at `path`; missing parents are made (arrays with one sample item). */
export function withValueAt(body: unknown, path: (string | number)[], value: unknown, sampleAt: (path: (string | number)[]) => unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (typeof head === 'number') {
    const list = Array.isArray(body) ? [...body] : [sampleAt([])];
    if (list.length === 0) list.push(sampleAt([]));
    list[head] = withValueAt(list[head], rest, value, (tail) => sampleAt([head, ...tail]));
    return list;
  }
  const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  const current = head in object ? object[head] : rest.length ? sampleAt([head]) : undefined;
  object[head] = withValueAt(current, rest, value, (tail) => sampleAt([head, ...tail]));
  return object;
}

// The server's own settings (platform/http/validation.ts): bodies strict, queries and paths coerced.
function buildAjv(coerce: boolean) {
  const ajv = new Ajv.default({ allErrors: false, coerceTypes: coerce ? 'array' : false, useDefaults: true, strict: false });
  addFormats.default(ajv);
  return ajv;
}
const strictAjv = buildAjv(false);
const coercingAjv = buildAjv(true);
const compiled = new WeakMap<object, ValidateFunction>();

/** Whether a JSON value breaks the schema (bodies: no coercion, as the server validates them). */
export function breaksSchema(schema: JsonSchema, value: unknown, coerce = false): boolean {
  const ajv = coerce ? coercingAjv : strictAjv;
  let validate = coerce ? undefined : compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    if (!coerce) compiled.set(schema, validate);
  }
  return !validate(structuredClone(value));
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Whether any string or property name in a value holds a NUL or a lone surrogate (issue 11 item 3). */
export function holdsIllFormedText(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('\u0000') || LONE_SURROGATE.test(value);
  if (Array.isArray(value)) return value.some(holdsIllFormedText);
  if (value !== null && typeof value === 'object') return Object.entries(value).some(([key, item]) => holdsIllFormedText(key) || holdsIllFormedText(item));
  return false;
}
