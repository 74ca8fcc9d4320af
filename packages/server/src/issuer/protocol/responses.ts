import type { FastifyReply } from 'fastify';
import { html } from '../../platform/pages/html.js';
import { redirectSource, sendPage } from '../../platform/pages/send-page.js';
import type { Tenant } from '../tenant.js';
import type { AuthorizationRequest } from '../tokens/authorization-request.js';

/**
 * Answers an authorization request at the client's redirect URI, by query or form_post, always
 * with `iss` (RFC 9207: clients compare it to the issuer they started with) and `state` as sent.
 */
export function sendAuthorizationResponse(
  reply: FastifyReply,
  tenant: Tenant,
  target: Pick<AuthorizationRequest, 'redirectUri' | 'responseMode' | 'state'>,
  values: Record<string, string>,
) {
  const fields: Record<string, string> = { ...values, ...(target.state !== null ? { state: target.state } : {}), iss: tenant.issuer };
  if (target.responseMode === 'form_post') {
    return sendPage(reply, {
      title: 'Returning to the app',
      branding: tenant.branding,
      formActions: [redirectSource(target.redirectUri)],
      body: html`<form method="post" action="${target.redirectUri}" id="response">
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<p class="note">Returning you to the app…</p><noscript><button type="submit">Continue</button></noscript></form>`,
      script: "document.getElementById('response').submit()",
    });
  }
  const url = new URL(target.redirectUri);
  for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  return reply.status(303).header('cache-control', 'no-store').redirect(url.href, 303);
}

/** The error page of requests we must not redirect (spec 4.2 rule 2). */
export function sendAuthorizeErrorPage(reply: FastifyReply, tenant: Tenant, message: string, status = 400) {
  return sendPage(reply, {
    title: 'Sign-in cannot continue',
    branding: tenant.branding,
    status,
    body: html`<h1>Sign-in cannot continue</h1><p class="error">${message}</p><p class="note">Go back to the app you came from and try again.</p>`,
  });
}

/** What the error page of a request that reached no API's pages shows (an unreadable URL). */
const NEUTRAL_BRANDING = { name: 'Sign-in', logoUrl: null, accentColor: '#4f46e5' };

/** The error page of a malformed request to a page: in the API's name when it is known. */
export function sendRequestErrorPage(reply: FastifyReply, branding: Tenant['branding'] | null, message: string, status: number) {
  return sendPage(reply, {
    title: 'Something went wrong',
    branding: branding ?? NEUTRAL_BRANDING,
    status,
    body: html`<h1>Something went wrong</h1><p class="error">${message}</p><p class="note">Go back to the app you came from and try again.</p>`,
  });
}
