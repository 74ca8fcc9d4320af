import assert from 'node:assert/strict';
import { normalizeEmail } from '../../src/accounts/accounts.js';
import { insertUser } from '../../src/accounts/queries.js';
import { SESSION_COOKIE } from '../../src/console/http.js';
import { addMs } from '../../src/platform/clock.js';
import { randomToken, sha256Hex } from '../../src/platform/crypto.js';
import { newId } from '../../src/platform/ids.js';
import { insertInvite, insertMembership } from '../../src/workspaces/queries.js';
import { INVITE_TTL_MS } from '../../src/workspaces/service.js';
import type { TestClient } from './client.js';
import { passwordHashOf, uniqueEmail } from './flows.js';
import type { TestApp } from './harness.js';
import { inviteTokenIn, type ReceivedMail } from './mailbox.js';

export type InvitableRole = 'admin' | 'editor' | 'viewer';

/** A person who joined a workspace through an invitation, with their own signed-in client. */
export interface Member {
  client: TestClient;
  email: string;
  userId: string;
  password: string;
}

export interface SentInvite {
  id: string;
  token: string;
  mail: ReceivedMail;
}

/**
 * Invites an address and returns the token from the mail that arrived over SMTP. Earlier mail to
 * the same address is taken out of the box first, so the token is always the new one.
 */
export async function sendInvite(t: TestApp, inviter: TestClient, workspaceId: string, email: string, role: InvitableRole): Promise<SentInvite> {
  t.mail.take(email);
  const sent = await inviter.post(`/workspaces/${workspaceId}/invites`, { email, role });
  assert.equal(sent.status, 200, sent.text);
  const mail = await t.mail.waitFor(email, /You are invited to/);
  return { id: sent.body.id, token: inviteTokenIn(mail), mail };
}

/** The fields a 422 names, each once (one field can break several rules of its schema). */
export function errorLocations(body: { errors?: { location?: string }[] }): string[] {
  return [...new Set((body.errors ?? []).map((e) => e.location ?? ''))];
}

export const MEMBER_PASSWORD = 'member password 1';

/**
 * A new person in the workspace with `role`, written straight to the database: what an invitation
 * accepted as a new address leaves (the account, the accepted invitation, the membership, the
 * inviter's `member.invite` and the newcomer's `invite.accept` events, the newcomer's session)
 * without the requests, the mail and a password hash (about 90 ms of CPU of the 101 the flow
 * costs). It does not spend the inviter's invitation allowance nor ask the platform plan for
 * teams: the tests of invitations use `addMemberOverHttp`, which does both. An inviter signed in
 * with a workspace key goes over HTTP.
 */
export async function addMember(t: TestApp, inviter: TestClient, workspaceId: string, role: InvitableRole, label: string = role): Promise<Member> {
  // A node in another process (test/two-nodes) has no services here: it goes over HTTP.
  if (!t.services) return addMemberOverHttp(t, inviter, workspaceId, role, label);
  const inviterToken = inviter.cookies.get(SESSION_COOKIE);
  const invitedBy = inviterToken && !inviter.bearer ? await t.services.accounts.sessionUser(inviterToken) : null;
  if (!invitedBy) return addMemberOverHttp(t, inviter, workspaceId, role, label);
  const { db, accounts, audit, clock, workspaces } = t.services;
  // Who may invite is the rule kept: an admin or owner of the workspace, else the same 403/404.
  await workspaces.authorize({ kind: 'user', user: invitedBy, ip: '127.0.0.1', userAgent: 'node' }, workspaceId, 'admin');
  const email = uniqueEmail(label);
  const name = `Member ${label}`;
  const passwordHash = await passwordHashOf(MEMBER_PASSWORD);
  const client = { ip: '127.0.0.1', userAgent: 'node' };
  const { userId, token } = await db.transaction().execute(async (trx) => {
    const now = clock.now();
    const inviteId = newId('inv');
    await insertInvite(trx, {
      id: inviteId, workspace_id: workspaceId, email: normalizeEmail(email), role, token_hash: sha256Hex(randomToken()), invited_by: invitedBy.id,
      created_at: now, expires_at: addMs(now, INVITE_TTL_MS), accepted_at: now, revoked_at: null,
    });
    await audit.record(trx, { type: 'user', id: invitedBy.id, name: invitedBy.name, ip: client.ip }, {
      workspaceId, action: 'member.invite', target: { type: 'invite', id: inviteId }, summary: `Invited ${normalizeEmail(email)} as ${role}`, details: { email: normalizeEmail(email), role },
    });
    const userId = newId('usr');
    await insertUser(trx, {
      id: userId, email: normalizeEmail(email), name, password_hash: passwordHash, totp_secret_sealed: null, totp_pending_sealed: null, totp_last_step: null,
      password_changed_at: now, created_at: now, updated_at: now,
    });
    await insertMembership(trx, { workspace_id: workspaceId, user_id: userId, role, joined_at: now });
    await audit.record(trx, { type: 'user', id: userId, name, ip: client.ip }, {
      workspaceId, action: 'invite.accept', target: { type: 'user', id: userId }, summary: `${normalizeEmail(email)} joined as ${role}`, details: { invite_id: inviteId, role },
    });
    const session = await accounts.startSession(trx, userId, workspaceId, client);
    return { userId, token: session.token };
  });
  const signedIn = t.client();
  signedIn.cookies.set(SESSION_COOKIE, token);
  return { client: signedIn, email, userId, password: MEMBER_PASSWORD };
}

/**
 * A new person in the workspace with `role`: invited by e-mail over HTTP, accepted as a new address.
 * Not counted by the sign-up code limits; counted by the inviter's invitation allowance.
 */
export async function addMemberOverHttp(t: TestApp, inviter: TestClient, workspaceId: string, role: InvitableRole, label: string = role): Promise<Member> {
  const email = uniqueEmail(label);
  const { token } = await sendInvite(t, inviter, workspaceId, email, role);
  const client = t.client();
  const accepted = await client.post(`/invites/${token}/accept`, { name: `Member ${label}`, password: MEMBER_PASSWORD });
  assert.equal(accepted.status, 200, accepted.text);
  return { client, email, userId: accepted.body.user.id, password: MEMBER_PASSWORD };
}

export interface WorkspaceKey {
  id: string;
  key: string;
  /** A client that sends the key as `Authorization: Bearer` and no cookie. */
  client: TestClient;
}

/** Creates a workspace key and a client that uses it. */
export async function createKey(t: TestApp, admin: TestClient, workspaceId: string, role: InvitableRole, name = `${role} key`): Promise<WorkspaceKey> {
  const created = await admin.post(`/workspaces/${workspaceId}/keys`, { name, role });
  assert.equal(created.status, 200, created.text);
  const client = t.client();
  client.bearer = created.body.key;
  return { id: created.body.id, key: created.body.key, client };
}

/** An audit event as the console API shows it (spec 2.1 AuditOut). */
export interface AuditEvent {
  id: string;
  actor_type: string;
  actor_id: string;
  actor_name: string;
  action: string;
  target_type: string;
  target_id: string;
  summary: string;
  ip: string;
  created_at: string;
  details: Record<string, unknown>;
  api_id?: string;
  api_name?: string;
  customer_id?: string;
  customer_name?: string;
}

/** The newest audit events of a workspace (up to 200), newest first. */
export async function auditEvents(client: TestClient, workspaceId: string): Promise<AuditEvent[]> {
  const page = await client.get(`/workspaces/${workspaceId}/audit?limit=200`);
  assert.equal(page.status, 200, page.text);
  return page.body.events;
}

/**
 * Runs a change and returns what it answered and the audit events it wrote (the events that were
 * not in the log before the change).
 */
export async function eventsWrittenBy<T>(reader: TestClient, workspaceId: string, change: () => Promise<T>): Promise<{ result: T; events: AuditEvent[] }> {
  const before = new Set((await auditEvents(reader, workspaceId)).map((e) => e.id));
  const result = await change();
  return { result, events: (await auditEvents(reader, workspaceId)).filter((e) => !before.has(e.id)) };
}

/** A syntactically valid e-mail address of exactly `length` characters, labels within DNS sizes. */
export function emailOfLength(length: number): string {
  const local = uniqueEmail('bound').split('@')[0]!;
  const want = length - local.length - 1;
  let domain = 'com';
  while (domain.length < want) {
    const room = want - domain.length - 1;
    // One character short: lengthen the first label instead of adding an empty one.
    domain = room < 1 ? `d${domain}` : `${'d'.repeat(Math.min(room, 60))}.${domain}`;
  }
  const email = `${local}@${domain}`;
  assert.equal(email.length, length, `emailOfLength built ${email.length} characters`);
  return email;
}
