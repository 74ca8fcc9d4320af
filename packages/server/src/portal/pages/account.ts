import { html } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { newPassword, signinPassword, text, type FormBody } from '../../platform/pages/forms.js';
import { PASSWORD_MAX, PASSWORD_MIN, SIGNIN_PASSWORD_MAX } from '../../issuer/people/limits.js';
import { signOutForm, type PortalContext, type PortalDeps } from '../context.js';

/** The person's account: who they are, their password, which customer they act for, signing out. */
export function accountPage(ctx: PortalContext, notice: { error?: string; ok?: string; status?: number } = {}) {
  const switcher = ctx.memberships.length > 1
    ? html`<h2>Customer</h2><form method="post" action="/account/customer" class="row">${csrfInput(ctx.csrf)}
<div><label for="customer">You act for</label><select id="customer" name="customer">${ctx.memberships.map((m) => html`<option value="${m.customer_id}"${m.customer_id === ctx.membership.customer_id ? html` selected` : ''}>${m.name} (${m.role})</option>`)}</select></div>
<button type="submit" id="switch-customer">Switch</button></form>`
    : html``;
  return ctx.page({
    title: 'Account',
    active: '/account',
    status: notice.status ?? 200,
    body: html`<h1>Your account</h1>
${errorBox(notice.error ?? null)}${notice.ok ? html`<p class="ok" role="status">${notice.ok}</p>` : ''}
<table><tr><th>Name</th><td id="person-name">${ctx.person.name}</td></tr><tr><th>E-mail</th><td id="person-email">${ctx.person.email}</td></tr>
<tr><th>Customer</th><td>${ctx.membership.name}, as ${ctx.membership.role}</td></tr></table>
${switcher}
<h2>Change your password</h2>
<form method="post" action="/account/password">${csrfInput(ctx.csrf)}
<label for="current">Current password</label><input type="password" id="current" name="current" autocomplete="current-password" maxlength="${SIGNIN_PASSWORD_MAX}">
<label for="password">New password</label><input type="password" id="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}" required>
<button type="submit" id="change-password">Change password</button></form>
<p class="note">Changing your password signs you out everywhere else.</p>
<h2>Sign out</h2>${signOutForm(ctx.csrf)}`,
  });
}

export async function changePassword(deps: PortalDeps, ctx: PortalContext, body: FormBody) {
  const next = newPassword(body, PASSWORD_MIN, PASSWORD_MAX);
  if (typeof next !== 'string') return accountPage(ctx, { error: next.message, status: 400 });
  // A person who signed up with codes only has no password yet: the current one may be empty then.
  // Read from its own field: it was read from the new password's, so a real change failed and
  // "wrong current password, new = old" passed (issue 26 item 6).
  const current = text(body, 'current') === '' ? '' : signinPassword(body, SIGNIN_PASSWORD_MAX, 'current');
  if (typeof current !== 'string') return accountPage(ctx, { error: current.message, status: 400 });
  const outcome = await deps.personAccounts.changePassword(ctx.tenant.api.id, ctx.person.person_id, ctx.person.session_id, current, next, ctx.request.ip);
  if (outcome === 'changed') return accountPage(ctx, { ok: 'Your password is changed.' });
  if (outcome.refused === 'rate_limited') return accountPage(ctx, { error: `Too many attempts. Try again in ${outcome.retryAfterS} seconds.`, status: 429 });
  return accountPage(ctx, { error: 'The current password is wrong.', status: 401 });
}

export function chooseCustomer(deps: PortalDeps, ctx: PortalContext, body: FormBody) {
  const chosen = ctx.memberships.find((m) => m.customer_id === text(body, 'customer'));
  if (!chosen) return accountPage(ctx, { error: 'Choose one of your customers.', status: 400 });
  deps.portal.chooseCustomer(ctx.reply, chosen.customer_id);
  return ctx.reply.redirect('/', 303);
}
