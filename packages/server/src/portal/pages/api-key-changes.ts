import { html } from '../../platform/pages/html.js';
import { csrfInput } from '../../platform/pages/csrf.js';
import { text, type FormBody } from '../../platform/pages/forms.js';
import { formatTime } from '../../platform/format.js';
import { Value } from '@sinclair/typebox/value';
import { MAX_KEY_NAME_LENGTH } from '../../end-user-keys/limits.js';
import { RenameInBody } from '../../end-user-keys/schemas.js';
import type { KeyOut } from '../../end-user-keys/service.js';
import type { PortalContext, PortalDeps } from '../context.js';
import { keyCaller, reauthPath, refusalNotice, signInRecent, throughAccountRules } from '../api-keys-access.js';
import { apiKeysPage, secretPage } from './api-keys.js';

// Rename, roll and revoke of one of a person's own keys, and revoke all (spec 3, 4.5): each a
// page that asks, and a form post that goes through the account API's rules.

/** The person's listed keys, read through the account API's rules (a GET counts as a request). */
async function listed(deps: PortalDeps, ctx: PortalContext) {
  const caller = await keyCaller(deps, ctx);
  return throughAccountRules(deps, caller, ctx.tenant.api.id, { change: false, stepUp: false }, async () => ({ ok: true as const, value: (await deps.endUserKeys.list(ctx.tenant, caller)).keys }));
}

/** One of the person's listed keys; else the keys page answered, saying why. */
async function keyOf(deps: PortalDeps, ctx: PortalContext, keyId: string): Promise<KeyOut | null> {
  const keys = await listed(deps, ctx);
  if (!keys.ok) {
    await apiKeysPage(deps, ctx, refusalNotice(keys.refusal));
    return null;
  }
  const key = keys.value.find((k) => k.id === keyId);
  if (!key) await noSuchKey(deps, ctx);
  return key ?? null;
}

const noSuchKey = (deps: PortalDeps, ctx: PortalContext) => apiKeysPage(deps, ctx, { error: 'No such key: it may have been revoked already.', status: 404 });
const backToKeys = (ctx: PortalContext, done: 'renamed' | 'revoked' | 'revoked-all') => ctx.reply.redirect(`/api-keys?done=${done}`, 303);

export async function renamePage(deps: PortalDeps, ctx: PortalContext, keyId: string, error: string | null = null) {
  const key = await keyOf(deps, ctx, keyId);
  if (!key) return ctx.reply;
  return ctx.page({
    title: 'Rename a key',
    active: '/api-keys',
    status: error ? 422 : 200,
    body: html`<h1>Rename ${key.name}</h1>${error ? html`<p class="error" role="alert">${error}</p>` : ''}
<form method="post" action="/api-keys/${key.id}/rename" class="row">${csrfInput(ctx.csrf)}
<div><label for="key-name">New name</label><input type="text" id="key-name" name="name" maxlength="${MAX_KEY_NAME_LENGTH}" required value="${key.name}"></div>
<button type="submit" id="save-name">Save</button><a href="/api-keys" class="cancel">Cancel</a></form>`,
  });
}

export async function renameApiKey(deps: PortalDeps, ctx: PortalContext, body: FormBody, keyId: string) {
  const name = text(body, 'name').trim();
  if (!Value.Check(RenameInBody, { name })) return renamePage(deps, ctx, keyId, `Name the key (1 to ${MAX_KEY_NAME_LENGTH} characters).`);
  const caller = await keyCaller(deps, ctx);
  const renamed = await throughAccountRules(deps, caller, ctx.tenant.api.id, { change: true, stepUp: false }, () => deps.endUserKeys.rename(ctx.tenant, caller, keyId, name));
  if (!renamed.ok) return apiKeysPage(deps, ctx, refusalNotice(renamed.refusal));
  return backToKeys(ctx, 'renamed');
}

const GRACE_CHOICES = [
  { hours: 0, label: 'End it now (servers refuse it within 30 seconds)' },
  { hours: 1, label: 'Keep it working 1 more hour' },
  { hours: 24, label: 'Keep it working 24 more hours' },
] as const;

export async function rollPage(deps: PortalDeps, ctx: PortalContext, keyId: string) {
  const key = await keyOf(deps, ctx, keyId);
  if (!key) return ctx.reply;
  if (key.status === 'expired') return apiKeysPage(deps, ctx, { error: 'This key has expired and cannot be rolled: create a new key instead.', status: 409 });
  const reauthed = (ctx.request.query as Record<string, unknown>).reauthed === '1';
  return ctx.page({
    title: 'Roll a key',
    active: '/api-keys',
    body: html`<h1>Roll ${key.name}</h1>
${reauthed ? html`<p class="ok" role="status">You signed in again: you can roll the key now.</p>` : ''}
<p>Rolling gives <code>${key.start}…</code> a new secret with the same name, servers, permissions and expiry. Move what uses the key over to the new secret.</p>
${signInRecent(deps, ctx) ? '' : html`<p class="note" id="reauth-note">Rolling a key needs a sign-in within the last 10 minutes: you will be asked for your password first, then come back here.</p>`}
<form method="post" action="/api-keys/${key.id}/roll" class="stack">${csrfInput(ctx.csrf)}
<fieldset><legend>The old secret</legend>${GRACE_CHOICES.map((c) => html`<label class="check"><input type="radio" name="old_secret_lasts_hours" value="${c.hours}" id="grace-${c.hours}"${c.hours === 1 ? html` checked` : ''}> ${c.label}</label>`)}</fieldset>
<div class="actions"><button type="submit" id="confirm-roll">Roll key</button><a href="/api-keys">Cancel</a></div></form>`,
  });
}

export async function rollApiKey(deps: PortalDeps, ctx: PortalContext, body: FormBody, keyId: string) {
  const choice = GRACE_CHOICES.find((c) => String(c.hours) === text(body, 'old_secret_lasts_hours'));
  const caller = await keyCaller(deps, ctx);
  const rolled = await throughAccountRules<{ key: KeyOut; secret: string } | null>(deps, caller, ctx.tenant.api.id, { change: true, stepUp: true }, async () =>
    choice ? deps.endUserKeys.roll(ctx.tenant, { caller, ip: ctx.request.ip }, keyId, choice.hours) : { ok: true as const, value: null },
  );
  if (!rolled.ok) {
    if (rolled.refusal.error === 'insufficient_user_authentication') return ctx.reply.redirect(reauthPath(ctx, `/api-keys/${keyId}/roll?reauthed=1`), 303);
    return apiKeysPage(deps, ctx, refusalNotice(rolled.refusal));
  }
  if (rolled.value === null) return apiKeysPage(deps, ctx, { error: 'Choose how long the old secret keeps working: 0, 1 or 24 hours.', status: 422 });
  const { key, secret } = rolled.value;
  const oldEnds = key.previous_secret_expires_at
    ? html`<p class="note" id="old-secret-ends">The old secret keeps working until ${formatTime(new Date(key.previous_secret_expires_at))}.</p>`
    : html`<p class="note" id="old-secret-ends">The old secret has ended: servers refuse it within 30 seconds.</p>`;
  return secretPage(ctx, 'Your new secret', key, secret, oldEnds);
}

export async function revokePage(deps: PortalDeps, ctx: PortalContext, keyId: string) {
  const key = await keyOf(deps, ctx, keyId);
  if (!key) return ctx.reply;
  return ctx.page({
    title: 'Revoke a key',
    active: '/api-keys',
    body: html`<h1>Revoke ${key.name}?</h1><p>Servers refuse <code>${key.start}…</code> within 30 seconds. This cannot be undone.</p>
<form method="post" action="/api-keys/${key.id}/revoke" class="row">${csrfInput(ctx.csrf)}<button type="submit" class="danger" id="confirm-revoke">Revoke key</button><a href="/api-keys" class="cancel">Keep it</a></form>`,
  });
}

export async function revokeApiKey(deps: PortalDeps, ctx: PortalContext, keyId: string) {
  const caller = await keyCaller(deps, ctx);
  const revoked = await throughAccountRules(deps, caller, ctx.tenant.api.id, { change: true, stepUp: false }, () => deps.endUserKeys.revoke(ctx.tenant, { caller, ip: ctx.request.ip }, keyId));
  if (!revoked.ok) return apiKeysPage(deps, ctx, refusalNotice(revoked.refusal));
  return backToKeys(ctx, 'revoked');
}

export async function revokeAllPage(deps: PortalDeps, ctx: PortalContext) {
  const keys = await listed(deps, ctx);
  if (!keys.ok) return apiKeysPage(deps, ctx, refusalNotice(keys.refusal));
  return ctx.page({
    title: 'Revoke all keys',
    active: '/api-keys',
    body: html`<h1>Revoke all ${keys.value.length} of your keys?</h1><p>Servers refuse every one of them within 30 seconds. This cannot be undone.</p>
<form method="post" action="/api-keys/revoke-all" class="row">${csrfInput(ctx.csrf)}<button type="submit" class="danger" id="confirm-revoke-all">Revoke all keys</button><a href="/api-keys" class="cancel">Keep them</a></form>`,
  });
}

export async function revokeAllApiKeys(deps: PortalDeps, ctx: PortalContext) {
  const caller = await keyCaller(deps, ctx);
  const done = await throughAccountRules(deps, caller, ctx.tenant.api.id, { change: true, stepUp: false }, async () => {
    await deps.endUserKeys.revokeAll(ctx.tenant, { caller, ip: ctx.request.ip });
    return { ok: true as const, value: null };
  });
  if (!done.ok) return apiKeysPage(deps, ctx, refusalNotice(done.refusal));
  return backToKeys(ctx, 'revoked-all');
}
