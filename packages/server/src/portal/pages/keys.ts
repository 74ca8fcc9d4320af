import { html } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { length, text, type FormBody } from '../../platform/pages/forms.js';
import { KEY_NAME_MAX } from '../../customers/portal-view.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { COPY_SCRIPT } from '../layout.js';
import { formatTime } from '../../platform/format.js';
import { quickstartSnippets } from './quickstart.js';

/** The keys page: a form to make one, and the customer's keys with a revoke link where allowed. */
export async function keysPage(deps: PortalDeps, ctx: PortalContext, notice: { error?: string; ok?: string; status?: number } = {}) {
  const keys = await deps.view.keys(ctx.actor);
  const rows = keys.map((key) => html`<tr id="key-${key.id}"><td>${key.name}</td><td><code>${key.prefix}…</code></td><td>${formatTime(key.createdAt)}</td><td>${formatTime(key.lastUsedAt)}</td>
<td>${key.mayRevoke ? html`<a href="/keys/${key.id}/revoke" id="revoke-${key.id}">Revoke</a>` : ''}</td></tr>`);
  return ctx.page({
    title: 'Keys',
    active: '/keys',
    status: notice.status ?? 200,
    body: html`<h1>API keys</h1>
${errorBox(notice.error ?? null)}${notice.ok ? html`<p class="ok" role="status">${notice.ok}</p>` : ''}
<form method="post" action="/keys" class="row">${csrfInput(ctx.csrf)}
<div><label for="name">Name of a new key</label><input type="text" id="name" name="name" maxlength="${KEY_NAME_MAX}" required placeholder="production"></div>
<button type="submit" id="create-key">Create key</button></form>
${keys.length === 0
  ? html`<p class="note">No keys yet.</p>`
  : html`<table><thead><tr><th>Name</th><th>Key</th><th>Created</th><th>Last used</th><th></th></tr></thead><tbody>${rows}</tbody></table>`}
<p class="note">Send a key in the <code>${ctx.tenant.api.key_header}</code> header. Keys are stored as hashes: a key you lose cannot be shown again, make a new one.</p>`,
  });
}

/** Makes a key and shows it once, with a copy button and the quickstart filled in. */
export async function createKey(deps: PortalDeps, ctx: PortalContext, body: FormBody) {
  const name = text(body, 'name').trim();
  if (length(name) < 1 || length(name) > KEY_NAME_MAX) return keysPage(deps, ctx, { error: `Name the key (1 to ${KEY_NAME_MAX} characters).`, status: 400 });
  const made = await deps.view.createKey(ctx.tenant.api, ctx.actor, name);
  if (!made.ok) return keysPage(deps, ctx, { error: made.detail ?? 'The key could not be made.', status: 409 });
  return ctx.page({
    title: 'Your new key',
    active: '/keys',
    script: COPY_SCRIPT,
    body: html`<h1>Your new key: ${made.value.name}</h1>
<p class="warning">Copy it now: this is the only time it is shown.</p>
<pre><code id="new-key">${made.value.key}</code></pre>
<button type="button" id="copy-key" class="secondary" data-copy="new-key">Copy key</button>
<p>Send it in the <code>${ctx.tenant.api.key_header}</code> header:</p>
${quickstartSnippets(ctx.tenant, made.value.key)}
<p><a href="/keys" id="back-to-keys">Back to keys</a></p>`,
  });
}

/** Asks before revoking: a revoked key stops working at once and cannot come back. */
export async function revokeConfirmPage(deps: PortalDeps, ctx: PortalContext, keyId: string) {
  const key = (await deps.view.keys(ctx.actor)).find((k) => k.id === keyId && k.mayRevoke);
  if (!key) return keysPage(deps, ctx, { error: 'No such key.', status: 404 });
  return ctx.page({
    title: 'Revoke a key',
    active: '/keys',
    body: html`<h1>Revoke ${key.name}?</h1><p>Requests with <code>${key.prefix}…</code> will be refused from now on. This cannot be undone.</p>
<form method="post" action="/keys/${key.id}/revoke" class="row">${csrfInput(ctx.csrf)}<button type="submit" class="danger" id="confirm-revoke">Revoke key</button><a href="/keys" class="cancel">Keep it</a></form>`,
  });
}

export async function revokeKey(deps: PortalDeps, ctx: PortalContext, keyId: string) {
  const revoked = await deps.view.revokeKey(ctx.tenant.api, ctx.actor, keyId);
  if (!revoked.ok) return keysPage(deps, ctx, { error: revoked.code === 'forbidden' ? 'Only owners and admins revoke keys they did not make.' : 'No such key.', status: revoked.code === 'forbidden' ? 403 : 404 });
  return keysPage(deps, ctx, { ok: `Revoked ${revoked.value.name}.` });
}
