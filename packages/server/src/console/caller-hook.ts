import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../platform/errors.js';
import type { AccountsService } from '../accounts/accounts.js';
import type { Caller } from './caller.js';
import { SESSION_COOKIE } from './http.js';
import type { WorkspaceService } from '../workspaces/service.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the caller of every console request. A request with an Authorization header is judged
 * by that header alone. Cookie sessions must prove a state change is not cross-site (DESIGN 6):
 * an `X-Requested-With` header (which a cross-site form cannot set) or an Origin equal to ours.
 */
export function registerCallerHook(app: FastifyInstance, deps: { accounts: AccountsService; workspaces: WorkspaceService; consoleOrigin: string }) {
  app.decorateRequest('caller', null);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const info = { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') };
    const authorization = request.headers.authorization;
    if (authorization !== undefined) {
      // RFC 7235: the scheme name is case-insensitive.
      const match = /^Bearer ([A-Za-z0-9_]{1,200})$/i.exec(authorization);
      const key = match ? await deps.workspaces.keyCaller(match[1]!) : null;
      if (!key) throw new Problem('not_signed_in', 'The workspace key is unknown or revoked');
      request.caller = { kind: 'key', key, ...info } satisfies Caller;
      return;
    }
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    if (!SAFE_METHODS.has(request.method)) {
      const origin = request.headers.origin;
      const sameOrigin = origin === deps.consoleOrigin;
      if (!request.headers['x-requested-with'] && !sameOrigin) throw new Problem('csrf', 'Send X-Requested-With with cookie-authenticated changes');
      if (origin !== undefined && !sameOrigin) throw new Problem('csrf', 'The request comes from another origin');
    }
    const user = await deps.accounts.sessionUser(token);
    if (user) request.caller = { kind: 'user', user, ...info };
  });
  // Routes are closed unless marked public, and a closed route refuses an unknown caller before
  // its body is even read: parsing and validating are work nobody should get for free.
  app.addHook('preParsing', async (request) => {
    if (!request.caller && !request.routeOptions.config.public) throw new Problem('not_signed_in');
  });
}
