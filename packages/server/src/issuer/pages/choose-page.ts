// Spec 4.2 rules 3 and 4: continue as the signed-in account, or create / sign in as another.
import { csrfInput } from '../../platform/pages/csrf.js';
import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { actions, continueTo, type PageContext } from './parts.js';

export function chooseBody(page: PageContext & { signedInAs: string; reason: 'create' | 'login_hint'; loginHint: string | null }): SafeHtml {
  const other = page.reason === 'create' ? html`Create a new account` : html`Sign in as ${page.loginHint ?? 'another account'}`;
  return html`<h1>Choose an account</h1>
${continueTo(page.appName)}
${errorBox(page.error)}
<p>You are signed in as <strong>${page.signedInAs}</strong>.</p>
<form method="post" action="${actions(page.token).choose}">
${csrfInput(page.csrf)}
<button type="submit" id="choose-continue" name="choice" value="continue">Continue as ${page.signedInAs}</button>
<button type="submit" id="choose-other" class="secondary" name="choice" value="other">${other}</button>
</form>
<p class="note">${page.reason === 'create' ? 'Creating a new account signs you out of this one here.' : 'Signing in as someone else signs you out of this account here.'}</p>`;
}
