// Hostile requests for every operation of the console's OpenAPI document: its path, query and
// body parameters read from the document, real ids of a workspace filled in, and one hostile
// element put in per request. Every request carries at least one element a rule refuses (the
// schema, well-formed text, the credentials), so a request that changes anything is a defect.
import fc from 'fast-check';
import { inlineRefs, jsonBodySchema, type JsonSchema, type OpenApiDocument, type OpenApiParameter, type Operation } from '../../support/openapi.js';
import {
  badPercent, deepNesting, NOT_UTF8_REFUSED, oddCookieValue, forgedCursor, hugeArray, NUL, oddAuthorization, outOfRange, outOfRangeDate, overLong, RawJson, toJsonText, unknownKey, withNul, withSurrogate, wrongTypeFor,
} from './hostile.js';
import type { Plan } from './runner.js';
import { breaksSchema, fieldsOf, holdsIllFormedText, sampleFor, withValueAt, type Field } from './schema-fields.js';
import type { HostileRequest } from './send.js';
import { consoleProblems, sdkProblems } from './verdicts.js';

/** Real ids of one workspace and what it holds, so requests reach the service and not just a 404. */
export interface ConsoleIds {
  ws: string;
  targetUserId: string;
  inviteId: string;
  inviteToken: string;
  spareKeyId: string;
  apiId: string;
  customerId: string;
  customerKeyId: string;
  planId: string;
  appId: string;
  serverId: string;
  roleId: string;
  personId: string;
  endpointId: string;
  deliveryId: string;
}

export interface Credential {
  name: string;
  headers: Record<string, string>;
}

/** `{id}` names a different thing under each collection: the segment before it says which. */
const ID_BY_COLLECTION: Record<string, keyof ConsoleIds> = {
  invites: 'inviteId', keys: 'spareKeyId', customers: 'customerId', plans: 'planId', apps: 'appId', servers: 'serverId', roles: 'roleId', people: 'personId',
};

function pathValue(op: Operation, name: string, ids: ConsoleIds): string {
  switch (name) {
    case 'ws': return ids.ws;
    case 'user_id': return ids.targetUserId;
    case 'token': return ids.inviteToken;
    case 'api': return ids.apiId;
    case 'key_id': return ids.customerKeyId;
    // An invitation to become a customer: none is open, so its routes refuse after their checks.
    case 'invite': return 'cin_none';
    // A person's sign-in session: none by this id, so ending it refuses after its checks.
    case 'session': return 'pss_none';
    case 'slug': return 'some-free-slug';
    case 'endpoint': return ids.endpointId;
    case 'delivery': return ids.deliveryId;
    case 'id': {
      const collection = /\/([\w-]+)\/\{id\}/.exec(op.path)?.[1] ?? '';
      const key = ID_BY_COLLECTION[collection];
      if (key) return ids[key];
    }
  }
  throw new Error(`${op.key}: no value for {${name}}; give it one in console-plans.ts`);
}

/** Valid bodies of operations whose schema has patterns a plain sample does not match. */
const BASE_BODIES: Record<string, unknown> = {
  'POST /api/auth/signup/verify': { email: 'sample@example.com', code: '123456' },
  'POST /api/auth/password/verify': { email: 'sample@example.com', code: '123456' },
  'POST /api/apis/{api}/secret/rotate': { grace_hours: 24 },
  'PUT /api/apis/{api}/logo': { logo_url: 'https://example.com/logo.png' },
  'POST /api/apis/{api}/customers/{id}/credit': { amount_micro: 1, note: 'n' },
  'POST /api/apis/{api}/signin/apps': { name: 'Fuzzed app', kind: 'web', redirect_uris: ['https://app.example.com/cb'] },
  'POST /api/apis/{api}/signin/servers': { name: 'Fuzzed server', resource_url: 'https://fuzzed.example.com/' },
  'PATCH /api/apis/{api}/signin/people/{id}': { status: 'suspended' },
  // An empty report changes nothing; hostile items are added to it.
  'POST /sdk/v1/usage': { items: [] },
};

interface Draft {
  family: string;
  poison: string;
  sure: boolean;
  /** Replaces the operation's path (with its query). */
  target?: string;
  /** Raw body text; absent means the base body. */
  body?: string;
  headers?: Record<string, string>;
}

const isSdk = (op: Operation) => op.path.startsWith('/sdk/');
const params = (op: Operation, where: OpenApiParameter['in']) => (op.operation.parameters ?? []).filter((p) => p.in === where);
const label = (path: (string | number)[]) => ['body', ...path].join('.');
const encode = (value: string) => encodeURIComponent(value);

/** The hostile requests of one operation, sent as `credential`. */
export function consolePlans(doc: OpenApiDocument, op: Operation, ids: ConsoleIds, credential: Credential): Plan[] {
  const pathParams = params(op, 'path');
  const queryParams = params(op, 'query');
  // References inlined: the usage report names its items' schema (SdkUsageItem).
  const documented = jsonBodySchema(op.operation);
  const schema = documented ? inlineRefs(documented, doc) : null;
  const baseBody = schema ? (BASE_BODIES[op.key] ?? sampleFor(schema, doc)) : undefined;
  const values = Object.fromEntries(pathParams.map((p) => [p.name, pathValue(op, p.name, ids)]));
  const pathWith = (name?: string, raw?: string) => op.path.replace(/\{(\w+)\}/g, (_, param: string) => (param === name ? raw! : encode(values[param]!)));
  const validPath = pathWith();
  const sampleAt = (path: (string | number)[]) => {
    let at: JsonSchema | undefined = schema ?? undefined;
    for (const step of path) at = typeof step === 'number' ? at?.items : at?.properties?.[step];
    return at ? sampleFor(at, doc) : {};
  };
  /**
   * A body breaks the schema, or holds text no string of the service may hold (issue 11 item 3).
   * Where the schema lets undeclared properties through (the SDK's usage report ignores them, as
   * the wire protocol asks), only the declared ones count.
   */
  const bodyIsSure = (body: unknown) => holdsIllFormedText(declaredPart(schema, body)) || (schema !== null && breaksSchema(schema, body));

  const drafts: { family: string; heavy: boolean; arbitrary: fc.Arbitrary<Draft> }[] = [];
  const add = (family: string, arbitrary: fc.Arbitrary<Omit<Draft, 'family'>>, heavy = false) => drafts.push({ family, heavy, arbitrary: arbitrary.map((d) => ({ ...d, family })) });

  // Credentials: the Authorization header is judged alone (console caller hook, SDK hook).
  add('authorization odd', oddAuthorization.map((value) => ({ poison: `Authorization: ${value.slice(0, 40)}`, sure: true, headers: { authorization: value } })));

  // Session cookies are read before anything else; a hostile one must leave the caller unknown.
  // Sent without other credentials (a key would be judged alone), and with an undeclared property
  // where the route takes a body, so that the request is refused whoever it turns out to be; on
  // routes without a body it is a probe (logging out without a session is fine, and answers 200).
  const refusedBody = schema ? { ...(baseBody as Record<string, unknown>), undeclared: 'x' } : undefined;
  if (!credential.headers.authorization && (refusedBody || mayProbe(op))) {
    add('cookie odd', fc.tuple(oddCookieValue, fc.boolean()).map(([value, twice]) => ({
      poison: `Cookie gh_session=${value.slice(0, 30)}${twice ? ' (twice)' : ''}`,
      sure: refusedBody !== undefined,
      headers: { cookie: twice ? `gh_session=${value}; gh_session=other` : `gh_session=${value}` },
      ...(refusedBody ? { body: toJsonText(refusedBody) } : {}),
    })));
  }

  if (pathParams.length) {
    const names = pathParams.map((p) => p.name);
    const at = (name: string) => fc.nat({ max: values[name]!.length }).map((i) => [values[name]!.slice(0, i), values[name]!.slice(i)] as const);
    add('path NUL', fc.constantFrom(...names).chain((name) => at(name).map(([a, b]) => ({ poison: `%00 in path {${name}}`, sure: true, target: pathWith(name, `${encode(a)}%00${encode(b)}`) }))));
    // The `z` after it keeps a truncated escape from borrowing the next characters (`a%2` + `e`).
    add('path bad percent', fc.tuple(fc.constantFrom(...names), badPercent).chain(([name, bad]) => at(name).map(([a, b]) => ({ poison: `${bad} in path {${name}}`, sure: true, target: pathWith(name, `${encode(a)}${bad}z${encode(b)}`) }))));
    add('path over-long', fc.tuple(fc.constantFrom(...pathParams), fc.integer({ min: 1, max: 8000 })).map(([p, extra]) => {
      const value = values[p.name]! + 'x'.repeat(Math.max(extra, (p.schema?.maxLength ?? 0) + 1));
      return { poison: `${value.length} characters in path {${p.name}}`, sure: breaksSchema({ type: 'object', properties: { v: p.schema ?? {} } }, { v: value }, true), target: pathWith(p.name, value) };
    }));
  }

  if (queryParams.length) {
    add('query hostile', fc.constantFrom(...queryParams).chain((p) => queryValue(p).map(({ raw, what, sure }) => ({ poison: `${what} in query ${p.name}`, sure, target: `${validPath}?${encode(p.name)}=${raw}` }))));
  }
  if (mayProbe(op) && op.method === 'GET') {
    // Undeclared parameters are ignored, not refused: a probe of the query parser, never a must-refuse.
    add('query undeclared', fc.tuple(badOrNulText, fc.constantFrom('zz', '%00', 'a%E0%A4%A')).map(([raw, name]) => ({ poison: `undeclared ${name}=${raw}`, sure: false, target: `${validPath}?${name}=${raw}` })));
  }

  if (schema) {
    const fields = fieldsOf(schema);
    const bodyWith = (field: Field, value: unknown) => withValueAt(baseBody, field.path, value, (tail) => sampleAt([...field.path.slice(0, -1), ...tail]));
    const fieldDraft = (field: Field, value: unknown, what: string): Omit<Draft, 'family'> => {
      const body = bodyWith(field, value);
      const checkable = value instanceof RawJson ? bodyWith(field, [[[0]]]) : Array.isArray(value) && value.length > 1000 ? null : body;
      const sure = checkable === null ? hugeIsRefused(field, value as unknown[]) : bodyIsSure(checkable);
      return { poison: `${what} at ${label(field.path)}`, sure, body: toJsonText(body) };
    };
    if (fields.length) {
      const field = fc.constantFrom(...fields);
      add('body NUL', field.chain((f) => textFor(f, doc).chain(withNul).map((v) => fieldDraft(f, v, 'NUL'))));
      add('body surrogate', field.chain((f) => textFor(f, doc).chain(withSurrogate).map((v) => fieldDraft(f, v, 'lone surrogate'))));
      add('body wrong type', field.chain((f) => wrongTypeFor(f.type).map((v) => fieldDraft(f, v, `${JSON.stringify(v)} (a ${f.type ?? 'value'})`))));
      const bounded = fields.filter((f) => (f.type === 'integer' || f.type === 'number') || f.schema.maxLength !== undefined || f.allowed);
      if (bounded.length) add('body out of range', fc.constantFrom(...bounded).chain((f) => outOfBoundsFor(f).map((v) => fieldDraft(f, v, `out of range ${JSON.stringify(v).slice(0, 30)}`))));
      add('body huge array', field.chain((f) => hugeArray.map((v) => fieldDraft(f, v, `${v.length} items`))), true);
      add('body deep field', field.chain((f) => deepNesting.map((v) => fieldDraft(f, v, `nesting ${v.depth} deep`))), true);
    }
    add('body unknown key', fc.tuple(unknownKey, fc.constantFrom<unknown>('x', NUL, 1, null, {})).map(([key, value]) => {
      const body = { ...(baseBody as Record<string, unknown>), [key]: value };
      return { poison: `property ${JSON.stringify(key).slice(0, 40)}`, sure: bodyIsSure(body), body: toJsonText(body) };
    }));
    add('body not JSON', fc.constantFrom('{"a":', '{', '[1,]', 'nul', '{"a":1}}', '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '\u0000', '{"a":"\\ud800"', '"\\u0000"').map((text) => ({ poison: `body ${JSON.stringify(text)}`, sure: true, body: text })));
    add('body not an object', fc.constantFrom('null', '1', '"x"', 'true', '[]', '[{}]').map((text) => ({ poison: `body ${text}`, sure: bodyIsSure(JSON.parse(text)), body: text })));
    add('content type', fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'multipart/form-data; boundary=x').map((type) => ({
      poison: `Content-Type ${type}`, sure: true, headers: { 'content-type': type }, body: toJsonText(baseBody),
    })));
    add('body whole hostile', fc.oneof(
      deepNesting.map((v) => ({ what: `body nested ${v.depth} deep`, text: v.text, value: [] as unknown })),
      hugeArray.map((v) => ({ what: `body of ${v.length} items`, text: JSON.stringify(v), value: v as unknown })),
      fc.integer({ min: 10_000, max: 50_000 }).map((n) => {
        const many = Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
        return { what: `body of ${n} properties`, text: JSON.stringify(many), value: { k0: 0, k1: 1 } as unknown };
      }),
    ).map(({ what, text, value }) => ({ poison: what, sure: bodyIsSure(value), body: text })), true);
  } else if (op.method !== 'GET' && op.method !== 'DELETE') {
    // Fastify parses a JSON body even where the route reads none.
    add('body not JSON', fc.constantFrom('{"a":', '[1,]', '{"__proto__":{"polluted":1}}').map((text) => ({ poison: `body ${JSON.stringify(text)}`, sure: true, body: text })));
  }
  if (!schema && !isSdk(op) && op.method !== 'GET') {
    // An operation that takes no body refuses one, whatever it holds (console/no-body-hook.ts); only {} passes.
    add('body where none is taken', fc.constantFrom('{"a":1}', '{"at_once":true}', '[]', 'null', '"x"', '0').map((text) => ({ poison: `body ${text} where none is taken`, sure: true, body: text })));
  }

  if (op.key === 'POST /sdk/v1/usage') add('usage item hostile', usageItem(ids).map((item) => ({ poison: item.what, sure: true, body: JSON.stringify({ items: [item.item] }) })));

  const judge = isSdk(op) ? sdkProblems : consoleProblems;
  return drafts.map((draft) => ({
    where: op.key,
    family: draft.family,
    credential: credential.name,
    heavy: draft.heavy,
    probes: mayProbe(op),
    judge,
    arbitrary: draft.arbitrary.map((d): HostileRequest => {
      const headers: Record<string, string> = { ...credential.headers };
      const body = d.body ?? (baseBody === undefined ? undefined : toJsonText(baseBody));
      if (body !== undefined) headers['content-type'] = 'application/json';
      Object.assign(headers, d.headers);
      return { method: op.method, target: d.target ?? validPath, headers, ...(body !== undefined ? { body } : {}), credential: credential.name, family: d.family, poison: d.poison, sure: d.sure };
    }),
  }));
}

/** Reads that write: revealing a secret is audited, a snapshot fetch records the SDK's visit. */
const READS_WITH_EFFECTS = new Set(['GET /api/apis/{api}/secret', 'GET /sdk/v1/snapshot']);

/**
 * Whether requests that no rule surely refuses may be sent: reads without effects, and the SDK's
 * usage report, whose base body (no items) cannot change anything.
 */
const mayProbe = (op: Operation) => (op.method === 'GET' && !READS_WITH_EFFECTS.has(op.key)) || op.key === 'POST /sdk/v1/usage';

function declaredPart(schema: JsonSchema | null, body: unknown): unknown {
  const open = schema && (schema as { additionalProperties?: unknown }).additionalProperties !== false;
  if (!open || body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => key in (schema.properties ?? {})));
}

/** A huge array at a field is refused when the field is no array, or a bounded one. */
function hugeIsRefused(field: Field, value: unknown[]): boolean {
  if (field.type !== 'array') return true;
  return field.schema.maxItems !== undefined && value.length > field.schema.maxItems;
}

/** The text a string field would hold: its first allowed value, or a plain sample. */
function textFor(field: Field, doc: OpenApiDocument): fc.Arbitrary<string> {
  if (field.allowed?.length && typeof field.allowed[0] === 'string') return fc.constant(field.allowed[0]);
  const sample = field.type === 'string' ? sampleFor(field.schema, doc) : 'x';
  return fc.constant(typeof sample === 'string' && sample.length ? sample : 'x');
}

/** Values outside what a field allows: bounds, lengths, enums. */
function outOfBoundsFor(field: Field): fc.Arbitrary<unknown> {
  const schema = field.schema as JsonSchema & { maximum?: number };
  if (field.allowed?.length) return fc.constantFrom<unknown>(...field.allowed.map((v) => String(v).toUpperCase() + '_'), '', ' ' + String(field.allowed[0]));
  if (field.type === 'integer' || field.type === 'number') return outOfRange(schema.minimum, schema.maximum);
  return overLong(schema.maxLength ?? 100_000);
}

const badOrNulText: fc.Arbitrary<string> = fc.oneof(badPercent, fc.constantFrom('%00', 'a%00b', '%ED%A0%80'));

/** Raw query text a rule refuses: a NUL, or (GH_FUZZ_STRICT_UTF8=1) escaped bytes that are not UTF-8. */
const refusedRaw = (raw: string) => raw.includes('%00') || (NOT_UTF8_REFUSED && /%(E0%A4|ED%[AB]|C0|FF|C3%28|80)/i.test(raw));

/** A hostile value of one query parameter, raw (already percent-encoded as it goes on the wire). */
function queryValue(p: OpenApiParameter): fc.Arbitrary<{ raw: string; what: string; sure: boolean }> {
  const schema = p.schema ?? {};
  const refused = (value: unknown) => breaksSchema({ type: 'object', properties: { [p.name]: schema } }, { [p.name]: value }, true);
  const plain = (value: string, what: string) => ({ raw: encode(value), what, sure: value.includes(NUL) || refused(value) });
  const options: fc.Arbitrary<{ raw: string; what: string; sure: boolean }>[] = [
    fc.constantFrom('x', '1', 'active').chain(withNul).map((v) => plain(v, 'NUL')),
    badOrNulText.map((raw) => ({ raw, what: `raw ${raw}`, sure: refusedRaw(raw) })),
    fc.constantFrom('', '-1', '0', '1.5', '1e400', 'NaN', '0x10', ' 1', '[]', '{}', 'true').map((v) => plain(v, `"${v}"`)),
    fc.integer({ min: 1, max: 10_000 }).map((n) => plain('x'.repeat((schema.maxLength ?? 0) + n), 'over-long value')),
    fc.constantFrom('1', 'x').map((v) => ({ raw: `${v}&${encode(p.name)}=2`, what: 'repeated parameter', sure: refused([v, '2']) })),
  ];
  if (schema.type === 'integer') options.push(outOfRange(schema.minimum, (schema as { maximum?: number }).maximum).map((n) => plain(String(n), `out of range ${n}`)));
  if (/cursor|before/.test(p.name)) options.push(forgedCursor.map((cursor) => ({ raw: encode(cursor), what: `forged cursor ${cursor.slice(0, 24)}`, sure: cursor.includes(NUL) })));
  if (/at$|date|from|to$|since|until/.test(p.name)) options.push(outOfRangeDate.map((date) => plain(date, `date ${date}`)));
  return fc.oneof(...options);
}

/** Usage items of a real key, each broken in one field (wire protocol section 4 rejects them one by one). */
function usageItem(ids: ConsoleIds): fc.Arbitrary<{ item: Record<string, unknown>; what: string }> {
  const hour = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000).toISOString().replace('.000Z', 'Z');
  const base = { api_key_id: ids.customerKeyId, status_code: 200, count: 1, period_start: hour };
  const broken: [string, fc.Arbitrary<unknown>][] = [
    ['idempotency_key', fc.oneof(withNul('key'), withSurrogate('key'), fc.constant('k'.repeat(129)), fc.constant(''))],
    ['api_key_id', fc.oneof(withNul(ids.customerKeyId), withSurrogate(ids.customerKeyId), fc.constant(12))],
    ['status_code', fc.constantFrom<unknown>(0, 99, 1000, -200, '200', 200.5, null)],
    ['count', fc.constantFrom<unknown>(-1, 0.5, '1', 2 ** 53, 2 ** 53 + 2, 1e300, null)],
    ['period_start', fc.oneof(outOfRangeDate, fc.constantFrom('not a date', `${hour}${NUL}`, '2024-13-45T99:00:00Z', ''))],
    ['usage_policy_id', fc.oneof(withNul('pol_x'), withSurrogate('pol_x'), fc.constant(7))],
  ];
  return fc.tuple(fc.uuid(), fc.constantFrom(...broken)).chain(([key, [name, value]]) =>
    value.map((v) => ({ item: { ...base, idempotency_key: key, [name]: v }, what: `${JSON.stringify(v).slice(0, 30)} as item ${name}` })));
}
