// The sign-in page: e-mail and password, or a code by e-mail; and the page to enter that code.
import { EMAIL_MAX, SIGNIN_PASSWORD_MAX } from '../people/limits.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { actions, continueTo, type PageContext } from './parts.js';

export function signinBody(page: PageContext & { email: string; signupsOpen: boolean }): SafeHtml {
  const to = actions(page.token);
  return html`<h1>Sign in</h1>
${continueTo(page.appName)}
${errorBox(page.error)}
<form method="post" action="${to.password}">
${csrfInput(page.csrf)}
<label for="email">E-mail</label>
<input id="email" type="email" name="email" value="${page.email}" autocomplete="username" maxlength="${EMAIL_MAX}" required autofocus>
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="current-password" maxlength="${SIGNIN_PASSWORD_MAX}">
<button type="submit" id="signin-password">Sign in</button>
<button type="submit" id="signin-code" class="secondary" formaction="${to.sendCode}" formnovalidate>E-mail me a code instead</button>
</form>
${page.signupsOpen ? html`<p class="note">New here? <a id="to-signup" href="${to.signupForm}">Create an account</a></p>` : ''}`;
}

/** After a code was asked for. The same words whether or not the address has an account. */
export function codeEntryBody(page: PageContext & { email: string }): SafeHtml {
  const to = actions(page.token);
  return html`<h1>Check your e-mail</h1>
${continueTo(page.appName)}
${errorBox(page.error)}
<p>If <strong>${page.email}</strong> has an account, we sent it a 6-digit code. It works once, for 10 minutes.</p>
<form method="post" action="${to.code}">
${csrfInput(page.csrf)}
<input type="hidden" name="email" value="${page.email}">
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required autofocus>
<button type="submit" id="code-signin">Sign in</button>
<button type="submit" class="secondary" formaction="${to.sendCode}" formnovalidate>Send a new code</button>
</form>
<p class="note"><a href="${to.signinForm}">Sign in with a password instead</a></p>`;
}
