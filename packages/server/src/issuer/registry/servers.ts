import type { Selectable } from 'kysely';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { Caller } from '../../console/caller.js';
import { addMs } from '../../platform/clock.js';
import { sha256Hex } from '../../platform/crypto.js';
import type { Trx } from '../../platform/db/database.js';
import { fail, ok, Problem, type ErrorDetail, type Result } from '../../platform/errors.js';
import { newId, randomBase62 } from '../../platform/ids.js';
import { clientIdStart, newClientSecret, recordChange, SECRET_OVERLAP_MS, type RegistryDeps } from './common.js';
import { RESERVED_SCOPES } from '../protocol/scopes.js';
import * as q from './queries.js';
import { resourceUrlProblem } from './redirect-uris.js';
import type { ResourceServersTable } from './tables.js';

export interface PermissionIn {
  name: string;
  description?: string;
  sensitive?: boolean;
}
export interface ServerChanges {
  name?: string;
  resource_url?: string;
  permissions?: PermissionIn[];
  requests_per_minute?: number | null;
}
export interface NewServer extends ServerChanges {
  name: string;
  resource_url: string;
}

type PermissionRow = Awaited<ReturnType<typeof q.permissionsOfServers>>[number];
export type ServerOut = ReturnType<typeof toServerOut>;

function toServerOut(server: Selectable<ResourceServersTable>, permissions: PermissionRow[], now: Date) {
  return {
    id: server.id,
    name: server.name,
    resource_url: server.resource_url,
    client_id: server.client_id,
    permissions: permissions.filter((p) => p.server_id === server.id).map((p) => ({ name: p.name, description: p.description, sensitive: p.sensitive })),
    requests_per_minute: server.requests_per_minute,
    created_at: server.created_at.toISOString(),
    ...(server.previous_secret_valid_until && server.previous_secret_valid_until > now ? { previous_secret_valid_until: server.previous_secret_valid_until.toISOString() } : {}),
  };
}

/** Problems of the input that the schema cannot see: the URL's form, reserved and repeated names. */
function inputErrors(changes: ServerChanges): ErrorDetail[] {
  const errors: ErrorDetail[] = [];
  if (changes.resource_url !== undefined) {
    const problem = resourceUrlProblem(changes.resource_url);
    if (problem) errors.push({ location: 'body.resource_url', message: problem, value: changes.resource_url });
  }
  const seen = new Set<string>();
  (changes.permissions ?? []).forEach((permission, index) => {
    const location = `body.permissions.${index}.name`;
    if (RESERVED_SCOPES.has(permission.name)) errors.push({ location, message: `${permission.name} is a reserved scope name`, value: permission.name });
    else if (seen.has(permission.name)) errors.push({ location, message: 'is listed twice', value: permission.name });
    seen.add(permission.name);
  });
  return errors;
}

const permissionRows = (permissions: PermissionIn[]) => permissions.map((p) => ({ name: p.name, description: p.description ?? '', sensitive: p.sensitive ?? false }));

/**
 * APIs and MCP servers access tokens are for (RFC 8707 resources), each with the permissions it
 * exposes and its own credentials for introspection (spec 2.7, 5.5).
 */
export class ServerRegistry {
  constructor(private readonly deps: RegistryDeps) {}

  async list(caller: Caller, apiId: string) {
    await this.deps.apis.access(caller, apiId, 'viewer');
    const servers = await q.serversOf(this.deps.db, apiId);
    const permissions = await q.permissionsOfServers(this.deps.db, apiId, servers.map((s) => s.id));
    const now = this.deps.clock.now();
    return servers.map((server) => toServerOut(server, permissions, now));
  }

  async get(caller: Caller, apiId: string, serverId: string) {
    await this.deps.apis.access(caller, apiId, 'viewer');
    const server = await q.findServer(this.deps.db, apiId, serverId);
    if (!server) throw new Problem('not_found', 'No such server');
    return toServerOut(server, await q.permissionsOfServers(this.deps.db, apiId, [serverId]), this.deps.clock.now());
  }

  async create(caller: Caller, apiId: string, input: NewServer): Promise<Result<ServerOut & { client_secret: string }>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    const errors = inputErrors(input);
    if (errors.length > 0) return fail('validation', errors.map((e) => `${e.location} ${e.message}`).join('; '), errors);
    const secret = newClientSecret();
    return this.#resourceTaken(input.resource_url, () =>
      this.deps.db.transaction().execute(async (trx) => {
        const now = this.deps.clock.now();
        const server = await q.insertServer(trx, {
          id: newId('srv'),
          api_id: apiId,
          name: input.name.trim(),
          resource_url: input.resource_url,
          client_id: `rs_${randomBase62(20)}`,
          secret_hash: sha256Hex(secret),
          previous_secret_hash: null,
          previous_secret_valid_until: null,
          requests_per_minute: input.requests_per_minute ?? null,
          created_at: now,
          updated_at: now,
        });
        await q.replacePermissions(trx, apiId, server.id, permissionRows(input.permissions ?? []));
        await recordChange(this.deps, trx, caller, api, {
          action: 'signin_server.create',
          target: { type: 'signin_server', id: server.id },
          summary: `Added the server ${server.name} (${server.resource_url}) with client id ${clientIdStart(server.client_id)}`,
          details: { resource_url: server.resource_url, client_id_start: clientIdStart(server.client_id), permissions: (input.permissions ?? []).map((p) => p.name), requests_per_minute: server.requests_per_minute },
        });
        return ok({ ...(await this.#out(trx, server, now)), client_secret: secret });
      }),
    );
  }

  /** Changes a server; a permission list given replaces the old one (roles lose removed permissions). */
  async update(caller: Caller, apiId: string, serverId: string, changes: ServerChanges): Promise<Result<ServerOut>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    const errors = inputErrors(changes);
    if (errors.length > 0) return fail('validation', errors.map((e) => `${e.location} ${e.message}`).join('; '), errors);
    return this.#resourceTaken(changes.resource_url ?? '', () =>
      this.deps.db.transaction().execute(async (trx) => {
        const before = await q.findServer(trx, apiId, serverId);
        if (!before) throw new Problem('not_found', 'No such server');
        const now = this.deps.clock.now();
        if (Object.keys(changes).length === 0) return ok(await this.#out(trx, before, now));
        const { permissions, ...fields } = changes;
        const server = await q.updateServer(trx, apiId, serverId, { ...fields, ...(fields.name !== undefined ? { name: fields.name.trim() } : {}), updated_at: now });
        const previous = (await q.permissionsOfServers(trx, apiId, [serverId])).map((p) => p.name);
        if (permissions) await q.replacePermissions(trx, apiId, serverId, permissionRows(permissions));
        const names = permissions?.map((p) => p.name);
        await recordChange(this.deps, trx, caller, api, {
          action: 'signin_server.update',
          target: { type: 'signin_server', id: serverId },
          summary: `Changed ${Object.keys(changes).join(', ')} of the server ${server.name}`,
          details: {
            changes: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { from: before[k as keyof typeof before], to: v }])),
            ...(names ? { permissions_added: names.filter((n) => !previous.includes(n)), permissions_removed: previous.filter((n) => !names.includes(n)) } : {}),
          },
        });
        return ok(await this.#out(trx, server, now));
      }),
    );
  }

  /** Deletes a server; its permissions leave every role (foreign keys). */
  async remove(caller: Caller, apiId: string, serverId: string): Promise<void> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    await this.deps.db.transaction().execute(async (trx) => {
      const server = await q.findServer(trx, apiId, serverId);
      if (!server) throw new Problem('not_found', 'No such server');
      await q.deleteServer(trx, apiId, serverId);
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_server.delete',
        target: { type: 'signin_server', id: serverId },
        summary: `Deleted the server ${server.name} (${server.resource_url})`,
        details: { resource_url: server.resource_url, client_id_start: clientIdStart(server.client_id) },
      });
    });
  }

  /** A new server secret (admins); spec 5.5: the old one keeps working 24 hours. */
  async rotateSecret(caller: Caller, apiId: string, serverId: string): Promise<ServerOut & { client_secret: string }> {
    const { api } = await this.deps.apis.access(caller, apiId, 'admin');
    const secret = newClientSecret();
    return this.deps.db.transaction().execute(async (trx) => {
      const before = await q.findServer(trx, apiId, serverId);
      if (!before) throw new Problem('not_found', 'No such server');
      const now = this.deps.clock.now();
      const validUntil = addMs(now, SECRET_OVERLAP_MS);
      const server = await q.updateServer(trx, apiId, serverId, { secret_hash: sha256Hex(secret), previous_secret_hash: before.secret_hash, previous_secret_valid_until: validUntil, updated_at: now });
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_server.secret_rotate',
        target: { type: 'signin_server', id: serverId },
        summary: `Rotated the secret of the server ${server.name} (client id ${clientIdStart(server.client_id)}); the old one works until ${validUntil.toISOString()}`,
        details: { client_id_start: clientIdStart(server.client_id), previous_secret_valid_until: validUntil.toISOString() },
      });
      return { ...(await this.#out(trx, server, now)), client_secret: secret };
    });
  }

  async #out(trx: Trx, server: Selectable<ResourceServersTable>, now: Date) {
    return toServerOut(server, await q.permissionsOfServers(trx, server.api_id, [server.id]), now);
  }

  /** A resource URL is unique per API: two servers racing for one answer 409 rather than 500. */
  async #resourceTaken<T>(resourceUrl: string, work: () => Promise<Result<T>>): Promise<Result<T>> {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error, 'resource_servers_api_id_resource_url_key')) throw error;
      return fail('resource_taken', `A server of this API already has the resource URL ${resourceUrl}`, [{ location: 'body.resource_url', message: 'is taken by another server of this API', value: resourceUrl }]);
    }
  }
}
