// The owner console's view of apps people connect (DESIGN 8: `/apis/{api}/signin/connected-apps`):
// listed with who connected them, blocked and unblocked, each change an audit event.
import type { Caller } from '../../console/caller.js';
import { Problem, validationProblem } from '../../platform/errors.js';
import { recordChange, type RegistryDeps } from '../registry/common.js';
import { hostOf } from './redirect-rules.js';
import * as q from './queries.js';

type ListedApp = Awaited<ReturnType<typeof q.connectedAppPage>>[number];
export type ConnectedAppOut = ReturnType<typeof toConnectedAppOut>;

function toConnectedAppOut(app: ListedApp) {
  return {
    client_id: app.id,
    kind: app.origin as 'registered' | 'metadata',
    name: app.name,
    // Where it comes from: the document's host, or where a registered app sends people back to.
    host: hostOf(app.origin === 'metadata' ? app.id : app.redirect_uris[0]!),
    application_type: app.kind === 'web' ? ('web' as const) : ('native' as const),
    redirect_uris: app.redirect_uris,
    refresh_tokens: app.refresh_tokens,
    blocked: app.blocked,
    people: Number(app.people ?? 0),
    created_at: app.created_at.toISOString(),
    ...(app.last_used_at ? { last_used_at: app.last_used_at.toISOString() } : {}),
  };
}

// Cursors of this list carry a client_id, which may be a URL: their own opaque encoding.
const encodeCursor = (app: { created_at: Date; id: string }) => Buffer.from(JSON.stringify([app.created_at.toISOString(), app.id])).toString('base64url');

function decodeCursor(cursor: string): { at: Date; id: string } | null {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (!Array.isArray(value) || value.length !== 2 || typeof value[0] !== 'string' || typeof value[1] !== 'string') return null;
    const at = new Date(value[0]);
    if (Number.isNaN(at.getTime()) || at.toISOString() !== value[0] || at.getUTCFullYear() < 1970 || at.getUTCFullYear() > 9999) return null;
    return value[1].length <= 2000 && value[1].isWellFormed() && !value[1].includes('\u0000') ? { at, id: value[1] } : null;
  } catch {
    return null;
  }
}

export class ConnectedAppRegistry {
  constructor(private readonly deps: RegistryDeps) {}

  /** Newest first, `limit` at a time. */
  async list(caller: Caller, apiId: string, options: { cursor?: string; limit: number }) {
    await this.deps.apis.access(caller, apiId, 'viewer');
    const before = options.cursor ? decodeCursor(options.cursor) : null;
    if (options.cursor && !before) throw validationProblem('query.cursor', 'not a cursor this API gave', options.cursor);
    const rows = await q.connectedAppPage(this.deps.db, apiId, { before, limit: options.limit + 1 });
    const page = rows.slice(0, options.limit);
    return { apps: page.map(toConnectedAppOut), ...(rows.length > options.limit ? { next_cursor: encodeCursor(page.at(-1)!) } : {}) };
  }

  /**
   * Blocks an app (editors): it signs nobody in and gets no tokens, and every grant it holds is
   * revoked, so its tokens answer inactive and its refresh tokens stop at once. A blocked app is
   * kept (no cleanup, no replacement), so a metadata document URL stays blocked.
   */
  block(caller: Caller, apiId: string, clientId: string) {
    return this.#setBlocked(caller, apiId, clientId, true);
  }

  /** Unblocks an app (editors); the grants revoked by the block stay revoked. */
  unblock(caller: Caller, apiId: string, clientId: string) {
    return this.#setBlocked(caller, apiId, clientId, false);
  }

  /**
   * Deletes an app (editors) with its grants, codes, refresh tokens and consents, so its tokens
   * answer inactive. A registered app is gone for good (registering again gives a new client
   * ID); a metadata document app comes back on its next use, so keeping one out is a block.
   */
  async remove(caller: Caller, apiId: string, clientId: string): Promise<void> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    await this.deps.db.transaction().execute(async (trx) => {
      const before = await q.findConnectedApp(trx, apiId, clientId);
      if (!before) throw new Problem('not_found', 'No such connected app');
      await q.deleteConnectedApp(trx, apiId, clientId);
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_connected_app.delete',
        target: { type: 'signin_connected_app', id: clientId },
        summary: `Deleted the connected app ${before.name} (${hostOf(before.origin === 'metadata' ? before.id : before.redirect_uris[0]!)})`,
        details: { kind: before.origin, people: Number(before.people ?? 0) },
      });
    });
  }

  async #setBlocked(caller: Caller, apiId: string, clientId: string, blocked: boolean): Promise<ConnectedAppOut> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await q.findConnectedApp(trx, apiId, clientId);
      if (!before) throw new Problem('not_found', 'No such connected app');
      if (before.blocked === blocked) return toConnectedAppOut(before);
      const now = this.deps.clock.now();
      await q.setBlocked(trx, apiId, clientId, blocked, now);
      const revoked = blocked ? await q.revokeGrantsOf(trx, apiId, clientId, now) : 0;
      await recordChange(this.deps, trx, caller, api, {
        action: blocked ? 'signin_connected_app.block' : 'signin_connected_app.unblock',
        // A connected app's client_id is public (no secret goes with it), so the event names it whole.
        target: { type: 'signin_connected_app', id: clientId },
        summary: `${blocked ? 'Blocked' : 'Unblocked'} the connected app ${before.name} (${hostOf(before.origin === 'metadata' ? before.id : before.redirect_uris[0]!)})`,
        details: { kind: before.origin, ...(blocked ? { grants_revoked: revoked } : {}) },
      });
      return toConnectedAppOut((await q.findConnectedApp(trx, apiId, clientId))!);
    });
  }
}
