import Ajv, { type ErrorObject, type SchemaObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isSecretLocation, MAX_PROBLEM_ERRORS, type ErrorDetail } from '../errors.js';
import { findTextFault } from '../text.js';
import { isHttpUrl } from './http-url.js';
import { boundsOf, statedBoundError } from './schema-bounds.js';
import { uniqueItemsByKey } from './unique-items.js';

/** A 422 names at most this many fields; the rest are counted, not listed (as every problem). */
export const MAX_REPORTED_ERRORS = MAX_PROBLEM_ERRORS;
/** A bad value is echoed up to this many characters. */
const MAX_ECHOED_CHARS = 100;

// Bodies are JSON and typed strictly: "5" is not 5. Query strings and paths are text, so only they
// are coerced. allErrors lets one 422 name every field that is wrong; what keeps that affordable on
// hostile input is the bounds check that runs first (see compileChecked).
function buildAjv(options: { coerce: boolean; allErrors: boolean }) {
  const ajv = new Ajv.default({
    allErrors: options.allErrors,
    coerceTypes: options.coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    verbose: true,
  });
  addFormats.default(ajv);
  ajv.addFormat('http-url', isHttpUrl);
  // ajv compares items of objects pairwise (quadratic); ours keys each item, so it is linear.
  ajv.removeKeyword('uniqueItems');
  ajv.addKeyword(uniqueItemsByKey);
  return ajv;
}

const strict = buildAjv({ coerce: false, allErrors: true });
const coercing = buildAjv({ coerce: true, allErrors: true });
// Stops at the first bound broken: it must stay cheap on any input.
const bounds = buildAjv({ coerce: false, allErrors: false });

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/**
 * Marks a request part whose handler applies the text rule itself, with an answer the wire
 * protocol fixes (a 422 there would make SDKs drop good usage); the value says how, in OpenAPI.
 */
export const TEXT_RULE_IN_HANDLER = 'x-text-rule-in-handler';

/** What a validator hands the error handler: the details to answer, already capped and located. */
export class InputRefused extends Error {
  constructor(
    readonly details: ErrorDetail[],
    /** How many more errors there were beyond the details listed. */
    readonly unlisted: number,
  ) {
    super(details.map((detail) => `${detail.location} ${detail.message}`).join('; ') + (unlisted > 0 ? `; and ${unlisted} more` : ''));
  }
}

function refused(errors: ErrorObject[], part: string): { error: InputRefused } {
  const listed = errors.slice(0, MAX_REPORTED_ERRORS);
  return { error: new InputRefused(toErrorDetails(listed, part), errors.length - listed.length) };
}

/**
 * Every request part is checked in three steps, cheapest first, so that no input of any shape or
 * size costs more than a pass over it:
 * 1. the text rule (no NUL, well-formed Unicode) on every string and property name;
 * 2. the schema's bounds alone (lengths, item and property counts, loosely), stopping at the first
 *    broken: past this point the data is not much larger than the schema allows;
 * 3. the whole schema with every error, of which at most MAX_REPORTED_ERRORS are answered.
 */
function compileChecked(schema: SchemaObject, httpPart: string) {
  const part = partNames[httpPart] ?? httpPart;
  const full = (httpPart === 'body' ? strict : coercing).compile(schema);
  const withinBounds = bounds.compile(boundsOf(schema));
  const textRuleHere = schema[TEXT_RULE_IN_HANDLER] === undefined;
  return (data: unknown) => {
    const fault = textRuleHere ? findTextFault(data, part) : null;
    if (fault) return { error: new InputRefused([{ location: fault.location, message: fault.message }], 0) };
    if (!withinBounds(data)) return refused((withinBounds.errors ?? []).map(statedBoundError), part);
    if (full(data)) return true;
    return refused(full.errors ?? [], part);
  };
}

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => compileChecked(schema as SchemaObject, httpPart ?? 'body');

/**
 * The same validators, each compiled when its route part is first validated instead of when the
 * app starts. Compiling every route's schemas was about a fifth of the CPU of a test file that
 * starts the app for a few routes (docs/decisions.md, "Tests"); a server keeps `validatorCompiler`,
 * so a schema that cannot compile stops it at start.
 */
export const validatorCompilerOnFirstUse: FastifySchemaCompiler<any> = (route) => {
  let validate: ReturnType<typeof compileChecked> | undefined;
  return (data: unknown) => (validate ??= compileChecked(route.schema as SchemaObject, route.httpPart ?? 'body'))(data);
};

/** A value fit to echo in a 422: short strings and small scalars as sent, anything large left out. */
function echoed(value: unknown): unknown {
  if (typeof value === 'string') return value.length > MAX_ECHOED_CHARS ? `${value.slice(0, MAX_ECHOED_CHARS).toWellFormed()}…` : value;
  if (value === null || typeof value !== 'object') return value;
  const size = Array.isArray(value) ? value.length : Object.keys(value).length;
  if (size > 10) return undefined;
  const json = JSON.stringify(value);
  return json.length > MAX_ECHOED_CHARS ? undefined : value;
}

function detail(location: string, message: string, value: unknown): ErrorDetail {
  const shown = isSecretLocation(location) ? undefined : echoed(value);
  return shown === undefined ? { location, message } : { location, message, value: shown };
}

/** The allowed values in words: `payg, free or subscriptions`. */
export function allowedValuesInWords(values: unknown[]): string {
  const shown = values.map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  return shown.length <= 1 ? (shown[0] ?? '') : `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}

/** The constants of a union of literals (TypeBox `Union([Literal…])` is `anyOf` of `const`), else null. */
function unionOfConstants(schema: unknown): unknown[] | null {
  if (!Array.isArray(schema) || !schema.length) return null;
  if (!schema.every((branch) => typeof branch === 'object' && branch !== null && 'const' in branch)) return null;
  return schema.map((branch: { const: unknown }) => branch.const);
}

/**
 * A union of literals fails once per branch ("must be equal to constant" three times) and then
 * once as a whole: the branches' errors are dropped and the whole one names the allowed values.
 */
function collapseUnions(errors: ErrorObject[]): ErrorObject[] {
  const unions = errors.filter((error) => error.keyword === 'anyOf' && unionOfConstants(error.schema));
  if (!unions.length) return errors;
  const inside = (error: ErrorObject) => unions.some((union) => error !== union && error.schemaPath.startsWith(`${union.schemaPath}/`) && error.instancePath === union.instancePath);
  return errors.filter((error) => !inside(error));
}

function allowedValuesMessage(error: ErrorObject): string | null {
  if (error.keyword === 'enum') return `must be one of ${allowedValuesInWords((error.params as { allowedValues: unknown[] }).allowedValues)}`;
  const constants = error.keyword === 'anyOf' ? unionOfConstants(error.schema) : null;
  if (constants) return `must be one of ${allowedValuesInWords(constants)}`;
  if (error.keyword === 'const') return `must be ${allowedValuesInWords([(error.params as { allowedValue: unknown }).allowedValue])}`;
  return null;
}

/** ajv errors as the spec's ErrorDetail list: `body.name`, a message, the value that was sent. */
export function toErrorDetails(errors: ErrorObject[], part: string): ErrorDetail[] {
  return collapseUnions(errors).map((error) => {
    const path = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'additionalProperties') {
      const property = (error.params as { additionalProperty: string }).additionalProperty;
      return detail([part, ...path, property].join('.'), 'unknown property', (error.data as Record<string, unknown>)?.[property]);
    }
    if (error.keyword === 'required') {
      const property = (error.params as { missingProperty: string }).missingProperty;
      return { location: [part, ...path, property].join('.'), message: 'is required' };
    }
    // `not: {const: x}` is how a schema refuses one value (a credit of 0): ajv's "must NOT be valid" names nothing.
    const refusedValue = error.keyword === 'not' && typeof error.schema === 'object' && error.schema !== null && 'const' in error.schema ? (error.schema as { const: unknown }).const : undefined;
    if (refusedValue !== undefined) return detail([part, ...path].join('.'), `must not be ${JSON.stringify(refusedValue)}`, error.data);
    return detail([part, ...path].join('.'), allowedValuesMessage(error) ?? error.message ?? 'is invalid', error.data);
  });
}
