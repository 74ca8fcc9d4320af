import type { FastifyInstance } from 'fastify';
import { Problem } from '../platform/errors.js';

/** An empty JSON object: what many clients send by habit when an operation takes nothing. */
const isEmptyObject = (body: unknown) => typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;

/**
 * The console API's operations that declare no body refuse one (issue 23 item 6), in one place
 * rather than per route: a body the route never reads means the client believes it asked for
 * something (`{"at_once": true}` to a resume, a reason to a delete) that will not happen, and going
 * ahead anyway hides that. No body, or `{}`, is taken; anything else is 400 before the handler
 * runs, so nothing changes. The caller hook's sign-in check still comes first (preParsing). A body
 * with no content type never gets here: it is refused as not JSON (415), the console's rule.
 */
export function registerNoBodyHook(app: FastifyInstance) {
  app.addHook('preValidation', async (request) => {
    if (request.routeOptions.schema?.body !== undefined) return;
    if (request.body === undefined || isEmptyObject(request.body)) return;
    throw new Problem('unexpected_body', 'This operation takes no body: send none, or {}', [{ location: 'body', message: 'must be absent or {}' }]);
  });
}
