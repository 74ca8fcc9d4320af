import type { Selectable } from 'kysely';
import type { Caller } from '../../console/caller.js';
import { addMs } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto.js';
import { fail, ok, Problem, type ErrorDetail, type Result } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { newClientSecret, recordChange, SECRET_OVERLAP_MS, type RegistryDeps } from './common.js';
import * as q from './queries.js';
import { redirectUriProblem } from './redirect-uris.js';
import type { AppKind, OauthAppsTable } from './tables.js';

export interface AppChanges {
  name?: string;
  redirect_uris?: string[];
  post_logout_redirect_uris?: string[];
  refresh_tokens?: boolean;
  own_app?: boolean;
}
export interface NewApp extends AppChanges {
  name: string;
  kind: AppKind;
  redirect_uris: string[];
}

export type AppOut = ReturnType<typeof toAppOut>;

function toAppOut(app: Selectable<OauthAppsTable>, now: Date) {
  return {
    id: app.id,
    name: app.name,
    kind: app.kind,
    origin: app.origin,
    redirect_uris: app.redirect_uris,
    post_logout_redirect_uris: app.post_logout_redirect_uris,
    refresh_tokens: app.refresh_tokens,
    own_app: app.own_app,
    blocked: app.blocked,
    has_secret: app.secret_hash !== null,
    created_at: app.created_at.toISOString(),
    ...(app.previous_secret_valid_until && app.previous_secret_valid_until > now ? { previous_secret_valid_until: app.previous_secret_valid_until.toISOString() } : {}),
    ...(app.last_used_at ? { last_used_at: app.last_used_at.toISOString() } : {}),
  };
}

/** Every redirect and sign-out URI that an app of this kind cannot use, named by its place in the body. */
function uriErrors(kind: AppKind, changes: AppChanges): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  for (const field of ['redirect_uris', 'post_logout_redirect_uris'] as const) {
    (changes[field] ?? []).forEach((uri, index) => {
      const problem = redirectUriProblem(uri, kind);
      if (problem) errors.push({ location: `body.${field}.${index}`, message: problem, value: uri });
    });
  }
  return errors;
}

/**
 * Applications that sign people in with the API's sign-in service (DESIGN 8), made by the owner.
 * Web apps are confidential clients with a secret shown once; single-page and native apps are
 * public clients (spec 5.4) and have none.
 */
export class AppRegistry {
  constructor(private readonly deps: RegistryDeps) {}

  async list(caller: Caller, apiId: string) {
    await this.deps.apis.access(caller, apiId, 'viewer');
    const now = this.deps.clock.now();
    return (await q.ownerApps(this.deps.db, apiId)).map((app) => toAppOut(app, now));
  }

  async get(caller: Caller, apiId: string, appId: string) {
    await this.deps.apis.access(caller, apiId, 'viewer');
    const app = await q.findOwnerApp(this.deps.db, apiId, appId);
    if (!app) throw new Problem('not_found', 'No such app');
    return toAppOut(app, this.deps.clock.now());
  }

  async create(caller: Caller, apiId: string, input: NewApp): Promise<Result<AppOut & { client_secret?: string }>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    const errors = uriErrors(input.kind, input);
    if (errors.length > 0) return fail('validation', errors.map((e) => `${e.location} ${e.message}`).join('; '), errors);
    const secret = input.kind === 'web' ? newClientSecret() : null;
    return this.deps.db.transaction().execute(async (trx) => {
      const now = this.deps.clock.now();
      const app = await q.insertApp(trx, {
        id: newId('app'),
        api_id: apiId,
        name: input.name.trim(),
        kind: input.kind,
        origin: 'owner',
        redirect_uris: input.redirect_uris,
        post_logout_redirect_uris: input.post_logout_redirect_uris ?? [],
        refresh_tokens: input.refresh_tokens ?? false,
        own_app: input.own_app ?? false,
        secret_hash: secret ? sha256Hex(secret) : null,
        previous_secret_hash: null,
        previous_secret_valid_until: null,
        last_used_at: null,
        created_at: now,
        updated_at: now,
      });
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_app.create',
        target: { type: 'signin_app', id: app.id },
        summary: `Added the ${app.kind} app ${app.name}`,
        details: { kind: app.kind, redirect_uris: app.redirect_uris, post_logout_redirect_uris: app.post_logout_redirect_uris, refresh_tokens: app.refresh_tokens, own_app: app.own_app },
      });
      return ok({ ...toAppOut(app, now), ...(secret ? { client_secret: secret } : {}) });
    });
  }

  async update(caller: Caller, apiId: string, appId: string, changes: AppChanges): Promise<Result<AppOut>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await q.findOwnerApp(trx, apiId, appId);
      if (!before) throw new Problem('not_found', 'No such app');
      const errors = uriErrors(before.kind, changes);
      if (errors.length > 0) return fail<AppOut>('validation', errors.map((e) => `${e.location} ${e.message}`).join('; '), errors);
      const now = this.deps.clock.now();
      const changed = Object.fromEntries(
        Object.entries({ ...changes, ...(changes.name !== undefined ? { name: changes.name.trim() } : {}) })
          .filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key as keyof typeof before])),
      );
      if (Object.keys(changed).length === 0) return ok(toAppOut(before, now));
      const app = await q.updateApp(trx, apiId, appId, { ...changed, updated_at: now });
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_app.update',
        target: { type: 'signin_app', id: appId },
        summary: `Changed ${Object.keys(changed).join(', ')} of the app ${app.name}`,
        details: { changes: Object.fromEntries(Object.entries(changed).map(([k, v]) => [k, { from: before[k as keyof typeof before], to: v }])) },
      });
      return ok(toAppOut(app, now));
    });
  }

  /** Deletes an app; its grants, codes, refresh tokens and consents go with it (foreign keys). */
  async remove(caller: Caller, apiId: string, appId: string): Promise<void> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    await this.deps.db.transaction().execute(async (trx) => {
      const app = await q.findOwnerApp(trx, apiId, appId);
      if (!app) throw new Problem('not_found', 'No such app');
      await q.deleteApp(trx, apiId, appId);
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_app.delete',
        target: { type: 'signin_app', id: appId },
        summary: `Deleted the ${app.kind} app ${app.name}`,
        details: { kind: app.kind },
      });
    });
  }

  /** A new client secret for a web app (admins); the old one keeps working 24 hours. */
  async rotateSecret(caller: Caller, apiId: string, appId: string): Promise<Result<AppOut & { client_secret: string }>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'admin');
    const secret = newClientSecret();
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await q.findOwnerApp(trx, apiId, appId);
      if (!before) throw new Problem('not_found', 'No such app');
      if (before.secret_hash === null) {
        return fail<AppOut & { client_secret: string }>('no_client_secret', `A ${before.kind} app is a public client: it signs people in with PKCE alone and has no secret to rotate`);
      }
      const now = this.deps.clock.now();
      const validUntil = addMs(now, SECRET_OVERLAP_MS);
      const app = await q.updateApp(trx, apiId, appId, { secret_hash: sha256Hex(secret), previous_secret_hash: before.secret_hash, previous_secret_valid_until: validUntil, updated_at: now });
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_app.secret_rotate',
        target: { type: 'signin_app', id: appId },
        summary: `Rotated the client secret of the app ${app.name}; the old one works until ${validUntil.toISOString()}`,
        details: { previous_secret_valid_until: validUntil.toISOString() },
      });
      return ok({ ...toAppOut(app, now), client_secret: secret });
    });
  }
}
