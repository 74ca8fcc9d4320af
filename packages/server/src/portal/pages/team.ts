import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { echo, email, text, FieldError, type FormBody } from '../../platform/pages/forms.js';
import type { ErrorCode } from '../../platform/errors.js';
import { EMAIL_MAX } from '../../issuer/people/limits.js';
import { customerRoleMay } from '../../customers/members.js';
import type { CustomerRole } from '../../customers/tables.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { formatTime } from '../../platform/format.js';

export interface Notice {
  error?: string;
  ok?: string;
  status?: number;
}

const ROLES: CustomerRole[] = ['owner', 'admin', 'member'];

/** Roles this person may give (their own and below), none when they do not run the team. */
export const grantable = (ctx: PortalContext) => ROLES.filter((role) => customerRoleMay.grant(ctx.membership.role, role));

/** A role named in a form, if it is one. */
export function roleOf(body: FormBody): CustomerRole | null {
  const role = text(body, 'role');
  return (ROLES as string[]).includes(role) ? (role as CustomerRole) : null;
}

/** Why the team service refused, in the words of the page, with its status. */
export function refusal(code: ErrorCode, detail: string | undefined, what: 'member' | 'invitation'): Notice {
  switch (code) {
    case 'forbidden':
      return { error: 'Only owners and admins run the team, and nobody acts on a role above their own.', status: 403 };
    case 'last_owner':
      return { error: 'A customer keeps at least one owner: make someone else an owner first.', status: 409 };
    case 'already_member':
      return { error: 'That address is already on the team.', status: 409 };
    case 'rate_limited':
      return { error: detail ?? 'Too many invitations for now. Try again later.', status: 429 };
    default:
      return { error: what === 'member' ? 'No such member.' : 'No such invitation.', status: 404 };
  }
}

const roleSelect = (id: string, roles: CustomerRole[], selected: CustomerRole) =>
  html`<select id="${id}" name="role">${roles.map((role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${role}</option>`)}</select>`;

/** The actions on one member's row: a role change and removal where allowed, leaving on one's own. */
function memberActions(ctx: PortalContext, member: { id: string; name: string; role: CustomerRole }, owners: number): SafeHtml {
  const self = member.id === ctx.person.person_id;
  const lastOwner = member.role === 'owner' && owners <= 1;
  const manages = customerRoleMay.manageTeam(ctx.membership.role) && customerRoleMay.grant(ctx.membership.role, member.role);
  // The last owner can change nothing about themself: offering a role change would only be refused.
  const roleForm = manages && !(self && lastOwner)
    ? html`<form method="post" action="/team/members/${member.id}/role" class="inline">${csrfInput(ctx.csrf)}<label class="visually-hidden" for="role-${member.id}">Role of ${member.name}</label>${roleSelect(`role-${member.id}`, grantable(ctx), member.role)}<button type="submit" class="secondary" id="set-role-${member.id}">Change</button></form>`
    : html``;
  const leaveOrRemove = self
    ? lastOwner
      ? html`<span class="note" id="last-owner">You are the last owner: make someone else an owner to leave</span>`
      : html`<a href="/team/leave" id="leave">Leave</a>`
    : manages
      ? html`<a href="/team/members/${member.id}/remove" id="remove-${member.id}" class="danger">Remove</a>`
      : html``;
  return html`<div class="actions">${roleForm}${leaveOrRemove}</div>`;
}

/** What a change that worked says on the page it redirects to (/team?done=…): fixed words, nothing typed. */
const DONE: Record<string, string> = {
  invited: 'Invitation sent.',
  role: 'The role is changed.',
  removed: 'Removed from the team.',
  revoked: 'The invitation is revoked.',
};

/** The notice of a change that redirected here, if the query names one. */
export function doneNotice(ctx: PortalContext): Notice {
  const done = (ctx.request.query as Record<string, unknown>).done;
  return typeof done === 'string' && Object.hasOwn(DONE, done) ? { ok: DONE[done]! } : {};
}

/** After a change that worked: back to the team page by GET, so reloading it sends nothing again. */
export const backToTeam = (ctx: PortalContext, done: keyof typeof DONE) => ctx.reply.redirect(`/team?done=${done}`, 303);

/** Members and open invitations; owners and admins also invite, change roles, remove and revoke. */
export async function teamPage(deps: PortalDeps, ctx: PortalContext, notice: Notice = {}, typed: { email?: string; role?: CustomerRole } = {}) {
  const [members, invitations] = await Promise.all([
    deps.members.members(ctx.tenant.api.id, ctx.membership.customer_id),
    deps.members.openInvitations(ctx.tenant.api.id, ctx.membership.customer_id),
  ]);
  const owners = members.filter((m) => m.role === 'owner').length;
  const roles = grantable(ctx);
  const memberRows = members.map((m) => html`<tr id="member-${m.id}"><td><div class="person">${m.name}${m.id === ctx.person.person_id ? html` <span class="badge plain">you</span>` : ''}</div><div class="email">${m.email}</div></td><td class="role">${m.role}</td>
<td>${formatTime(m.last_login_at ? new Date(m.last_login_at) : null)}</td><td>${memberActions(ctx, m, owners)}</td></tr>`);
  const inviteRows = invitations.map((i) => html`<tr id="invitation-${i.id}"><td>${i.email}</td><td class="role">${i.role}</td><td>${formatTime(i.expiresAt)}</td>
<td>${customerRoleMay.grant(ctx.membership.role, i.role) ? html`<a href="/team/invitations/${i.id}/revoke" id="revoke-invitation-${i.id}" class="danger">Revoke</a>` : ''}</td></tr>`);
  const inviteForm = roles.length
    ? html`<h2>Invite a teammate</h2>
<form method="post" action="/team/invitations" class="row">${csrfInput(ctx.csrf)}
<div><label for="invite-email">E-mail</label><input type="email" id="invite-email" name="email" maxlength="${EMAIL_MAX}" required value="${typed.email ?? ''}" placeholder="teammate@example.com"></div>
<div><label for="invite-role">Role</label>${roleSelect('invite-role', roles, typed.role ?? 'member')}</div>
<button type="submit" id="send-invitation">Send invitation</button></form>
<p class="note">The link in the mail works once, for 7 days.</p>`
    : html``;
  return ctx.page({
    title: 'Team',
    active: '/team',
    status: notice.status ?? 200,
    body: html`<h1>Team of ${ctx.membership.name}</h1>
${errorBox(notice.error ?? null)}${notice.ok ? html`<p class="ok" role="status">${notice.ok}</p>` : ''}
<p class="note">Owners run everything, other owners included. Admins invite people, manage admins and members, and revoke any key. Members use the API, make keys and revoke the keys they made. Anyone may leave, except the last owner.</p>
<table id="members"><thead><tr><th scope="col">Member</th><th scope="col">Role</th><th scope="col">Last sign-in</th><th scope="col"></th></tr></thead><tbody>${memberRows}</tbody></table>
<h2>Open invitations</h2>
${invitations.length === 0
  ? html`<p class="note" id="no-invitations">No open invitations.</p>`
  : html`<table id="invitations"><thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Expires</th><th scope="col"></th></tr></thead><tbody>${inviteRows}</tbody></table>`}
${inviteForm}`,
  });
}

/** Sends an invitation by mail, with a role up to the inviter's own. */
export async function inviteTeammate(deps: PortalDeps, ctx: PortalContext, body: FormBody) {
  const address = email(body, EMAIL_MAX);
  const role = roleOf(body);
  const typed = { email: echo(body, 'email', EMAIL_MAX), ...(role ? { role } : {}) };
  if (address instanceof FieldError) return teamPage(deps, ctx, { error: `Enter the teammate's e-mail address (up to ${EMAIL_MAX} characters).`, status: 400 }, typed);
  if (!role) return teamPage(deps, ctx, { error: 'Choose a role: owner, admin or member.', status: 400 }, typed);
  const sent = await deps.members.invite(ctx.actor, address, role);
  if (!sent.ok) return teamPage(deps, ctx, refusal(sent.code, sent.detail, 'invitation'), typed);
  return backToTeam(ctx, 'invited');
}

export async function setMemberRole(deps: PortalDeps, ctx: PortalContext, body: FormBody, personId: string) {
  const role = roleOf(body);
  if (!role) return teamPage(deps, ctx, { error: 'Choose a role: owner, admin or member.', status: 400 });
  const changed = await deps.members.setRole(ctx.actor, personId, role);
  if (!changed.ok) return teamPage(deps, ctx, refusal(changed.code, changed.detail, 'member'));
  return backToTeam(ctx, 'role');
}
