// The bodies of the workspace invitation page ({BASE_URL}/invites/<token>), one per state the
// invitation and the browser can be in. Server-rendered until the console web app replaces it.
import { csrfInput } from '../platform/pages/csrf.js';
import { html, type SafeHtml } from '../platform/pages/html.js';
import { errorBox } from '../platform/pages/send-page.js';
import type { InvitationView } from './service.js';
import type { InvitableRole } from './tables.js';

/** The bounds the page's inputs announce; the same ones its form readers hold (invite-page.ts). */
export interface FieldBounds {
  nameMax: number;
  passwordMin: number;
  passwordMax: number;
  signinPasswordMax: number;
  secondFactorMax: number;
}

/** Where the page's forms post; all on the console host (CSP form-action 'self'). */
export const inviteActions = (token: string) => {
  const base = `/invites/${encodeURIComponent(token)}`;
  return { page: base, accept: `${base}/accept`, signin: `${base}/signin`, secondFactor: `${base}/2fa`, signout: `${base}/signout` };
};

/** What each role may do, in the words of DESIGN section 6. */
const ROLE_TEXT: Record<InvitableRole, string> = {
  viewer: 'Viewers see everything in the workspace except secrets.',
  editor: 'Editors change APIs, customers, credit, plans and sign-in settings.',
  admin: 'Admins also manage members, invitations, workspace keys and secrets.',
};

/** Every page of an invitation shows what it is for: who invited whom, to which workspace, as what. */
export interface InvitePage {
  token: string;
  csrf: string;
  invitation: InvitationView;
  error: string | null;
}

function summary(invitation: InvitationView): SafeHtml {
  const invitee = html`<strong id="invited-email">${invitation.email}</strong>`;
  // A sender who is gone (an account deleted since) leaves the invitation standing.
  const who = invitation.invitedBy ? html`<strong id="invited-by">${invitation.invitedBy}</strong> invited ${invitee}` : html`${invitee} is invited`;
  return html`<h1>Join <span id="workspace">${invitation.workspace}</span></h1>
<p>${who} to the Gatehouse workspace <strong>${invitation.workspace}</strong> as <strong id="role">${invitation.role}</strong>.</p>
<p class="note">${ROLE_TEXT[invitation.role]}</p>`;
}

const EXPIRY_FORMAT = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

const expiry = (invitation: InvitationView) =>
  html`<p class="note">The invitation works once and expires on ${EXPIRY_FORMAT.format(invitation.expiresAt)} UTC.</p>`;

/**
 * The invited address for the browser's password manager, which files the new or typed password
 * under it; the page shows the address above, and the server ignores this field.
 */
const usernameField = (email: string) => html`<input id="email" type="email" value="${email}" autocomplete="username" hidden readonly>`;

/** A new address: a name and a password make the account, and accepting signs it in. */
export function createAccountBody(page: InvitePage & { name: string; bounds: FieldBounds }): SafeHtml {
  const { bounds } = page;
  return html`${summary(page.invitation)}
${errorBox(page.error)}
<form method="post" action="${inviteActions(page.token).accept}">
${csrfInput(page.csrf)}
${usernameField(page.invitation.email)}
<label for="name">Your name</label>
<input id="name" type="text" name="name" value="${page.name}" autocomplete="name" maxlength="${bounds.nameMax}" required autofocus>
<label for="password">Choose a password</label>
<input id="password" type="password" name="password" autocomplete="new-password" minlength="${bounds.passwordMin}" maxlength="${bounds.passwordMax}" required>
<p class="note">${bounds.passwordMin} to ${bounds.passwordMax} characters.</p>
<button type="submit" id="accept-create">Create account and join</button>
</form>
${expiry(page.invitation)}`;
}

/** An address that has an account: its password (then its second factor) accepts. */
export function signinBody(page: InvitePage & { bounds: FieldBounds }): SafeHtml {
  return html`${summary(page.invitation)}
${errorBox(page.error)}
<p><strong>${page.invitation.email}</strong> already has a Gatehouse account. Sign in to accept.</p>
<form method="post" action="${inviteActions(page.token).signin}">
${csrfInput(page.csrf)}
${usernameField(page.invitation.email)}
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" maxlength="${page.bounds.signinPasswordMax}" required autofocus>
<button type="submit" id="accept-signin">Sign in and join</button>
</form>
<p class="note">Forgot your password? Reset it through the <a href="/api/docs">console API</a> (<code>POST /api/auth/password/forgot</code>), then open this link again.</p>`;
}

/** The second step of a sign-in with two-factor on; the challenge rides along in the form. */
export function secondFactorBody(page: InvitePage & { challenge: string; bounds: FieldBounds }): SafeHtml {
  return html`<h1>Two-factor sign-in</h1>
<p class="note">to join <strong>${page.invitation.workspace}</strong> as ${page.invitation.email}</p>
${errorBox(page.error)}
<p>Enter the 6-digit code from your authenticator app, or one of your recovery codes.</p>
<form method="post" action="${inviteActions(page.token).secondFactor}">
${csrfInput(page.csrf)}
<input type="hidden" name="challenge" value="${page.challenge}">
<label for="code">Code</label>
<input id="code" type="text" name="code" inputmode="text" autocomplete="one-time-code" maxlength="${page.bounds.secondFactorMax}" required autofocus>
<button type="submit" id="accept-2fa">Verify and join</button>
</form>`;
}

/** Signed in as the invited account already: one button accepts. */
export function confirmBody(page: InvitePage): SafeHtml {
  return html`${summary(page.invitation)}
${errorBox(page.error)}
<p>You are signed in as <strong id="signed-in-as">${page.invitation.email}</strong>.</p>
<form method="post" action="${inviteActions(page.token).accept}">
${csrfInput(page.csrf)}
<button type="submit" id="accept-join">Join ${page.invitation.workspace}</button>
</form>
${expiry(page.invitation)}`;
}

/** Signed in as someone else: the invitation is not theirs to accept; signing out is. */
export function otherAccountBody(page: InvitePage & { signedInAs: string }): SafeHtml {
  return html`${summary(page.invitation)}
${errorBox(page.error)}
<p class="error" role="alert">You are signed in as <strong id="signed-in-as">${page.signedInAs}</strong>, but this invitation is for <strong>${page.invitation.email}</strong>.</p>
<form method="post" action="${inviteActions(page.token).signout}">
${csrfInput(page.csrf)}
<button type="submit" id="signout">Sign out</button>
</form>
<p class="note">Then this page lets you accept as ${page.invitation.email}.</p>`;
}

/** After accepting: what happened and where to go next. */
export function acceptedBody(joined: { workspace: string; workspaceId: string; role: string; email: string }): SafeHtml {
  return html`<h1>You joined ${joined.workspace}</h1>
<p>You are now <span id="joined-role">${/^[aeiou]/.test(joined.role) ? 'an' : 'a'} ${joined.role}</span> of <strong>${joined.workspace}</strong>, signed in to Gatehouse as <strong id="signed-in-as">${joined.email}</strong>.</p>
<p>The Gatehouse console web app is on its way. Until it arrives, everything in the workspace is there through the console API, with this browser's sign-in or a workspace key.</p>
<p class="note">Workspace id: <code id="workspace-id">${joined.workspaceId}</code></p>
<p><a id="next-docs" href="/api/docs">Open the console API documentation</a></p>`;
}

/** An invitation that cannot be used, whatever the reason: the page does not tell which. */
export function unusableBody(): SafeHtml {
  return html`<h1>This invitation cannot be used</h1>
<p>The link is unknown, was used already, was revoked, or has expired (invitations last 7 days).</p>
<p class="note">Ask whoever invited you to send a new invitation.</p>`;
}

/** A refusal that is no one field's fault (a form from elsewhere, a body too large). */
export function problemBody(heading: string, message: string): SafeHtml {
  return html`<h1>${heading}</h1>
<p class="error" role="alert">${message}</p>
<p class="note">Go back, reload the page and try again.</p>`;
}
