// Reading the console's own OpenAPI document, so suites can walk every operation it declares.

/** The parts of a JSON Schema these helpers read. */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
}

export interface OpenApiParameter {
  in: 'path' | 'query' | 'header' | 'cookie';
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  summary?: string;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface Operation {
  /** "METHOD path", as the document writes the path: `POST /api/workspaces/{ws}/keys`. */
  key: string;
  method: string;
  path: string;
  operation: OpenApiOperation;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

/** Every operation of the document, sorted by key. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  const found: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      found.push({ key: `${method.toUpperCase()} ${path}`, method: method.toUpperCase(), path, operation });
    }
  }
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

/** The JSON body schema of an operation, or null when it takes no JSON body. */
export function jsonBodySchema(operation: OpenApiOperation): JsonSchema | null {
  return operation.requestBody?.content?.['application/json']?.schema ?? null;
}

function resolve(schema: JsonSchema, doc: OpenApiDocument): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
  const target = doc.components?.schemas?.[name];
  if (!target) throw new Error(`unresolved $ref ${schema.$ref}`);
  return resolve(target, doc);
}

/**
 * The schema with every `#/components/schemas/…` reference replaced by what it names, so a
 * validator compiled from it alone resolves them (the document's schemas have no cycles).
 */
export function inlineRefs(schema: JsonSchema, doc: OpenApiDocument): JsonSchema {
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as JsonSchema).$ref;
    if (ref) return walk(resolve(value as JsonSchema, doc));
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item)]));
  };
  return walk(schema) as JsonSchema;
}

/** Thrown when no valid sample can be made from a schema alone (a pattern, say). */
export class NoSampleError extends Error {}

/**
 * The smallest value the schema accepts: required properties only, the first choice of a union,
 * the shortest string. A string pattern the plain sample does not match needs a sample written
 * by hand, and says so.
 */
export function sampleOf(input: JsonSchema, doc: OpenApiDocument, where = 'body'): unknown {
  const schema = resolve(input, doc);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices?.[0]) return sampleOf(choices[0], doc, where);
  if (schema.allOf) return Object.assign({}, ...schema.allOf.map((part) => sampleOf(part, doc, where)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'object': {
      const sample: Record<string, unknown> = {};
      for (const name of schema.required ?? []) {
        const property = schema.properties?.[name];
        if (!property) throw new NoSampleError(`${where}.${name} is required but has no schema`);
        sample[name] = sampleOf(property, doc, `${where}.${name}`);
      }
      return sample;
    }
    case 'string': {
      let text: string;
      if (schema.format === 'email') text = 'sample@example.com';
      else if (schema.format === 'date-time') text = new Date(0).toISOString();
      else if (schema.format === 'uri' || schema.format === 'url') text = 'https://example.com/';
      else text = 's'.repeat(Math.max(schema.minLength ?? 1, 1));
      if (schema.maxLength !== undefined && text.length > schema.maxLength) text = text.slice(0, schema.maxLength);
      if (schema.pattern && !new RegExp(schema.pattern, 'u').test(text)) {
        throw new NoSampleError(`${where} must match /${schema.pattern}/: write a sample body by hand`);
      }
      return text;
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? 0;
    case 'boolean':
      return false;
    case 'array':
      return Array.from({ length: schema.minItems ?? 0 }, () => sampleOf(schema.items ?? {}, doc, `${where}[]`));
    case 'null':
      return null;
    default:
      if (schema.default !== undefined) return schema.default;
      throw new NoSampleError(`${where} has a schema of no known type`);
  }
}
