import type { Selectable } from 'kysely';
import type { PlatformPlans } from '../apis/platform-plans.js';
import type { Actor, AuditService } from '../audit/service.js';
import type { Tenant } from '../issuer/tenant.js';
import { findApp, heldPermissionsByServer, serversWithPermissions } from '../issuer/registry/lookups.js';
import type { Clock } from '../platform/clock.js';
import { addMs, HOUR } from '../platform/clock.js';
import type { Db, Trx } from '../platform/db/database.js';
import { newId } from '../platform/ids.js';
import type { MailOutbox } from '../platform/mail/outbox.js';
import type { AccountCaller } from './account-auth.js';
import { accepted, fieldRefused, KeyApiError, keyNotFound, refused, tooManyRequests, type KeyOutcome } from './errors.js';
import { newKeySecret } from './key-secret.js';
import { MAX_ACTIVE_KEYS, MAX_NEW_KEYS_PER_DAY, MAX_PERMISSIONS_PER_KEY, MAX_SERVERS_PER_KEY, NEW_KEYS_WINDOW_MS } from './limits.js';
import { raiseEndUserKeyEvents } from './events.js';
import * as mails from './mails.js';
import * as q from './queries.js';
import { expiryOf, grantablePermissions, keyState, keysUsable, lifetimeRule } from './rules.js';
import type { EndUserKeysTable } from './tables.js';

/**
 * The portal's keys page, on the tenant host (docs/decisions.md): mails link there. The portal's
 * `/keys` is the page of customer keys; people's own keys get a page of their own.
 */
export const KEYS_PAGE_PATH = '/api-keys';

type KeyRow = Selectable<EndUserKeysTable>;
type Servers = Awaited<ReturnType<typeof serversWithPermissions>>;

export interface NewKeyInput {
  name: string;
  resources: string[];
  permissions: string[];
  expires_in_days?: number | null;
}

/** Who asks, and from where: the caller of the account API and the request's address. */
export interface KeyRequester {
  caller: AccountCaller;
  ip: string;
}

export type KeyOut = ReturnType<typeof toKeyOut>;

/** A key as the account API shows it (spec 2.7): never its secret nor its hash. */
function toKeyOut(key: KeyRow, servers: Servers, usable: boolean, now: Date) {
  const urls = new Map(servers.map((s) => [s.id, s.resource_url]));
  const state = keyState(key, now);
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    start: key.start,
    resources: key.server_ids.flatMap((id) => (urls.has(id) ? [urls.get(id)!] : [])),
    permissions: key.permissions,
    // inactive: the service does not let keys work now (keys off, paused, plan); the key is kept.
    status: state === 'expired' ? ('expired' as const) : usable ? ('active' as const) : ('inactive' as const),
    created_at: key.created_at.toISOString(),
    expires_at: key.expires_at?.toISOString() ?? null,
    last_used_at: key.last_used_at?.toISOString() ?? null,
    created_in: key.created_in_app_name,
    ...(key.previous_secret_expires_at && key.previous_secret_expires_at > now ? { previous_secret_expires_at: key.previous_secret_expires_at.toISOString() } : {}),
  };
}

const personActor = (person: { id: string; email: string }, ip: string): Actor => ({ type: 'person', id: person.id, name: person.email, ip });

/**
 * End-user API keys (spec 2.7, 3, 4.5): what a person may put on a key, their keys, and every
 * change of one. The account API's routes call this; introspection reads keys through
 * `introspection.ts`.
 */
export class EndUserKeys {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly audit: AuditService,
    private readonly outbox: MailOutbox,
    private readonly platformPlans: PlatformPlans,
  ) {}

  /** Whether the service lets keys work now (spec 3, 5.6). */
  usable(tenant: Tenant): boolean {
    return keysUsable(tenant.api, tenant.settings, this.platformPlans.get(tenant.api.platform_plan).end_user_keys === true);
  }

  /** What the person can put on a key: servers with the permissions they may carry, and lifetimes. */
  async options(tenant: Tenant, caller: AccountCaller) {
    const { settings } = tenant;
    const [servers, held] = await Promise.all([serversWithPermissions(this.db, tenant.api.id), heldPermissionsByServer(this.db, tenant.api.id, caller.personId)]);
    const rule = lifetimeRule(settings.key_max_lifetime_days);
    return {
      enabled: this.usable(tenant),
      prefix: settings.key_prefix,
      servers: servers.map((server) => {
        const grantable = new Set(grantablePermissions(server.permissions, held.get(server.id) ?? new Set(), settings.sensitive_permissions_allowed));
        return {
          resource: server.resource_url,
          name: server.name,
          permissions: server.permissions.filter((p) => grantable.has(p.name)).map((p) => ({ name: p.name, description: p.description, sensitive: p.sensitive })),
        };
      }),
      max_lifetime_days: rule.maxDays,
      default_lifetime_days: rule.defaultDays,
      allow_no_expiry: rule.allowNoExpiry,
      max_servers_per_key: MAX_SERVERS_PER_KEY,
      max_permissions_per_key: MAX_PERMISSIONS_PER_KEY,
    };
  }

  async list(tenant: Tenant, caller: AccountCaller) {
    const [keys, servers] = await Promise.all([q.listKeys(this.db, tenant.api.id, caller.personId), serversWithPermissions(this.db, tenant.api.id)]);
    const usable = this.usable(tenant);
    const now = this.clock.now();
    return { keys: keys.map((key) => toKeyOut(key, servers, usable, now)) };
  }

  /** Creates a key (spec 4.5): 201 with the key and its whole secret, shown this once. */
  async create(tenant: Tenant, { caller, ip }: KeyRequester, input: NewKeyInput): Promise<KeyOutcome<{ key: KeyOut; secret: string }>> {
    const apiId = tenant.api.id;
    if (!this.usable(tenant)) return refused(new KeyApiError('access_denied', 'API keys are not available for this service now', 403));
    const [servers, held] = await Promise.all([serversWithPermissions(this.db, apiId), heldPermissionsByServer(this.db, apiId, caller.personId)]);
    const chosen = chosenServers(servers, input.resources);
    if (typeof chosen === 'string') return refused(fieldRefused('resources', chosen));
    const refusedPermission = input.permissions.find(
      (name) => !chosen.some((server) => grantablePermissions(server.permissions, held.get(server.id) ?? new Set(), tenant.settings.sensitive_permissions_allowed).includes(name)),
    );
    if (refusedPermission !== undefined) return refused(fieldRefused('permissions', `holds ${refusedPermission.slice(0, 64)}, which you cannot put on a key for these servers`));
    const now = this.clock.now();
    const expiry = expiryOf(input.expires_in_days, lifetimeRule(tenant.settings.key_max_lifetime_days), now);
    if (typeof expiry === 'string') return refused(fieldRefused('expires_in_days', expiry));
    const appName = (await findApp(this.db, apiId, caller.clientId))?.name ?? caller.clientId;
    const prefix = tenant.settings.key_prefix;
    const secret = newKeySecret(prefix);

    const outcome = await this.db.transaction().execute(async (trx): Promise<KeyOutcome<KeyRow>> => {
      const person = await q.lockPerson(trx, apiId, caller.personId);
      // The token was checked a moment ago; a person deleted since has no keys to make.
      if (!person) return refused(new KeyApiError('invalid_token', 'The access token is not active here', 401));
      const limit = await this.#limits(trx, apiId, caller.personId, now);
      if (limit) return refused(limit);
      const key = await q.insertKey(trx, {
        id: newId('key'),
        api_id: apiId,
        person_id: caller.personId,
        name: input.name.trim(),
        prefix,
        start: secret.start,
        secret_hash: secret.hash,
        previous_secret_hash: null,
        previous_secret_expires_at: null,
        server_ids: chosen.map((server) => server.id),
        permissions: input.permissions,
        expires_at: expiry.expiresAt,
        created_in_client_id: caller.clientId,
        created_in_app_name: appName,
        created_at: now,
        updated_at: now,
        last_used_at: null,
        revoked_at: null,
        expiry_reminded_at: null,
      });
      await raiseEndUserKeyEvents(trx, apiId, now, 'key.created', [key]);
      await this.#record(trx, tenant, personActor(person, ip), 'end_user_key.create', key, `${person.email} created the API key ${key.name} (${key.start}…) in ${appName}`, {
        app: { client_id: caller.clientId, name: appName },
        resources: input.resources,
        permissions: input.permissions,
        expires_at: key.expires_at?.toISOString() ?? null,
      });
      await this.outbox.enqueue(trx, mails.newKey(person.email, tenant.api.name, { name: key.name, start: key.start, appName, createdAt: now }, tenant.issuer + KEYS_PAGE_PATH));
      return accepted(key);
    });
    if (!outcome.ok) return outcome;
    this.outbox.kick();
    return accepted({ key: toKeyOut(outcome.value, servers, true, now), secret: secret.secret });
  }

  /** Spec 8: 25 active keys (409), 20 new keys in any 24 hours (429 until the oldest leaves the window). */
  async #limits(trx: Trx, apiId: string, personId: string, now: Date): Promise<KeyApiError | null> {
    if ((await q.countActiveKeys(trx, apiId, personId, now)) >= MAX_ACTIVE_KEYS) {
      return new KeyApiError('key_limit', `You have ${MAX_ACTIVE_KEYS} active keys; revoke one first`, 409);
    }
    const recent = await q.keysCreatedSince(trx, apiId, personId, addMs(now, -NEW_KEYS_WINDOW_MS));
    if (recent.length >= MAX_NEW_KEYS_PER_DAY) {
      const frees = recent[recent.length - MAX_NEW_KEYS_PER_DAY]!.created_at.getTime() + NEW_KEYS_WINDOW_MS;
      return tooManyRequests(`At most ${MAX_NEW_KEYS_PER_DAY} new keys a day`, Math.max(1, Math.ceil((frees - now.getTime()) / 1000)));
    }
    return null;
  }

  async rename(tenant: Tenant, caller: AccountCaller, keyId: string, name: string): Promise<KeyOutcome<KeyOut>> {
    const now = this.clock.now();
    const outcome = await this.db.transaction().execute(async (trx): Promise<KeyOutcome<KeyRow>> => {
      const key = await q.findKeyForChange(trx, tenant.api.id, caller.personId, keyId);
      if (!key) return refused(keyNotFound());
      return accepted(await q.updateKey(trx, tenant.api.id, keyId, { name: name.trim(), updated_at: now }));
    });
    if (!outcome.ok) return outcome;
    return accepted(toKeyOut(outcome.value, await serversWithPermissions(this.db, tenant.api.id), this.usable(tenant), now));
  }

  /**
   * A new secret with the same settings (spec 3). The old secret ends now (0) or keeps working 1
   * or 24 hours; a key never has more than two secrets, so a secret older than the current one
   * ends at once. An expired key cannot be rolled.
   */
  async roll(tenant: Tenant, { caller, ip }: KeyRequester, keyId: string, oldSecretLastsHours: number): Promise<KeyOutcome<{ key: KeyOut; secret: string }>> {
    if (!this.usable(tenant)) return refused(new KeyApiError('access_denied', 'API keys are not available for this service now', 403));
    const now = this.clock.now();
    const outcome = await this.db.transaction().execute(async (trx): Promise<KeyOutcome<{ key: KeyRow; secret: string }>> => {
      const key = await q.findKeyForChange(trx, tenant.api.id, caller.personId, keyId);
      if (!key) return refused(keyNotFound());
      if (keyState(key, now) === 'expired') return refused(new KeyApiError('key_expired', 'An expired key cannot be rolled; create a new one', 409));
      const secret = newKeySecret(key.prefix);
      const keepOld = oldSecretLastsHours > 0;
      const rolled = await q.updateKey(trx, tenant.api.id, keyId, {
        secret_hash: secret.hash,
        start: secret.start,
        previous_secret_hash: keepOld ? key.secret_hash : null,
        previous_secret_expires_at: keepOld ? addMs(now, oldSecretLastsHours * HOUR) : null,
        updated_at: now,
      });
      const person = await q.findPersonContact(trx, tenant.api.id, caller.personId);
      await this.#record(trx, tenant, personActor(person ?? { id: caller.personId, email: caller.personId }, ip), 'end_user_key.roll', rolled,
        `${person?.email ?? caller.personId} rolled the API key ${key.name} (${key.start}… is now ${rolled.start}…)${keepOld ? `; the old secret works ${oldSecretLastsHours} more hours` : ''}`,
        { previous_start: key.start, old_secret_lasts_hours: oldSecretLastsHours, app: { client_id: caller.clientId } });
      return accepted({ key: rolled, secret: secret.secret });
    });
    if (!outcome.ok) return outcome;
    const servers = await serversWithPermissions(this.db, tenant.api.id);
    return accepted({ key: toKeyOut(outcome.value.key, servers, true, now), secret: outcome.value.secret });
  }

  /** Revokes one key: it leaves the list at once and answers inactive at its next check (spec 3). */
  async revoke(tenant: Tenant, { caller, ip }: KeyRequester, keyId: string): Promise<KeyOutcome<null>> {
    const now = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const key = await q.findKeyForChange(trx, tenant.api.id, caller.personId, keyId);
      if (!key) return refused(keyNotFound());
      const revoked = await q.updateKey(trx, tenant.api.id, keyId, { revoked_at: now, updated_at: now });
      await raiseEndUserKeyEvents(trx, tenant.api.id, now, 'key.revoked', [revoked]);
      const person = await q.findPersonContact(trx, tenant.api.id, caller.personId);
      await this.#record(trx, tenant, personActor(person ?? { id: caller.personId, email: caller.personId }, ip), 'end_user_key.revoke', revoked,
        `${person?.email ?? caller.personId} revoked the API key ${key.name} (${key.start}…)`, { app: { client_id: caller.clientId } });
      return accepted(null);
    });
  }

  /** Revokes every key of the person (spec 3 "revoke all"). */
  async revokeAll(tenant: Tenant, { caller, ip }: KeyRequester): Promise<void> {
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const revoked = await q.revokeAllKeys(trx, tenant.api.id, caller.personId, now);
      if (revoked.length === 0) return;
      await raiseEndUserKeyEvents(trx, tenant.api.id, now, 'key.revoked', revoked);
      const person = await q.findPersonContact(trx, tenant.api.id, caller.personId);
      const email = person?.email ?? caller.personId;
      await this.audit.record(trx, personActor(person ?? { id: caller.personId, email }, ip), {
        workspaceId: tenant.api.workspace_id,
        api: { id: tenant.api.id, name: tenant.api.name },
        action: 'end_user_key.revoke_all',
        target: { type: 'signin_person', id: caller.personId },
        summary: `${email} revoked all ${revoked.length} of their API keys`,
        details: { keys: revoked.map((key) => ({ id: key.id, start: key.start })), app: { client_id: caller.clientId } },
      });
    });
  }

  /** The audit event of one key's change: its id and start, never the key (spec 6). */
  #record(trx: Trx, tenant: Tenant, actor: Actor, action: string, key: KeyRow, summary: string, details: Record<string, unknown>) {
    return this.audit.record(trx, actor, {
      workspaceId: tenant.api.workspace_id,
      api: { id: tenant.api.id, name: tenant.api.name },
      action,
      target: { type: 'end_user_key', id: key.id },
      summary,
      details: { key_id: key.id, start: key.start, person_id: key.person_id, ...details },
    });
  }
}

/** The servers a new key names, by their resource URLs exactly as registered (RFC 8707). */
function chosenServers(servers: Servers, resources: string[]): Servers | string {
  const byUrl = new Map(servers.map((server) => [server.resource_url, server]));
  const unknown = resources.find((url) => !byUrl.has(url));
  if (unknown !== undefined) return `names ${unknown.slice(0, 200)}, which is not a server of this service`;
  return resources.map((url) => byUrl.get(url)!);
}
