import type { FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../platform/pages/html.js';
import { csrfInput, csrfToken, csrfValid, CSRF_FIELD } from '../../platform/pages/csrf.js';
import { formBody } from '../../platform/pages/forms.js';
import { sendStatePage, signInPath, signOutForm, type PortalDeps } from '../context.js';

const validToken = (token: string) => /^[A-Za-z0-9_-]{20,100}$/.test(token);

/**
 * Where an invitation's link lands: its customer and role, then creating an account (the address
 * filled in) or signing in; a person signed in as the address accepts with one button. A sign-up
 * by the link accepts it already, so coming back finds the person in the customer.
 */
export async function invitePage(deps: PortalDeps, request: FastifyRequest, reply: FastifyReply, token: string) {
  const tenant = request.tenant;
  const csrf = csrfToken(request, reply, deps.secureCookies);
  const person = await deps.portal.current(tenant.api.id, request);
  if (person && validToken(token)) {
    const joined = await deps.members.joinedBy(tenant.api.id, token, person.person_id);
    if (joined) {
      deps.portal.chooseCustomer(reply, joined);
      return reply.redirect('/', 303);
    }
  }
  const invitation = validToken(token) ? await deps.members.invitation(tenant.api.id, token) : null;
  if (!invitation) {
    return sendStatePage(deps, tenant, reply, 'Invitation', html`<h1>This invitation is no longer valid</h1><p>It was used, revoked or has expired. Ask for a new one, or <a href="/">open ${tenant.api.name}</a>.</p>`, 404);
  }
  const what = invitation.customerName ? html`to join <strong>${invitation.customerName}</strong> on ${tenant.api.name} as ${invitation.role}` : html`to use ${tenant.api.name}`;
  const here = `/invites/${token}`;
  let action;
  if (!person) {
    action = html`<p><a id="invite-signup" href="${signInPath(here, { signup: true, email: invitation.email })}">Create your account</a> with ${invitation.email}, or
<a id="invite-signin" href="${signInPath(here, { email: invitation.email })}">sign in</a> if you have one.</p>`;
  } else if (person.email === invitation.email) {
    action = html`<form method="post" action="${here}/accept">${csrfInput(csrf)}<button type="submit" id="accept-invite">Accept the invitation</button></form>`;
  } else {
    action = html`<p class="warning">You are signed in as ${person.email}. This invitation is for ${invitation.email}: sign out, then open the link again.</p>${signOutForm(csrf)}`;
  }
  return sendStatePage(deps, tenant, reply, 'Invitation', html`<h1>You are invited</h1><p>${invitation.email} is invited ${what}.</p>${action}`);
}

export async function acceptInvite(deps: PortalDeps, request: FastifyRequest, reply: FastifyReply, token: string) {
  const tenant = request.tenant;
  if (!csrfValid(request, formBody(request.body)[CSRF_FIELD], tenant.issuer)) {
    return sendStatePage(deps, tenant, reply, 'Invitation', html`<h1>The form expired</h1><p><a href="/invites/${token}">Open the invitation again</a></p>`, 403);
  }
  const person = await deps.portal.current(tenant.api.id, request);
  if (!person) return reply.redirect(signInPath(`/invites/${token}`), 303);
  const accepted = validToken(token) ? await deps.members.acceptByToken(tenant.api.id, token, { id: person.person_id, email: person.email, name: person.name }) : null;
  if (!accepted?.ok) {
    const message = accepted?.code === 'invite_account_mismatch' ? 'This invitation is for another address.' : 'This invitation is no longer valid.';
    return sendStatePage(deps, tenant, reply, 'Invitation', html`<h1>The invitation was not accepted</h1><p class="error">${message}</p>`, accepted?.code === 'invite_account_mismatch' ? 403 : 404);
  }
  deps.portal.chooseCustomer(reply, accepted.value.customerId);
  return reply.redirect('/', 303);
}
