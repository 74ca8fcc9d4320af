import type { FastifyReply } from 'fastify';
import { html } from '../../platform/pages/html.js';
import { redirectSource, sendPage } from '../../platform/pages/send-page.js';
import { hostOf } from '../connected-apps/redirect-rules.js';
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
  return reply.status(303).header('cache-control', 'no-store').redirect(withQuery(target.redirectUri, fields), 303);
}

/**
 * An error of an app that is not trusted yet (RFC 9700 4.11.2): our page says what went wrong and
 * where the app would take the person, and only a click goes there. A link for the query mode, a
 * form with a button for form_post; no script submits it.
 */
export function sendAuthorizeErrorWithReturn(
  reply: FastifyReply,
  tenant: Tenant,
  target: Pick<AuthorizationRequest, 'redirectUri' | 'responseMode' | 'state'>,
  values: { error: string; error_description: string },
) {
  const fields: Record<string, string> = { ...values, ...(target.state !== null ? { state: target.state } : {}), iss: tenant.issuer };
  const host = hostOf(target.redirectUri);
  const back =
    target.responseMode === 'form_post'
      ? html`<form method="post" action="${target.redirectUri}" id="return-form">
${Object.entries(fields).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<button type="submit" id="return-to-app" class="secondary">Return to ${host}</button></form>`
      : html`<p><a id="return-to-app" href="${withQuery(target.redirectUri, fields)}">Return to ${host}</a></p>`;
  return sendPage(reply, {
    title: 'Sign-in cannot continue',
    branding: tenant.branding,
    status: 400,
    ...(target.responseMode === 'form_post' ? { formActions: [redirectSource(target.redirectUri)] } : {}),
    body: html`<h1>Sign-in cannot continue</h1><p class="error">${values.error_description}</p>
<p class="note">The app that sent you here is not verified by ${tenant.branding.name}. Return to it only if you trust <strong id="app-host">${host}</strong>.</p>${back}`,
  });
}

function withQuery(uri: string, fields: Record<string, string>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  return url.href;
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
