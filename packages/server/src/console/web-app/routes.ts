// The owner console web app at / on the console host (DESIGN section 11): hashed assets cached
// for a year, index.html never cached, and every path that is not the API's, the SDK's or another
// server route answered with index.html, so the app's own router can show it (a reload of
// /apis/api_…/customers, the payments provider's return to /apis/{id}/payments?connect=done).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Problem } from '../../platform/errors.js';
import { loadWebFiles, webAppDir, type WebFile } from './files.js';

/**
 * No inline script or style and nothing from another origin: the app is its own files, and
 * `connect-src 'self'` keeps it talking to its own API only. (Styles the app sets through the DOM,
 * as React's `style` props do, are not inline style in the policy's sense.)
 */
export const WEB_APP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'";

/** Paths owned by the server: an unknown one of these is the server's 404, never the app. */
const SERVER_PREFIXES = ['/api/', '/sdk/', '/webhooks/', '/dev/', '/internal/', '/.well-known/'];

/** Client routes of the app whose paths the tenant face (the customer portal) has as well. */
const SHARED_WITH_TENANT_FACE = ['/account', '/invites/:token'];

function send(request: FastifyRequest, reply: FastifyReply, file: WebFile) {
  reply
    .header('content-type', file.contentType)
    .header('etag', file.etag)
    .header('vary', 'accept-encoding')
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
  if (file.contentType.startsWith('text/html')) reply.header('content-security-policy', WEB_APP_CSP).header('x-frame-options', 'DENY');
  if (request.headers['if-none-match'] === file.etag) return reply.status(304).send();
  const accepts = String(request.headers['accept-encoding'] ?? '');
  if (file.brotli && /\bbr\b/.test(accepts)) return reply.header('content-encoding', 'br').send(file.brotli);
  if (file.gzip && /\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(file.gzip);
  return reply.send(file.body);
}

export function webAppRoutes(options: { dir?: string | null } = {}) {
  return async (app: FastifyInstance) => {
    const dir = options.dir === undefined ? webAppDir() : options.dir;
    // Read at the first request, not at start: most tests never open a page.
    let files: Map<string, WebFile> | null = null;
    const built = () => (files ??= dir ? loadWebFiles(dir) : new Map());

    const answer = async (request: FastifyRequest, reply: FastifyReply) => {
      const path = request.url.split('?')[0] ?? '/';
      if (SERVER_PREFIXES.some((prefix) => path.startsWith(prefix))) throw new Problem('not_found');
      const file = built().get(path);
      if (file) return send(request, reply, file);
      // A missing hashed asset is a stale page asking for an old build: 404, not the app's HTML.
      if (path.startsWith('/assets/')) throw new Problem('not_found');
      const index = built().get('/index.html');
      if (!index) {
        return reply.status(503).type('text/plain; charset=utf-8').header('cache-control', 'no-store')
          .send('The console web app is not built. Run `npm run build` (npm start does it), then reload.\nThe console API is at /api/docs.\n');
      }
      return send(request, reply, index);
    };
    app.get('/', { schema: { hide: true } }, answer);
    app.get('/*', { schema: { hide: true } }, answer);
    // The router picks the most specific path before it looks at hosts, so a path the tenant face
    // also serves (the portal's /account and /invites/<token>) would reach the portal's route, not
    // the catch-all above, and answer 404 on the console host. Those client routes are named here.
    for (const path of SHARED_WITH_TENANT_FACE) app.get(path, { schema: { hide: true } }, answer);
  };
}
