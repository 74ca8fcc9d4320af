import type { Clock } from '../platform/clock.js';
import { addMs } from '../platform/clock.js';
import { hashPassword, randomToken, sha256Hex } from '../platform/crypto.js';
import type { Db, Trx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import { SESSION_TOUCH_MS, SESSION_TTL_MS } from './limits.js';
import * as q from './queries.js';
import type { UsersTable } from './tables.js';

export interface UserOut {
  id: string;
  email: string;
  name: string;
  two_factor: boolean;
  created_at: string;
}

export function toUserOut(user: Pick<UsersTable, 'id' | 'email' | 'name' | 'totp_secret_sealed' | 'created_at'>): UserOut {
  return { id: user.id, email: user.email, name: user.name, two_factor: user.totp_secret_sealed !== null, created_at: user.created_at.toISOString() };
}

/** Addresses compare case-insensitively; they are stored lowercased and trimmed. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface SessionUser {
  sessionId: string;
  workspaceId: string | null;
  id: string;
  email: string;
  name: string;
}

export interface ClientInfo {
  ip: string;
  userAgent: string;
}

/** Account primitives other capabilities build on: people, passwords and console sessions. */
export class AccountsService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  findByEmail(db: Db | Trx, email: string) {
    return q.findUserByEmail(db, normalizeEmail(email));
  }

  findById(db: Db | Trx, id: string) {
    return q.findUserById(db, id);
  }

  /** Creates a person; the caller has checked the address is free (a race still meets the unique index). */
  async createUser(trx: Trx, input: { email: string; name: string; password: string }) {
    const now = this.clock.now();
    const row = {
      id: newId('usr'),
      email: normalizeEmail(input.email),
      name: input.name.trim(),
      password_hash: await hashPassword(input.password),
      totp_secret_sealed: null,
      totp_pending_sealed: null,
      totp_last_step: null,
      password_changed_at: now,
      created_at: now,
      updated_at: now,
    };
    await q.insertUser(trx, row);
    return row;
  }

  /** Starts a console session; the token goes into the cookie and only its hash is stored. */
  async startSession(trx: Trx, userId: string, workspaceId: string | null, client: ClientInfo) {
    const now = this.clock.now();
    const token = randomToken();
    await q.insertSession(trx, {
      id: newId('ses'),
      user_id: userId,
      token_hash: sha256Hex(token),
      workspace_id: workspaceId,
      ip: client.ip,
      user_agent: client.userAgent.slice(0, 300),
      created_at: now,
      last_seen_at: now,
      expires_at: addMs(now, SESSION_TTL_MS),
    });
    return { token, expiresAt: addMs(now, SESSION_TTL_MS) };
  }

  async sessionUser(token: string): Promise<SessionUser | null> {
    const now = this.clock.now();
    const row = await q.findSessionByHash(this.db, sha256Hex(token), now);
    if (!row) return null;
    if (now.getTime() - row.last_seen_at.getTime() > SESSION_TOUCH_MS) await q.touchSession(this.db, row.session_id, now);
    return { sessionId: row.session_id, workspaceId: row.workspace_id, id: row.id, email: row.email, name: row.name };
  }

  async endSession(sessionId: string) {
    await q.deleteSession(this.db, sessionId);
  }

  async setSessionWorkspace(sessionId: string, workspaceId: string | null) {
    await q.setSessionWorkspace(this.db, sessionId, workspaceId);
  }

  async endOtherSessions(trx: Trx, userId: string, keep: string | null) {
    await q.deleteSessionsOfUser(trx, userId, keep);
  }
}
