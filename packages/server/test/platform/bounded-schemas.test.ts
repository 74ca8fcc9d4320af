// Hardening item 1: the bounds check before validation protects only what schemas bound. Every
// input of every console operation must be bounded: strings by a length (or a fixed set of
// values), arrays by a count, objects by refusing unknown properties. A new unbounded field fails here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { jsonBodySchema, operationsOf, type JsonSchema, type OpenApiDocument } from '../support/openapi.js';

let t: TestApp;
let doc: OpenApiDocument;
before(async () => {
  t = await startTestApp();
  doc = (await (await fetch(`${t.url}/api/openapi.json`)).json()) as OpenApiDocument;
});
after(() => t.close());

type Loose = JsonSchema & { maxItems?: number; additionalProperties?: unknown; maxProperties?: number; 'x-text-rule-in-handler'?: string };

/** The places under `schema` that hold data of unbounded size, as dotted paths. */
function unbounded(schema: Loose, path: string): string[] {
  if (schema.$ref) return unbounded(doc.components!.schemas![schema.$ref.replace('#/components/schemas/', '')] as Loose, path);
  // The SDK routes bound their input themselves, per the wire protocol (platform/http/validation.ts).
  if (schema['x-text-rule-in-handler']) return [];
  const branches = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branches) return branches.flatMap((branch) => unbounded(branch as Loose, path));
  if (schema.enum || schema.const !== undefined) return [];
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const found: string[] = [];
  if (types.includes('string') && schema.maxLength === undefined) found.push(`${path} (string without maxLength)`);
  if (types.includes('array')) {
    if (schema.maxItems === undefined) found.push(`${path} (array without maxItems)`);
    if (schema.items) found.push(...unbounded(schema.items as Loose, `${path}.items`));
  }
  if (types.includes('object')) {
    if (schema.additionalProperties !== false && schema.maxProperties === undefined) found.push(`${path} (object open to unknown properties)`);
    for (const [name, property] of Object.entries(schema.properties ?? {})) found.push(...unbounded(property as Loose, `${path}.${name}`));
  }
  return found;
}

test('every body, path and query input of the console is bounded', () => {
  const found: string[] = [];
  for (const operation of operationsOf(doc)) {
    const where = `${operation.method.toUpperCase()} ${operation.path}`;
    const body = jsonBodySchema(operation.operation);
    if (body) found.push(...unbounded(body as Loose, `${where} body`));
    for (const parameter of operation.operation.parameters ?? []) {
      // The wire protocol fixes this answer: any key_hash that is not a hash is "not a key" (200),
      // never a 422; the URL's own limit (the request header size) bounds it.
      if (operation.path === '/sdk/v1/keys/verify' && parameter.name === 'key_hash') continue;
      if (parameter.schema) found.push(...unbounded(parameter.schema as Loose, `${where} ${parameter.in}.${parameter.name}`));
    }
  }
  assert.deepEqual(found, []);
});
