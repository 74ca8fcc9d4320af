import assert from 'node:assert/strict';
import type { Answer } from './client.js';

/**
 * Asserts a console error answer (DESIGN 9): `application/problem+json` with the spec's
 * ErrorModel (type, title, status). `code` names the catalog entry the `type` URN ends in.
 */
export function assertProblem(answer: Answer, status: number, code?: string): void {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal(typeof answer.body?.type, 'string', 'problem has a type');
  assert.equal(typeof answer.body?.title, 'string', 'problem has a title');
  assert.equal(answer.body.status, status);
  if (code) assert.equal(answer.body.type, `urn:gatehouse:problem:${code}`);
}

/** Asserts a 422 whose `errors[]` names `location` (`body.password`, `body.extra`). */
export function assertInvalid(answer: Answer, location: string): void {
  assertProblem(answer, 422, 'validation');
  const locations: unknown[] = (answer.body.errors ?? []).map((error: { location?: string }) => error.location);
  assert.ok(locations.includes(location), `expected an error at ${location}, got ${JSON.stringify(answer.body.errors)}`);
}

/** The Set-Cookie line that carries the console session, if the answer has one. */
export function sessionCookieLine(answer: Answer): string | undefined {
  return answer.headers.getSetCookie().find((line) => line.startsWith('gh_session='));
}

/** Asserts the answer starts a console session: a non-empty HttpOnly, SameSite=Lax cookie (DESIGN 6). */
export function assertSessionCookie(answer: Answer): void {
  const line = sessionCookieLine(answer);
  assert.ok(line, `expected a session cookie, got ${JSON.stringify(answer.headers.getSetCookie())}`);
  const [pair, ...attributes] = line.split(';').map((part) => part.trim());
  assert.notEqual(pair, 'gh_session=', 'the session cookie has a value');
  const lowered = attributes.map((attribute) => attribute.toLowerCase());
  assert.ok(lowered.includes('httponly'), `HttpOnly in ${line}`);
  assert.ok(lowered.includes('samesite=lax'), `SameSite=Lax in ${line}`);
}

/** Asserts a 429 with a Retry-After of whole seconds, at most `maxSeconds`. */
export function assertRateLimited(answer: Answer, maxSeconds: number): void {
  assertProblem(answer, 429, 'rate_limited');
  const retryAfter = answer.headers.get('retry-after');
  assert.match(retryAfter ?? '', /^\d+$/, 'Retry-After is a number of seconds');
  assert.ok(Number(retryAfter) >= 1 && Number(retryAfter) <= maxSeconds, `Retry-After ${retryAfter} within 1..${maxSeconds}`);
}
