// Sign-up in two steps: the address first, proven by an e-mailed code; then code, name and password.
import { EMAIL_MAX, NAME_MAX, PASSWORD_MAX, PASSWORD_MIN } from '../people/limits.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { actions, continueTo, type PageContext } from './parts.js';

export function signupBody(page: PageContext & { email: string }): SafeHtml {
  const to = actions(page.token);
  return html`<h1>Create your account</h1>
${continueTo(page.appName)}
${errorBox(page.error)}
<form method="post" action="${to.sendSignupCode}">
${csrfInput(page.csrf)}
<label for="email">E-mail</label>
<input id="email" type="email" name="email" value="${page.email}" autocomplete="email" maxlength="${EMAIL_MAX}" required autofocus>
<p class="note">We will e-mail you a code to confirm the address.</p>
<button type="submit" id="signup-send">Continue</button>
</form>
<p class="note">Already have an account? <a id="to-signin" href="${to.signinForm}">Sign in</a></p>`;
}

/** Step 2. A taken address sees this page too; its mail says it already has an account. */
export function signupCodeBody(page: PageContext & { email: string; name: string }): SafeHtml {
  const to = actions(page.token);
  return html`<h1>Check your e-mail</h1>
${continueTo(page.appName)}
${errorBox(page.error)}
<p>We sent a message to <strong>${page.email}</strong>. Enter the 6-digit code from it, which works for 10 minutes.</p>
<form method="post" action="${to.signup}">
${csrfInput(page.csrf)}
<input type="hidden" name="email" value="${page.email}">
<label for="code">Code</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" maxlength="6" required autofocus>
<label for="name">Your name</label>
<input id="name" type="text" name="name" value="${page.name}" autocomplete="name" maxlength="${NAME_MAX}" required>
<label for="password">Password</label>
<input id="password" type="password" name="password" autocomplete="new-password" minlength="${PASSWORD_MIN}" maxlength="${PASSWORD_MAX}" required>
<p class="note">${PASSWORD_MIN} to ${PASSWORD_MAX} characters.</p>
<button type="submit" id="signup-complete">Create account</button>
<button type="submit" class="secondary" formaction="${to.sendSignupCode}" formnovalidate>Send a new code</button>
</form>`;
}
