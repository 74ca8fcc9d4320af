import { html, type SafeHtml } from '../../platform/pages/html.js';
import { errorBox } from '../../platform/pages/send-page.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import type { FormBody } from '../../platform/pages/forms.js';
import { formatDay, formatTime } from '../../platform/format.js';
import type { KeyOut, EndUserKeys } from '../../end-user-keys/service.js';
import { MAX_KEY_NAME_LENGTH } from '../../end-user-keys/limits.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { COPY_SCRIPT } from '../layout.js';
import { keyCaller, newKeyInput, reauthPath, refusalNotice, signInRecent, throughAccountRules } from '../api-keys-access.js';

// The page of a person's own API keys (spec 4.5, issue 15 item 7): keys they make for themselves
// to call the API's servers, not the customer's metering keys of /keys. Every request goes
// through the account API's rules (api-keys-access.ts).

export interface Notice {
  error?: string;
  ok?: string;
  status?: number;
}

type Options = Awaited<ReturnType<EndUserKeys['options']>>;

/** What the create form had, to fill it in again after a refusal. */
export interface Typed {
  name?: string;
  resources?: string[];
  permissions?: string[];
  lifetime?: string;
}

/** Offered lifetimes in days, within the owner's longest (spec 5.8); the longest itself is offered too. */
function lifetimes(options: Options): { value: string; label: string }[] {
  const days = [...new Set([7, 30, 90, 365, options.max_lifetime_days].filter((d) => d <= options.max_lifetime_days))].sort((a, b) => a - b);
  const choices = days.map((d) => ({ value: String(d), label: d === 365 ? '1 year' : d % 365 === 0 ? `${d / 365} years` : `${d} days` }));
  return options.allow_no_expiry ? [...choices, { value: 'never', label: 'Never expires' }] : choices;
}

const checked = (on: boolean) => (on ? html` checked` : '');

function createForm(ctx: PortalContext, options: Options, typed: Typed, recent: boolean): SafeHtml {
  const lifetime = typed.lifetime ?? String(options.default_lifetime_days);
  const servers = options.servers.map((server, i) => html`<div class="server">
<label class="check"><input type="checkbox" name="resources" value="${server.resource}" id="server-${i}"${checked(typed.resources?.includes(server.resource) ?? options.servers.length === 1)}> <strong>${server.name}</strong> <code class="url">${server.resource}</code></label>
${server.permissions.length === 0
  ? html`<p class="note indent">No permissions of this server you can put on a key; the key still works for what needs none.</p>`
  : html`<div class="indent">${server.permissions.map((p) => html`<label class="check"><input type="checkbox" name="permissions" value="${p.name}" id="permission-${i}-${p.name}"${checked(typed.permissions?.includes(p.name) ?? false)}> <code>${p.name}</code>${p.description ? html` <span class="note">${p.description}</span>` : ''}${p.sensitive ? html` <span class="badge plain">sensitive</span>` : ''}</label>`)}</div>`}
</div>`);
  return html`<h2>Create a key</h2>
${recent ? '' : html`<p class="note" id="reauth-note">Creating a key needs a sign-in within the last 10 minutes: you will be asked for your password first, then come back here.</p>`}
<form method="post" action="/api-keys" id="create-form" class="stack">${csrfInput(ctx.csrf)}
<label for="key-name">Name</label><input type="text" id="key-name" name="name" maxlength="${MAX_KEY_NAME_LENGTH}" required value="${typed.name ?? ''}" placeholder="laptop script">
<fieldset><legend>Servers and permissions</legend>${options.servers.length === 0 ? html`<p class="note">This service has no servers yet.</p>` : servers}</fieldset>
<label for="lifetime">Lifetime</label><select id="lifetime" name="lifetime">${lifetimes(options).map((l) => html`<option value="${l.value}"${l.value === lifetime ? html` selected` : ''}>${l.label}</option>`)}</select>
<button type="submit" id="create-key">Create key</button></form>`;
}

function keyRow(key: KeyOut, names: Map<string, string>): SafeHtml {
  const state = key.status === 'active' ? '' : html` <span class="badge plain">${key.status}</span>`;
  return html`<tr id="key-${key.id}"><td class="name">${key.name}${state}</td><td><code>${key.start}…</code></td>
<td>${key.resources.map((url) => html`<div>${names.get(url) ?? url}</div>`)}</td>
<td>${key.permissions.length ? key.permissions.map((p) => html`<div><code>${p}</code></div>`) : html`<span class="note">none</span>`}</td>
<td>${formatDay(new Date(key.created_at))}</td><td>${key.expires_at ? formatDay(new Date(key.expires_at)) : 'never'}</td><td>${formatTime(key.last_used_at ? new Date(key.last_used_at) : null)}</td>
<td><div class="actions"><a href="/api-keys/${key.id}/rename" id="rename-${key.id}">Rename</a>${key.status === 'expired' ? '' : html`<a href="/api-keys/${key.id}/roll" id="roll-${key.id}">Roll</a>`}<a href="/api-keys/${key.id}/revoke" id="revoke-${key.id}" class="danger">Revoke</a></div></td></tr>`;
}

/** What a change that worked says on the page it redirects to (/api-keys?done=…): fixed words. */
const DONE: Record<string, string> = {
  renamed: 'The key is renamed.',
  revoked: 'The key is revoked: servers refuse it within 30 seconds.',
  'revoked-all': 'All your keys are revoked: servers refuse them within 30 seconds.',
};

/** The notice of the query: a change that redirected here, or a sign-in again that came back. */
export function queryNotice(ctx: PortalContext): Notice {
  const query = ctx.request.query as Record<string, unknown>;
  if (typeof query.done === 'string' && Object.hasOwn(DONE, query.done)) return { ok: DONE[query.done]! };
  if (query.reauthed === '1') return { ok: 'You signed in again: you can create and roll keys for the next 10 minutes.' };
  return {};
}

/** The person's keys and the form to make one. */
export async function apiKeysPage(deps: PortalDeps, ctx: PortalContext, notice: Notice = {}, typed: Typed = {}) {
  const caller = await keyCaller(deps, ctx);
  const read = await throughAccountRules(deps, caller, ctx.tenant.api.id, { change: false, stepUp: false }, async () => ({
    ok: true as const,
    value: await Promise.all([deps.endUserKeys.options(ctx.tenant, caller), deps.endUserKeys.list(ctx.tenant, caller)]),
  }));
  if (!read.ok) return ctx.page({ title: 'Personal keys', active: '/api-keys', status: 429, body: html`<h1>Your API keys</h1>${errorBox(refusalNotice(read.refusal).error)}` });
  const [options, { keys }] = read.value;
  const names = new Map(options.servers.map((s) => [s.resource, s.name]));
  return ctx.page({
    title: 'Personal keys',
    active: '/api-keys',
    status: notice.status ?? 200,
    body: html`<h1>Your API keys</h1>
${errorBox(notice.error ?? null)}${notice.ok ? html`<p class="ok" role="status">${notice.ok}</p>` : ''}
<p class="note">Keys you make for yourself to call ${ctx.tenant.api.name}'s servers as you, with the permissions you choose. Send one as <code>Authorization: Bearer &lt;key&gt;</code>.</p>
${options.enabled ? '' : html`<p class="warning" id="keys-paused">API keys are not available for this service right now: your keys do not work until they are again. You can still rename and revoke them.</p>`}
${keys.length === 0
  ? html`<p class="note" id="no-keys">No keys yet.</p>`
  : html`<table id="api-keys" class="keys"><thead><tr><th scope="col">Name</th><th scope="col">Key</th><th scope="col">Servers</th><th scope="col">Permissions</th><th scope="col">Created</th><th scope="col">Expires</th><th scope="col">Last used</th><th scope="col"></th></tr></thead><tbody>${keys.map((key) => keyRow(key, names))}</tbody></table>
<p><a href="/api-keys/revoke-all" id="revoke-all" class="danger">Revoke all keys</a></p>`}
${options.enabled ? createForm(ctx, options, typed, signInRecent(deps, ctx)) : ''}`,
  });
}

/** The whole secret, this once, with a copy button (spec 2.7: shown once, stored as a hash). */
export function secretPage(ctx: PortalContext, heading: string, key: KeyOut, secret: string, extra: SafeHtml = html``) {
  return ctx.page({
    title: heading,
    active: '/api-keys',
    script: COPY_SCRIPT,
    body: html`<h1>${heading}: ${key.name}</h1>
<p class="warning">Copy it now: this is the only time it is shown. We keep only a hash of it.</p>
<pre><code id="new-secret">${secret}</code></pre>
<button type="button" id="copy-secret" class="secondary" data-copy="new-secret">Copy key</button>
${extra}
<p>Send it as <code>Authorization: Bearer ${key.start}…</code> to ${key.resources.length === 1 ? 'the server' : 'the servers'} it names.</p>
<p><a href="/api-keys" id="back-to-api-keys">Back to your keys</a></p>`,
  });
}

/** Creates a key: the recent sign-in first (else sign in again and come back), then the form, then the service. */
export async function createApiKey(deps: PortalDeps, ctx: PortalContext, body: FormBody) {
  const caller = await keyCaller(deps, ctx);
  const { input, error, lifetime } = newKeyInput(body);
  const typed: Typed = { name: [...input.name].slice(0, MAX_KEY_NAME_LENGTH).join(''), resources: input.resources, permissions: input.permissions, lifetime };
  const made = await throughAccountRules<{ key: KeyOut; secret: string } | null>(deps, caller, ctx.tenant.api.id, { change: true, stepUp: true }, async () =>
    error === null ? deps.endUserKeys.create(ctx.tenant, { caller, ip: ctx.request.ip }, input) : { ok: true as const, value: null },
  );
  if (!made.ok) {
    // Spec 4.5: a sign-in older than 10 minutes signs in again and comes back, not an error page.
    if (made.refusal.error === 'insufficient_user_authentication') return ctx.reply.redirect(reauthPath(ctx, '/api-keys?reauthed=1'), 303);
    return apiKeysPage(deps, ctx, refusalNotice(made.refusal), typed);
  }
  if (made.value === null) return apiKeysPage(deps, ctx, { error: error ?? 'The key could not be made.', status: 422 }, typed);
  return secretPage(ctx, 'Your new key', made.value.key, made.value.secret);
}
