// The team's destructive actions, each asked first on a page of its own (removing a teammate,
// leaving, revoking an invitation), then done by that page's form.
import { html } from '../../platform/pages/html.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { customerRoleMay } from '../../customers/members.js';
import { sendStatePage, signOutForm, type PortalContext, type PortalDeps } from '../context.js';
import { backToTeam, refusal, teamPage } from './team.js';

const confirmPage = (ctx: PortalContext, title: string, question: string, detail: string, action: string, button: { id: string; label: string }) =>
  ctx.page({
    title,
    active: '/team',
    body: html`<h1>${question}</h1><p>${detail}</p>
<form method="post" action="${action}" class="row">${csrfInput(ctx.csrf)}<button type="submit" class="danger" id="${button.id}">${button.label}</button><a href="/team" class="cancel">Cancel</a></form>`,
  });

export async function removeConfirmPage(deps: PortalDeps, ctx: PortalContext, personId: string) {
  const member = (await deps.members.members(ctx.tenant.api.id, ctx.membership.customer_id)).find((m) => m.id === personId);
  const mayRemove = member && member.id !== ctx.person.person_id && customerRoleMay.manageTeam(ctx.membership.role) && customerRoleMay.grant(ctx.membership.role, member.role);
  if (!member || !mayRemove) return teamPage(deps, ctx, refusal(member ? 'forbidden' : 'not_found', undefined, 'member'));
  return confirmPage(ctx, 'Remove a teammate', `Remove ${member.name}?`,
    `${member.name} (${member.email}) loses access to ${ctx.membership.name} at once: its keys, usage and balance. Keys they made stay with ${ctx.membership.name} and keep working.`,
    `/team/members/${member.id}/remove`, { id: 'confirm-remove', label: `Remove ${member.name}` });
}

export async function removeMember(deps: PortalDeps, ctx: PortalContext, personId: string) {
  // Removing oneself is leaving, which has its own page and words.
  if (personId === ctx.person.person_id) return ctx.reply.redirect('/team/leave', 303);
  const removed = await deps.members.remove(ctx.actor, personId);
  if (!removed.ok) return teamPage(deps, ctx, refusal(removed.code, removed.detail, 'member'));
  return backToTeam(ctx, 'removed');
}

export async function leaveConfirmPage(deps: PortalDeps, ctx: PortalContext) {
  if (ctx.membership.role === 'owner') {
    const owners = (await deps.members.members(ctx.tenant.api.id, ctx.membership.customer_id)).filter((m) => m.role === 'owner');
    if (owners.length <= 1) return teamPage(deps, ctx, refusal('last_owner', undefined, 'member'));
  }
  return confirmPage(ctx, 'Leave the team', `Leave ${ctx.membership.name}?`,
    `You lose access to ${ctx.membership.name} at once: its keys, usage and balance. Keys you made stay with it and keep working. Only an invitation brings you back.`,
    '/team/leave', { id: 'confirm-leave', label: `Leave ${ctx.membership.name}` });
}

/** Leaves the customer; the person goes on with another customer of theirs, or sees that they left. */
export async function leave(deps: PortalDeps, ctx: PortalContext) {
  const left = await deps.members.remove(ctx.actor, ctx.person.person_id);
  if (!left.ok) return teamPage(deps, ctx, refusal(left.code, left.detail, 'member'));
  const other = ctx.memberships.find((m) => m.customer_id !== ctx.membership.customer_id);
  if (other) {
    deps.portal.chooseCustomer(ctx.reply, other.customer_id);
    return ctx.reply.redirect('/', 303);
  }
  return sendStatePage(deps, ctx.tenant, ctx.reply, 'You left', html`<h1>You left ${ctx.membership.name}</h1><p>You no longer act for ${ctx.membership.name} on ${ctx.tenant.api.name}.</p>${signOutForm(ctx.csrf)}`);
}

export async function revokeInvitationConfirmPage(deps: PortalDeps, ctx: PortalContext, inviteId: string) {
  const invitation = (await deps.members.openInvitations(ctx.tenant.api.id, ctx.membership.customer_id)).find((i) => i.id === inviteId);
  const mayRevoke = invitation && customerRoleMay.manageTeam(ctx.membership.role) && customerRoleMay.grant(ctx.membership.role, invitation.role);
  if (!invitation || !mayRevoke) return teamPage(deps, ctx, refusal(invitation ? 'forbidden' : 'not_found', undefined, 'invitation'));
  return confirmPage(ctx, 'Revoke an invitation', `Revoke the invitation of ${invitation.email}?`,
    `The link mailed to ${invitation.email} stops working at once. You can invite them again later.`,
    `/team/invitations/${invitation.id}/revoke`, { id: 'confirm-revoke-invitation', label: 'Revoke the invitation' });
}

export async function revokeInvitation(deps: PortalDeps, ctx: PortalContext, inviteId: string) {
  const revoked = await deps.members.revokeInvitation(ctx.actor, inviteId);
  if (!revoked.ok) return teamPage(deps, ctx, refusal(revoked.code, revoked.detail, 'invitation'));
  return backToTeam(ctx, 'revoked');
}
