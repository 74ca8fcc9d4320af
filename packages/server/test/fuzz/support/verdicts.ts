// What every answer to a hostile request must be (issue 11 item 9), and the report of those that
// were not, grouped by cause so that one defect reads as one entry however many requests hit it.
import { describeRequest, type HostileAnswer, type HostileRequest } from './send.js';

/** Error bodies stay small whatever was sent (issue 11: a 15 MB 422 for an 849 KB request). */
export const MAX_ERROR_BYTES = 64 * 1024;

export interface Failure {
  /** The operation or endpoint: `POST /api/auth/login`, `POST /oauth/token`. */
  where: string;
  /** What was wrong with the answer, without request-specific values: `500`, `not problem+json`. */
  problem: string;
  request: HostileRequest;
  host: string | undefined;
  answer: HostileAnswer;
}

const contentType = (answer: HostileAnswer) => String(answer.headers['content-type'] ?? '');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The problems with one answer, shared by every face: no answer, a 5xx, an accepted bad request, a large error. */
function commonProblems(request: HostileRequest, answer: HostileAnswer, accepted: (status: number) => boolean): string[] {
  if (answer.error) return [`no answer (${answer.error.replace(/\d+/g, 'N')})`];
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`${answer.status}`);
  if (request.sure && accepted(answer.status)) problems.push(`accepted (${answer.status}) though it must be refused`);
  if (answer.status >= 400 && answer.bytes > MAX_ERROR_BYTES) problems.push(`error body over ${MAX_ERROR_BYTES / 1024} KB`);
  return problems;
}

/** Console answers: errors are application/problem+json with the spec's ErrorModel (spec 2.6). */
export function consoleProblems(request: HostileRequest, answer: HostileAnswer): string[] {
  const problems = commonProblems(request, answer, (status) => status < 400);
  if (answer.error || answer.status < 400) return problems;
  if (!/^application\/problem\+json/.test(contentType(answer))) return [...problems, `not problem+json (${contentType(answer) || 'no content type'})`];
  // Only the first megabyte is kept: a larger body is already reported for its size.
  if (answer.truncated) return problems;
  const body = parseJson(answer.text) as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, 'problem body is not a JSON object'];
  if (typeof body.type !== 'string' || body.type === 'about:blank') problems.push(`problem type ${JSON.stringify(body.type)}`);
  if (typeof body.title !== 'string') problems.push('problem without a title');
  if (body.status !== answer.status) problems.push('problem status differs from the HTTP status');
  if (body.errors !== undefined && body.errors !== null && !Array.isArray(body.errors)) problems.push('problem errors is not an array');
  return problems;
}

/**
 * SDK sync answers (wire protocol section 1): every body a JSON object. A usage report of bad
 * items may answer 200, each item `rejected`.
 */
export function sdkProblems(request: HostileRequest, answer: HostileAnswer): string[] {
  const usageRejected = (status: number) => {
    if (status !== 200 || !request.target.startsWith('/sdk/v1/usage')) return false;
    const results = (parseJson(answer.text) as { results?: { status?: string }[] } | undefined)?.results;
    return Array.isArray(results) && results.length > 0 && results.every((result) => result.status === 'rejected');
  };
  // Reads of the SDK API answer 200 to a key hash that is no hash (wire protocol section 3).
  const accepted = (status: number) => status < 400 && request.method !== 'GET' && !usageRejected(status);
  const problems = commonProblems(request, answer, accepted);
  if (answer.error || answer.status === 304 || answer.truncated) return problems;
  const body = parseJson(answer.text);
  if (!body || typeof body !== 'object' || Array.isArray(body)) problems.push('SDK answer is not a JSON object');
  else if (!/json/.test(contentType(answer))) problems.push(`SDK answer not typed JSON (${contentType(answer)})`);
  return problems;
}

/** Issuer endpoints that answer JSON: OAuth's `{error, error_description}` on errors (RFC 6749 5.2). */
export function oauthJsonProblems(request: HostileRequest, answer: HostileAnswer): string[] {
  const problems = commonProblems(request, answer, (status) => status < 400);
  if (answer.error || answer.status < 400) return problems;
  const type = contentType(answer);
  if (/problem\+json/.test(type)) return [...problems, 'problem+json on the issuer'];
  // RFC 6750 3.1: a request without a token gets the bare challenge, no body.
  if ((answer.status === 401 && answer.bytes === 0 && answer.headers['www-authenticate']) || answer.truncated) return problems;
  const body = parseJson(answer.text) as Record<string, unknown> | undefined;
  if (!/^application\/json/.test(type) || !body || typeof body !== 'object') return [...problems, `not an OAuth error body (${type || 'no content type'})`];
  if (typeof body.error !== 'string') problems.push('OAuth error without `error`');
  if (body.error_description !== undefined && typeof body.error_description !== 'string') problems.push('error_description is not a string');
  return problems;
}

/**
 * Issuer pages (authorize, interaction, logout): errors are HTML pages; a redirect either stays on
 * the tenant host or goes back to the app carrying `error` (spec 4.2 rule 1).
 */
export function pageProblems(request: HostileRequest, answer: HostileAnswer, issuer: string): string[] {
  // A page may show a form again (200, sign-out confirmation) for a request it refuses, so only a
  // redirect away that carries no error counts as accepted.
  const problems = commonProblems(request, answer, () => false);
  if (answer.error) return problems;
  const type = contentType(answer);
  if (/problem\+json/.test(type)) return [...problems, 'problem+json on the issuer'];
  if (answer.status >= 300 && answer.status < 400) {
    const location = String(answer.headers.location ?? '');
    let to: URL | null = null;
    try {
      to = new URL(location, issuer);
    } catch {
      return [...problems, 'redirect to an unreadable Location'];
    }
    if (to.origin !== new URL(issuer).origin && !to.searchParams.has('error') && request.sure) problems.push('redirected to the app without an error');
    return problems;
  }
  if (answer.status >= 400 && !/^text\/html/.test(type)) problems.push(`error page not HTML (${type || 'no content type'})`);
  return problems;
}

/** Other answers of the tenant host (the logo): no 5xx, small, never problem+json. */
export function assetProblems(request: HostileRequest, answer: HostileAnswer): string[] {
  const problems = commonProblems(request, answer, (status) => status < 400);
  if (/problem\+json/.test(contentType(answer))) problems.push('problem+json on the issuer');
  return problems;
}

/** Collects failures and prints them grouped: by where, then by problem, with the smallest example. */
export class FailureLog {
  readonly failures: Failure[] = [];
  /** Per operation: what changed (table names), how often, and the first time's details. */
  readonly changes = new Map<string, { times: number; first: string }>();
  sent = 0;
  readonly slowest: { ms: number; what: string }[] = [];

  record(where: string, request: HostileRequest, host: string | undefined, answer: HostileAnswer, problems: string[]): void {
    this.sent++;
    this.slowest.push({ ms: answer.ms, what: `${where} ${request.family} [${request.credential}] -> ${answer.status}` });
    this.slowest.sort((a, b) => b.ms - a.ms).splice(5);
    for (const problem of problems) this.failures.push({ where, problem, request, host, answer });
  }

  /** A batch of requests to `where` changed the database: every table that differs. */
  changed(where: string, changes: string[], suspects: string[]): void {
    const key = `${where}: ${changes.map((change) => change.split(' ')[0]).join(', ')}`;
    const seen = this.changes.get(key);
    if (seen) seen.times++;
    else this.changes.set(key, { times: 1, first: `${changes.join(', ')}${suspects.length ? `\n      requests of that batch: ${suspects.slice(0, 12).join('; ')}` : ''}` });
  }

  get ok(): boolean {
    return this.failures.length === 0 && this.changes.size === 0;
  }

  /**
   * Failures grouped by cause: the same problem from the same family of input is one entry, with
   * the routes it was seen on and the smallest request that shows it.
   */
  report(seed: number): string {
    const groups = new Map<string, Failure[]>();
    for (const failure of this.failures) {
      const key = `${failure.problem} ← ${failure.request.family}`;
      groups.set(key, [...(groups.get(key) ?? []), failure]);
    }
    const lines = [`${this.failures.length} bad answers in ${groups.size} groups, ${this.changes.size} kinds of change; ${this.sent} requests; seed ${seed} (GH_FUZZ_SEED=${seed} replays)`];
    for (const [key, failures] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
      const size = (f: Failure) => (f.request.body?.length ?? 0) + f.request.target.length;
      const smallest = failures.reduce((a, b) => (size(a) <= size(b) ? a : b));
      const wheres = [...new Set(failures.map((f) => f.where))];
      const shown = wheres.length > 6 ? `${wheres.slice(0, 6).join(', ')} and ${wheres.length - 6} more` : wheres.join(', ');
      lines.push(`\n  ${key}  (${failures.length}× on ${wheres.length} routes: ${shown})`);
      lines.push(`    e.g. ${smallest.request.poison}:\n      ${describeRequest(smallest.request, smallest.host)}`);
      lines.push(`    -> ${smallest.answer.status} ${String(smallest.answer.headers['content-type'] ?? '')} ${smallest.answer.error ?? smallest.answer.text.slice(0, 200).replace(/\s+/g, ' ')}`);
    }
    for (const [key, { times, first }] of this.changes) lines.push(`\n  CHANGED ${key} (after ${times} batches; first: ${first})`);
    return lines.join('\n');
  }

  summary(): string {
    return `${this.sent} requests; slowest: ${this.slowest.map((s) => `${Math.round(s.ms)} ms ${s.what}`).join(' | ')}`;
  }
}
