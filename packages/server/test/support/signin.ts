// Helpers of the console sign-in settings tests (test/signin/console-*.test.ts).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { PersonSessions } from '../../src/issuer/people/sessions.js';
import { insertPerson } from '../../src/issuer/people/queries.js';
import type { TestClient } from './client.js';
import type { TestApp } from './harness.js';
import { startWithApi } from './money.js';
import { addMember } from './workspaces.js';

/**
 * A person of an API's sign-in service. The console never makes people (they sign up on the
 * sign-in pages), so the test makes the row the sign-up would.
 */
export async function createPerson(t: TestApp, apiId: string, options: { email?: string; name?: string; createdAt?: Date } = {}) {
  const now = options.createdAt ?? t.clock.now();
  return insertPerson(t.services.db, {
    id: `per_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    api_id: apiId,
    email: (options.email ?? `person-${randomUUID().slice(0, 8)}@people.test`).toLowerCase(),
    email_verified: true,
    name: options.name ?? 'Pat Person',
    picture: null,
    password_hash: null,
    last_login_at: null,
    created_at: now,
    updated_at: now,
  });
}

/** Starts a sign-in session for a person, as the sign-in pages do. */
export function startPersonSession(t: TestApp, apiId: string, personId: string, ttlS = 3600) {
  return new PersonSessions(t.services.db, t.services.clock).start(apiId, personId, ['pwd'], ttlS);
}

export function findPersonSession(t: TestApp, apiId: string, sessionId: string) {
  return new PersonSessions(t.services.db, t.services.clock).find(apiId, sessionId);
}

/** The money tests' fixture plus an admin: owner, admin, editor and viewer of one workspace with an API. */
export async function startWithSignin(apiName: string, env: Record<string, string> = {}) {
  const fixture = await startWithApi('Sid Owner', { name: apiName }, env);
  const admin = await addMember(fixture.t, fixture.owner.client, fixture.owner.workspaceId, 'admin');
  return { ...fixture, admin };
}

/** Asserts an answer and returns its body. */
export function expectStatus(answer: { status: number; text: string; body: any }, status: number, what = '') {
  assert.equal(answer.status, status, `${what} ${answer.text}`.trim());
  return answer.body;
}

/** The text of every answer a client got must not contain any of `secrets`. */
export function assertNoSecretIn(texts: string[], secrets: string[]) {
  for (const text of texts) for (const secret of secrets) assert.ok(!text.includes(secret), `a secret leaked: ${text.slice(0, 200)}`);
}

export type { TestClient };
