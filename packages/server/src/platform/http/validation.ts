import Ajv, { type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ErrorDetail } from '../errors.js';

// Bodies are JSON and typed strictly: "5" is not 5. Query strings and paths are text, so only they
// are coerced. allErrors lets one 422 name every field that is wrong.
function buildAjv(coerce: boolean) {
  const ajv = new Ajv.default({
    allErrors: true,
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: false,
    useDefaults: true,
    strict: false,
    verbose: true,
  });
  addFormats.default(ajv);
  return ajv;
}

const strict = buildAjv(false);
const coercing = buildAjv(true);

export const validatorCompiler: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? strict : coercing;
  return ajv.compile(schema);
};

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** ajv errors as the spec's ErrorDetail list: `body.name`, a message, the value that was sent. */
export function toErrorDetails(errors: ErrorObject[], context: string): ErrorDetail[] {
  const part = partNames[context] ?? context;
  return errors.map((error) => {
    const path = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'additionalProperties') {
      const property = (error.params as { additionalProperty: string }).additionalProperty;
      return { location: [part, ...path, property].join('.'), message: 'unknown property', value: (error.data as Record<string, unknown>)?.[property] };
    }
    if (error.keyword === 'required') {
      const property = (error.params as { missingProperty: string }).missingProperty;
      return { location: [part, ...path, property].join('.'), message: 'is required' };
    }
    return { location: [part, ...path].join('.'), message: error.message ?? 'is invalid', value: error.data };
  });
}
