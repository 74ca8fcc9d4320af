// A strict checker of what the SDK sync API sends, written from shared/spec/sdk-wire-protocol.md.
//
// Section 2 ("Breaking any rule rejects the whole snapshot") is implemented rule by rule, the way the
// public Python SDK parses a snapshot; section 3 (verify answers) and the answer of section 4 (usage
// results) likewise. On top of the parser's rules there are "server form" rules: what the document
// tells a server to send (timestamps as YYYY-MM-DDTHH:MM:SS[.sss]Z, canonical lowercase UUIDs, times
// well in the future). They are on by default and can be turned off to check a third-party body.
//
// Numbers are checked on their JSON text, not on what JSON.parse made of them: `5.0` and `5e0`
// parse to 5 in JavaScript but to a float in Python, where the SDK rejects them.

/** 2^53 - 1: the largest integer the wire carries (section 2, "int"). */
export const MAX_WIRE_INT = 9_007_199_254_740_991;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------------------------------------
// A JSON parser that keeps the text of every number and notices repeated object keys.

export interface ParsedJson {
  value: Json;
  /** The JSON text of each number, by path (`/customers/0/month_requests`). */
  numbers: Map<string, string>;
  /** Paths of object keys that appear more than once in the same object. */
  repeatedKeys: string[];
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

export function parseJsonKeepingNumbers(text: string): ParsedJson {
  let pos = 0;
  const numbers = new Map<string, string>();
  const repeatedKeys: string[] = [];
  const fail = (what: string): never => {
    throw new SyntaxError(`invalid JSON at offset ${pos}: ${what}`);
  };
  const skipSpace = () => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos]!)) pos++;
  };
  const parseString = (): string => {
    if (text[pos] !== '"') fail('expected a string');
    pos++;
    let out = '';
    for (;;) {
      if (pos >= text.length) fail('unterminated string');
      const ch = text[pos]!;
      if (ch === '"') {
        pos++;
        return out;
      }
      if (ch.charCodeAt(0) < 0x20) fail('control character in a string');
      if (ch === '\\') {
        const esc = text[pos + 1];
        const simple: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
        if (esc !== undefined && esc in simple) {
          out += simple[esc];
          pos += 2;
        } else if (esc === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(pos + 2, pos + 6))) {
          out += String.fromCharCode(parseInt(text.slice(pos + 2, pos + 6), 16));
          pos += 6;
        } else fail('bad escape');
      } else {
        out += ch;
        pos++;
      }
    }
  };
  const parseValue = (path: string): Json => {
    skipSpace();
    const ch = text[pos];
    if (ch === '{') {
      pos++;
      const obj: { [key: string]: Json } = {};
      const seen = new Set<string>();
      skipSpace();
      if (text[pos] === '}') {
        pos++;
        return obj;
      }
      for (;;) {
        skipSpace();
        const key = parseString();
        if (seen.has(key)) repeatedKeys.push(`${path}/${key}`);
        seen.add(key);
        skipSpace();
        if (text[pos] !== ':') fail('expected :');
        pos++;
        obj[key] = parseValue(`${path}/${key}`);
        skipSpace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === '}') {
          pos++;
          return obj;
        }
        fail('expected , or }');
      }
    }
    if (ch === '[') {
      pos++;
      const arr: Json[] = [];
      skipSpace();
      if (text[pos] === ']') {
        pos++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(`${path}/${arr.length}`));
        skipSpace();
        if (text[pos] === ',') {
          pos++;
          continue;
        }
        if (text[pos] === ']') {
          pos++;
          return arr;
        }
        fail('expected , or ]');
      }
    }
    if (ch === '"') return parseString();
    for (const [word, value] of [['true', true], ['false', false], ['null', null]] as const) {
      if (text.startsWith(word, pos)) {
        pos += word.length;
        return value;
      }
    }
    NUMBER.lastIndex = pos;
    const m = NUMBER.exec(text);
    if (!m) return fail('unexpected character');
    pos += m[0].length;
    numbers.set(path, m[0]);
    return Number(m[0]);
  };
  const value = parseValue('');
  skipSpace();
  if (pos !== text.length) fail('trailing characters');
  return { value, numbers, repeatedKeys };
}

// ---------------------------------------------------------------------------------------------
// The types of section 2.

export interface CheckOptions {
  /** The client's clock when the answer arrived: generated_at may be at most 60 s ahead of it. */
  clientNow?: Date;
  /** `?shape=full`: the spec's wider shape, where a customer may read `pending`. */
  fullShape?: boolean;
  /** Also check what the document tells a server to send (default true). */
  serverForm?: boolean;
  /** Also check the spec's SnapshotBody (tenant_name, platform_monthly_allowance, balance_seq; default true). */
  spec?: boolean;
}

class Checker {
  readonly problems: string[] = [];
  constructor(
    readonly numbers: Map<string, string> | null,
    readonly options: CheckOptions,
  ) {}

  get serverForm() {
    return this.options.serverForm !== false;
  }

  problem(path: string, message: string) {
    this.problems.push(`${path || '/'}: ${message}`);
  }

  isObject(value: unknown): value is Record<string, Json> {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  }

  /** int: a JSON integer from min (0) to 2^53 - 1; `5.0`, `true` and `"5"` are not ints. */
  int(path: string, value: unknown, min = 0): value is number {
    if (typeof value !== 'number') {
      this.problem(path, `must be a JSON integer, got ${JSON.stringify(value)}`);
      return false;
    }
    const lexeme = this.numbers?.get(path);
    if (lexeme !== undefined) {
      if (!/^-?(?:0|[1-9][0-9]*)$/.test(lexeme)) {
        this.problem(path, `must be written as an integer, got ${lexeme}`);
        return false;
      }
      const big = BigInt(lexeme);
      if (big < BigInt(min) || big > BigInt(MAX_WIRE_INT)) {
        this.problem(path, `must be from ${min} to ${MAX_WIRE_INT}, got ${lexeme}`);
        return false;
      }
      return true;
    }
    if (!Number.isInteger(value) || value < min || value > MAX_WIRE_INT) {
      this.problem(path, `must be an integer from ${min} to ${MAX_WIRE_INT}, got ${value}`);
      return false;
    }
    return true;
  }

  /** str: a non-empty string of at most 512 characters (Python counts code points). */
  str(path: string, value: unknown): value is string {
    if (typeof value !== 'string') {
      this.problem(path, `must be a string, got ${JSON.stringify(value)}`);
      return false;
    }
    const length = [...value].length;
    if (length < 1 || length > 512) {
      this.problem(path, `must have 1 to 512 characters, has ${length}`);
      return false;
    }
    return true;
  }

  bool(path: string, value: unknown): value is boolean {
    if (typeof value !== 'boolean') {
      this.problem(path, `must be true or false, got ${JSON.stringify(value)}`);
      return false;
    }
    return true;
  }

  /**
   * ts: at most 64 characters with an offset. The SDK turns `Z` into `+00:00` and calls CPython
   * 3.10's fromisoformat, which takes 0, 3 or 6 fractional digits and `±HH:MM` offsets only.
   * Returns the instant in microseconds since the epoch.
   */
  ts(path: string, value: unknown): bigint | null {
    if (typeof value !== 'string') {
      this.problem(path, `must be a timestamp string, got ${JSON.stringify(value)}`);
      return null;
    }
    if (value.length > 64) {
      this.problem(path, `must have at most 64 characters, has ${value.length}`);
      return null;
    }
    const micros = parsePython310Timestamp(value);
    if (micros === null) {
      this.problem(path, `is not a time with an offset that Python 3.10 parses: ${value}`);
      return null;
    }
    if (this.serverForm && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z$/.test(value)) {
      this.problem(path, `should be sent as YYYY-MM-DDTHH:MM:SS[.sss]Z, got ${value}`);
    }
    return micros;
  }

  /** uuid: parseable by Python's uuid.UUID and not all zeros; the server sends canonical lowercase. */
  uuid(path: string, value: unknown): value is string {
    if (typeof value !== 'string') {
      this.problem(path, `must be a UUID string, got ${JSON.stringify(value)}`);
      return false;
    }
    const parsed = parsePythonUuid(value);
    if (parsed === null) {
      this.problem(path, `is not a UUID Python parses: ${value}`);
      return false;
    }
    if (parsed === 0n) {
      this.problem(path, 'must not be the all-zero UUID');
      return false;
    }
    if (this.serverForm && !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(value)) {
      this.problem(path, `should be a canonical lowercase UUID, got ${value}`);
    }
    return true;
  }

  /** billable_status_codes: an array (never null) of ints 100..599 without duplicates. */
  statusCodes(path: string, value: unknown) {
    if (!Array.isArray(value)) {
      this.problem(path, `must be an array, got ${JSON.stringify(value)}`);
      return;
    }
    const seen = new Set<number>();
    value.forEach((code, i) => {
      if (!this.int(`${path}/${i}`, code)) return;
      const n = code as number;
      if (n < 100 || n > 599) this.problem(`${path}/${i}`, `must be from 100 to 599, got ${n}`);
      if (seen.has(n)) this.problem(`${path}/${i}`, `repeats ${n}`);
      seen.add(n);
    });
  }

  /** A customer of a snapshot (also the `customer` of a verify answer). */
  customer(path: string, c: unknown, reference: { generatedAt: bigint | null }) {
    if (!this.isObject(c)) {
      this.problem(path, 'must be an object');
      return;
    }
    this.str(`${path}/id`, c.id);
    const statuses = this.options.fullShape ? ['active', 'suspended', 'pending'] : ['active', 'suspended'];
    if (!statuses.includes(c.status as string)) this.problem(`${path}/status`, `must be ${statuses.join(' or ')}, got ${JSON.stringify(c.status)}`);
    this.int(`${path}/credit_balance_micro`, c.credit_balance_micro, -MAX_WIRE_INT);
    this.int(`${path}/month_requests`, c.month_requests);
    const policyGiven = c.usage_policy_id !== undefined && c.usage_policy_id !== null;
    const untilGiven = c.policy_valid_until !== undefined && c.policy_valid_until !== null;
    if (policyGiven !== untilGiven) this.problem(path, 'usage_policy_id and policy_valid_until must be both present or both null');
    if (policyGiven) this.uuid(`${path}/usage_policy_id`, c.usage_policy_id);
    if (untilGiven) {
      const until = this.ts(`${path}/policy_valid_until`, c.policy_valid_until);
      // "Send times well in the future": a policy that is already expired makes the SDK refresh
      // before every request, and answer 503 when the refresh brings the same time again.
      if (this.serverForm && until !== null && reference.generatedAt !== null && until <= reference.generatedAt + 3_600_000_000n) {
        this.problem(`${path}/policy_valid_until`, 'should be well after generated_at (at least an hour)');
      }
    }
    const e = c.effective;
    if (!this.isObject(e)) {
      this.problem(`${path}/effective`, 'is required and must be an object');
    } else {
      this.int(`${path}/effective/rps`, e.rps);
      this.int(`${path}/effective/price_per_request_micro`, e.price_per_request_micro);
      if (e.monthly_quota !== undefined && e.monthly_quota !== null) this.int(`${path}/effective/monthly_quota`, e.monthly_quota);
      this.str(`${path}/effective/billing_model`, e.billing_model);
      // source: a string that may be empty (the SDK does not use it).
      if (typeof e.source !== 'string' || [...e.source].length > 512) this.problem(`${path}/effective/source`, `must be a string of at most 512 characters, got ${JSON.stringify(e.source)}`);
      if (this.options.spec !== false) {
        if (!['payg', 'subscription', 'none'].includes(e.billing_model as string)) this.problem(`${path}/effective/billing_model`, `spec Effective: payg, subscription or none, got ${JSON.stringify(e.billing_model)}`);
        if (!['custom', 'plan', 'payg'].includes(e.source as string)) this.problem(`${path}/effective/source`, `spec Effective: custom, plan or payg, got ${JSON.stringify(e.source)}`);
      }
    }
    if (this.options.spec !== false) this.int(`${path}/balance_seq`, c.balance_seq);
  }
}

/** CPython 3.10: `Z` becomes `+00:00`, then fromisoformat. Microseconds since the epoch, or null. */
export function parsePython310Timestamp(text: string): bigint | null {
  const s = text.replaceAll('Z', '+00:00');
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{3}|\d{6}))?([+-])(\d{2}):(\d{2})$/.exec(s);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const fraction = m[7] ?? '';
  const [sign, offH, offM] = [m[8], Number(m[9]), Number(m[10])];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) return null;
  if (offH > 23 || offM > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const micros = BigInt(date.getTime()) * 1000n + BigInt(fraction.padEnd(6, '0') || '0');
  const offset = BigInt((offH * 60 + offM) * 60_000_000);
  return sign === '+' ? micros - offset : micros + offset;
}

/**
 * Python's uuid.UUID(text): drops `urn:` and `uuid:`, strips braces, removes hyphens, then needs
 * exactly 32 characters that int(_, 16) reads as a value from 0 to 2^128 - 1. The value, or null.
 */
export function parsePythonUuid(text: string): bigint | null {
  let hex = text.replaceAll('urn:', '').replaceAll('uuid:', '');
  hex = hex.replace(/^[{}]+/, '').replace(/[{}]+$/, '').replaceAll('-', '');
  if ([...hex].length !== 32) return null;
  const m = /^\s*([+-]?)(?:0[xX]_?)?([0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)\s*$/.exec(hex);
  if (!m) return null;
  const value = BigInt('0x' + m[2]!.replaceAll('_', ''));
  if (m[1] === '-' && value !== 0n) return null;
  return value < 1n << 128n ? value : null;
}

function parsed(input: string | unknown): { value: unknown; numbers: Map<string, string> | null; problems: string[] } {
  if (typeof input !== 'string') return { value: input, numbers: null, problems: [] };
  try {
    const p = parseJsonKeepingNumbers(input);
    return { value: p.value, numbers: p.numbers, problems: p.repeatedKeys.map((k) => `${k}: the key appears more than once`) };
  } catch (error) {
    return { value: undefined, numbers: null, problems: [`/: ${(error as Error).message}`] };
  }
}

// ---------------------------------------------------------------------------------------------
// Section 2: GET /sdk/v1/snapshot.

/** Every rule of section 2 the body breaks (empty when the SDK would take it). Give the JSON text. */
export function snapshotProblems(input: string | unknown, options: CheckOptions = {}): string[] {
  const { value: body, numbers, problems: syntax } = parsed(input);
  const ck = new Checker(numbers, options);
  ck.problems.push(...syntax);
  if (!ck.isObject(body)) {
    ck.problem('', 'the snapshot must be a JSON object');
    return ck.problems;
  }
  const generatedAt = ck.ts('/generated_at', body.generated_at);
  if (generatedAt !== null && options.clientNow) {
    const ahead = generatedAt - BigInt(options.clientNow.getTime()) * 1000n;
    if (ahead > 60_000_000n) ck.problem('/generated_at', `is ${ahead / 1000n} ms ahead of the client clock (at most 60 s)`);
  }
  if (body.tenant_id !== undefined && body.tenant_id !== null) ck.str('/tenant_id', body.tenant_id);
  ck.statusCodes('/billable_status_codes', body.billable_status_codes);
  const limitOk = ck.int('/platform_monthly_limit', body.platform_monthly_limit);
  const usedOk = ck.int('/platform_monthly_used', body.platform_monthly_used);
  if (ck.int('/platform_monthly_remaining', body.platform_monthly_remaining) && limitOk && usedOk) {
    const expected = Math.max(0, (body.platform_monthly_limit as number) - (body.platform_monthly_used as number));
    if (body.platform_monthly_remaining !== expected) ck.problem('/platform_monthly_remaining', `must be exactly max(0, limit - used) = ${expected}, got ${body.platform_monthly_remaining}`);
  }
  const periodEnd = ck.ts('/platform_period_end', body.platform_period_end);
  if (periodEnd !== null && generatedAt !== null && periodEnd <= generatedAt) ck.problem('/platform_period_end', 'must be later than generated_at');
  ck.bool('/platform_hard_cap', body.platform_hard_cap);

  const customerIds = new Set<string>();
  if (!Array.isArray(body.customers)) ck.problem('/customers', `must be an array, got ${JSON.stringify(body.customers)}`);
  else {
    body.customers.forEach((c, i) => {
      ck.customer(`/customers/${i}`, c, { generatedAt });
      if (ck.isObject(c) && typeof c.id === 'string') {
        if (customerIds.has(c.id)) ck.problem(`/customers/${i}/id`, `repeats customer ${c.id}`);
        customerIds.add(c.id);
      }
    });
  }
  if (!Array.isArray(body.keys)) ck.problem('/keys', `must be an array, got ${JSON.stringify(body.keys)}`);
  else {
    const hashes = new Set<string>();
    const ids = new Set<string>();
    body.keys.forEach((k, i) => {
      const path = `/keys/${i}`;
      if (!ck.isObject(k)) {
        ck.problem(path, 'must be an object');
        return;
      }
      ck.uuid(`${path}/id`, k.id);
      if (ck.str(`${path}/customer_id`, k.customer_id) && Array.isArray(body.customers) && !customerIds.has(k.customer_id as string)) {
        ck.problem(`${path}/customer_id`, `names ${k.customer_id}, which is not a customer of this snapshot`);
      }
      if (typeof k.key_hash !== 'string' || !/^[0-9a-f]{64}$/.test(k.key_hash)) ck.problem(`${path}/key_hash`, `must be 64 characters of [0-9a-f], got ${JSON.stringify(k.key_hash)}`);
      else {
        if (hashes.has(k.key_hash)) ck.problem(`${path}/key_hash`, 'repeats a key_hash');
        hashes.add(k.key_hash);
      }
      if (ck.serverForm && typeof k.id === 'string') {
        if (ids.has(k.id)) ck.problem(`${path}/id`, 'repeats a key id');
        ids.add(k.id);
      }
    });
  }

  if (options.spec !== false) {
    // The spec's SnapshotBody on top of the wire rules (service-spec 2.5).
    ck.str('/tenant_id', body.tenant_id);
    ck.str('/tenant_name', body.tenant_name);
    if (body.tenant_status !== undefined && !['active', 'suspended'].includes(body.tenant_status as string)) ck.problem('/tenant_status', `must be active or suspended, got ${JSON.stringify(body.tenant_status)}`);
    const a = body.platform_monthly_allowance;
    if (!ck.isObject(a)) ck.problem('/platform_monthly_allowance', 'spec SdkAllowance: required object');
    else {
      ck.int('/platform_monthly_allowance/limit', a.limit);
      ck.int('/platform_monthly_allowance/used', a.used);
      ck.int('/platform_monthly_allowance/remaining', a.remaining);
      const start = ck.ts('/platform_monthly_allowance/period_start', a.period_start);
      const end = ck.ts('/platform_monthly_allowance/period_end', a.period_end);
      ck.bool('/platform_monthly_allowance/hard_cap', a.hard_cap);
      if (start !== null && end !== null && start >= end) ck.problem('/platform_monthly_allowance', 'period_start must be before period_end');
      if (start !== null && generatedAt !== null && start > generatedAt) ck.problem('/platform_monthly_allowance/period_start', 'must not be after generated_at');
      for (const [nested, flat] of [['limit', 'platform_monthly_limit'], ['used', 'platform_monthly_used'], ['remaining', 'platform_monthly_remaining'], ['hard_cap', 'platform_hard_cap']] as const) {
        if (a[nested] !== body[flat]) ck.problem(`/platform_monthly_allowance/${nested}`, `must equal ${flat}`);
      }
      if (end !== null && periodEnd !== null && end !== periodEnd) ck.problem('/platform_monthly_allowance/period_end', 'must equal platform_period_end');
    }
  }
  return ck.problems;
}

// ---------------------------------------------------------------------------------------------
// Section 3: GET /sdk/v1/keys/verify.

/** Every rule of section 3 a verify answer breaks. Give the JSON text. */
export function verifyProblems(input: string | unknown, options: CheckOptions = {}): string[] {
  const { value: body, numbers, problems: syntax } = parsed(input);
  const ck = new Checker(numbers, options);
  ck.problems.push(...syntax);
  if (!ck.isObject(body)) {
    ck.problem('', 'the answer must be a JSON object');
    return ck.problems;
  }
  if (!ck.bool('/valid', body.valid)) return ck.problems;
  if (body.valid === false) {
    // "false: nothing else is read": the server sends exactly {"valid": false}.
    if (ck.serverForm && Object.keys(body).length !== 1) ck.problem('', `an invalid key answers exactly {"valid": false}, got keys ${Object.keys(body).join(', ')}`);
    return ck.problems;
  }
  ck.uuid('/key_id', body.key_id);
  const now = options.clientNow ? BigInt(options.clientNow.getTime()) * 1000n : null;
  ck.customer('/customer', body.customer, { generatedAt: now });
  ck.statusCodes('/billable_status_codes', body.billable_status_codes);
  return ck.problems;
}

// ---------------------------------------------------------------------------------------------
// Section 4: the answer to POST /sdk/v1/usage, as the reporter reads it.

/**
 * Every way a usage answer would be "malformed" for the items that were sent: `results` not an
 * array, a wrong count of entries, an entry missing, repeated or unknown, an unknown status.
 */
export function usageAnswerProblems(input: string | unknown, items: { idempotency_key: unknown }[]): string[] {
  const { value: body, numbers, problems: syntax } = parsed(input);
  const ck = new Checker(numbers, {});
  ck.problems.push(...syntax);
  if (!ck.isObject(body)) {
    ck.problem('', 'the answer must be a JSON object');
    return ck.problems;
  }
  if (!Array.isArray(body.results)) {
    ck.problem('/results', 'must be an array');
    return ck.problems;
  }
  if (body.results.length !== items.length) ck.problem('/results', `must have exactly one entry per item: ${items.length} items, ${body.results.length} entries`);
  const expected = new Map<unknown, number>();
  for (const item of items) expected.set(item.idempotency_key, (expected.get(item.idempotency_key) ?? 0) + 1);
  body.results.forEach((r, i) => {
    const path = `/results/${i}`;
    if (!ck.isObject(r)) {
      ck.problem(path, 'must be an object');
      return;
    }
    if (typeof r.idempotency_key !== 'string') ck.problem(`${path}/idempotency_key`, 'must be a string');
    const left = expected.get(r.idempotency_key) ?? 0;
    if (left === 0) ck.problem(`${path}/idempotency_key`, `is unknown or repeated: ${JSON.stringify(r.idempotency_key)}`);
    else expected.set(r.idempotency_key, left - 1);
    if (!['accepted', 'duplicate', 'rejected'].includes(r.status as string)) ck.problem(`${path}/status`, `must be accepted, duplicate or rejected, got ${JSON.stringify(r.status)}`);
    if (r.detail !== undefined && (typeof r.detail !== 'string' || r.detail.length > 2000)) ck.problem(`${path}/detail`, 'must be a string of at most 2000 characters');
    if (r.status === 'rejected' && typeof r.detail !== 'string') ck.problem(`${path}/detail`, 'a rejection should say why');
  });
  for (const [key, left] of expected) if (left > 0) ck.problem('/results', `has no entry for ${JSON.stringify(key)}`);
  return ck.problems;
}

// ---------------------------------------------------------------------------------------------
// Assertions for tests.

function fail(what: string, problems: string[], text: unknown): never {
  const shown = typeof text === 'string' ? text : JSON.stringify(text);
  throw new Error(`${what} breaks the SDK wire protocol:\n  ${problems.join('\n  ')}\nbody: ${shown.length > 2000 ? shown.slice(0, 2000) + '…' : shown}`);
}

/** Throws unless the snapshot text passes every rule of section 2; returns the parsed body. */
export function assertWireSnapshot(text: string, options: CheckOptions = {}): any {
  const problems = snapshotProblems(text, options);
  if (problems.length) fail('snapshot', problems, text);
  return JSON.parse(text);
}

/** Throws unless the verify answer passes every rule of section 3; returns the parsed body. */
export function assertWireVerify(text: string, options: CheckOptions = {}): any {
  const problems = verifyProblems(text, options);
  if (problems.length) fail('verify answer', problems, text);
  return JSON.parse(text);
}

/** Throws unless the usage answer is well formed for these items; returns the parsed body. */
export function assertWireUsageAnswer(text: string, items: { idempotency_key: unknown }[]): any {
  const problems = usageAnswerProblems(text, items);
  if (problems.length) fail('usage answer', problems, text);
  return JSON.parse(text);
}
