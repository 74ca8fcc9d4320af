import assert from 'node:assert/strict';
import type { TestClient } from './client.js';
import { uniqueEmail } from './flows.js';
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
 * A new person in the workspace with `role`: invited by e-mail, accepted as a new address.
 * Cheaper than a sign-up and not counted by the sign-up code limits.
 */
export async function addMember(t: TestApp, inviter: TestClient, workspaceId: string, role: InvitableRole, label: string = role): Promise<Member> {
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
