// The consent screen (spec 4.3 pages): names the app, the server and each permission; an app the
// owner did not register is labelled unverified (spec 4.3, apps people connect).
import type { InteractionView } from '../protocol/authorization.js';
import { API_KEYS_SCOPE } from '../protocol/scopes.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { actions, type PageContext } from './parts.js';

/** What each standard scope gives the app, in a person's words. */
const STANDARD_SCOPE_TEXT: Record<string, string> = {
  openid: 'Know who you are when you sign in',
  profile: 'See your name and picture',
  email: 'See your e-mail address',
  offline_access: 'Stay connected when you are not using it',
  roles: 'See your roles and permissions',
  [API_KEYS_SCOPE]: 'Create and manage your API keys',
};

type Scope = InteractionView['scopes'][number];

function scopeItem(scope: Scope): SafeHtml {
  if (!scope.permission) return html`<li>${STANDARD_SCOPE_TEXT[scope.name] ?? scope.name}</li>`;
  return html`<li><code>${scope.name}</code>${scope.sensitive ? html`<span class="badge">sensitive</span>` : ''}${scope.description ? html`<br><span class="note">${scope.description}</span>` : ''}</li>`;
}

export function consentBody(page: PageContext & { apiName: string; view: InteractionView; signedInAs: string }): SafeHtml {
  const { view } = page;
  const unverified = view.app.origin !== 'owner';
  const standard = view.scopes.filter((scope) => !scope.permission);
  const permissions = view.scopes.filter((scope) => scope.permission);
  return html`<h1><span id="app-name">${view.app.name}</span>${unverified ? html`<span class="badge">unverified</span>` : ''} wants to access your ${page.apiName} account</h1>
${errorBox(page.error)}
${unverified ? html`<p class="error">${page.apiName} did not register this app and cannot vouch for it. Allow it only if you trust it.</p>` : ''}
${view.app.host ? html`<p class="note" id="app-host">${view.app.origin === 'metadata' ? 'It identifies itself from' : 'It sends you back to'} <strong>${view.app.host}</strong></p>` : ''}
<p class="note">Signed in as <strong>${page.signedInAs}</strong></p>
${standard.length ? html`<p>It will be able to:</p><ul class="permissions">${standard.map(scopeItem)}</ul>` : ''}
${view.server ? html`<p>At <strong id="server-name">${view.server.name}</strong> (<span class="note">${view.server.resourceUrl}</span>)${permissions.length ? html`, with these permissions:` : html`, without permissions.`}</p>` : ''}
${permissions.length ? html`<ul class="permissions">${permissions.map(scopeItem)}</ul>` : ''}
<form method="post" action="${actions(page.token).consent}">
${csrfInput(page.csrf)}
<button type="submit" id="consent-allow" name="decision" value="allow">Allow</button>
<button type="submit" id="consent-deny" class="secondary" name="decision" value="deny">Deny</button>
</form>
<p class="note">If you allow, ${page.apiName} remembers it for this app and asks again only for more.</p>`;
}
