import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../platform/pages/html.js';
import { sendPage } from '../platform/pages/send-page.js';
import { isPagePath } from './page-paths.js';

const GATEHOUSE_BRANDING = { name: 'Gatehouse', logoUrl: null, accentColor: '#4f46e5' };

/**
 * A host that names no API (a slug nobody registered, a custom domain not active): a browser gets a
 * page saying so in the portal's style, with the console's address for whoever set this up; an
 * OAuth client or script gets OAuth's JSON error shape. Neither is cached: the API may exist soon.
 */
export function answerUnknownHost(request: FastifyRequest, reply: FastifyReply, consoleUrl: string) {
  reply.header('cache-control', 'no-store');
  const host = (request.headers.host ?? '').toLowerCase();
  if (!isPagePath(request.url)) {
    return reply.status(404).type('application/json; charset=utf-8').send({ error: 'invalid_request', error_description: `No API lives at ${host || 'this address'}` });
  }
  return sendPage(reply, {
    title: 'No API here',
    branding: GATEHOUSE_BRANDING,
    status: 404,
    body: html`<h1>No API lives here</h1>
<p id="unknown-host">No API is served at <code>${host || 'this address'}</code>: its address may be mistyped, or the API was renamed or removed.</p>
<p class="note">If you run this Gatehouse, APIs and their addresses are in the console at <a href="${consoleUrl}">${consoleUrl}</a>.</p>`,
  });
}
