import type { Selectable } from 'kysely';
import { isUniqueViolation } from '../../platform/db/errors.js';
import type { ApiRow } from '../../apis/service.js';
import type { Caller } from '../../console/caller.js';
import type { Trx } from '../../platform/db/database.js';
import { fail, ok, Problem, type ErrorDetail, type Result } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { recordChange, type RegistryDeps } from './common.js';
import * as q from './role-queries.js';
import type { RolePermission } from './role-queries.js';
import type { SigninRolesTable } from './tables.js';

export interface RoleChanges {
  name?: string;
  description?: string;
  permissions?: RolePermission[];
}
export interface NewRole extends RoleChanges {
  name: string;
}

type PermissionRow = Awaited<ReturnType<typeof q.permissionsOfRoles>>[number];
export type RoleOut = ReturnType<typeof toRoleOut>;

function toRoleOut(role: Selectable<SigninRolesTable>, permissions: PermissionRow[], people: number) {
  return {
    id: role.id,
    name: role.name,
    description: role.description,
    permissions: permissions.filter((p) => p.role_id === role.id).map((p) => ({ server_id: p.server_id, permission: p.permission })),
    people,
    created_at: role.created_at.toISOString(),
  };
}

/**
 * Roles of an API's sign-in service: named sets of server permissions given to people. A person's
 * tokens carry the permissions their roles give (spec 4.3 "Permissions the person does not hold
 * are left out").
 */
export class RoleRegistry {
  constructor(private readonly deps: RegistryDeps) {}

  async list(caller: Caller, apiId: string) {
    await this.deps.apis.access(caller, apiId, 'viewer');
    const roles = await q.rolesOf(this.deps.db, apiId);
    const permissions = await q.permissionsOfRoles(this.deps.db, apiId, roles.map((r) => r.id));
    const people = await q.holderCounts(this.deps.db, apiId);
    return roles.map((role) => toRoleOut(role, permissions, people.get(role.id) ?? 0));
  }

  async create(caller: Caller, apiId: string, input: NewRole): Promise<Result<RoleOut>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    return this.#nameTaken(input.name, () =>
      this.deps.db.transaction().execute(async (trx) => {
        const unknown = await this.#unknownPermissions(trx, apiId, input.permissions ?? []);
        if (unknown.length > 0) return fail<RoleOut>('validation', unknown.map((e) => `${e.location} ${e.message}`).join('; '), unknown);
        const now = this.deps.clock.now();
        const role = await q.insertRole(trx, { id: newId('rol'), api_id: apiId, name: input.name.trim(), description: input.description ?? '', created_at: now, updated_at: now });
        await q.replaceRolePermissions(trx, role.id, input.permissions ?? []);
        await recordChange(this.deps, trx, caller, api, {
          action: 'signin_role.create',
          target: { type: 'signin_role', id: role.id },
          summary: `Added the role ${role.name} with ${(input.permissions ?? []).length} permissions`,
          details: { name: role.name, permissions: input.permissions ?? [] },
        });
        return ok(await this.#out(trx, api, role));
      }),
    );
  }

  /** Changes a role; a permission list given replaces the old one. */
  async update(caller: Caller, apiId: string, roleId: string, changes: RoleChanges): Promise<Result<RoleOut>> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    return this.#nameTaken(changes.name ?? '', () =>
      this.deps.db.transaction().execute(async (trx) => {
        const before = await q.findRole(trx, apiId, roleId);
        if (!before) throw new Problem('not_found', 'No such role');
        const unknown = await this.#unknownPermissions(trx, apiId, changes.permissions ?? []);
        if (unknown.length > 0) return fail<RoleOut>('validation', unknown.map((e) => `${e.location} ${e.message}`).join('; '), unknown);
        if (Object.keys(changes).length === 0) return ok(await this.#out(trx, api, before));
        const { permissions, ...fields } = changes;
        const role = await q.updateRole(trx, apiId, roleId, { ...fields, ...(fields.name !== undefined ? { name: fields.name.trim() } : {}), updated_at: this.deps.clock.now() });
        if (permissions) await q.replaceRolePermissions(trx, roleId, permissions);
        await recordChange(this.deps, trx, caller, api, {
          action: 'signin_role.update',
          target: { type: 'signin_role', id: roleId },
          summary: `Changed ${Object.keys(changes).join(', ')} of the role ${role.name}`,
          details: {
            changes: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { from: before[k as keyof typeof before], to: v }])),
            ...(permissions ? { permissions } : {}),
          },
        });
        return ok(await this.#out(trx, api, role));
      }),
    );
  }

  /** Deletes a role; the people who held it lose it (foreign keys). */
  async remove(caller: Caller, apiId: string, roleId: string): Promise<void> {
    const { api } = await this.deps.apis.access(caller, apiId, 'editor');
    await this.deps.db.transaction().execute(async (trx) => {
      const role = await q.findRole(trx, apiId, roleId);
      if (!role) throw new Problem('not_found', 'No such role');
      const holders = (await q.holderCounts(trx, apiId)).get(roleId) ?? 0;
      await q.deleteRole(trx, apiId, roleId);
      await recordChange(this.deps, trx, caller, api, {
        action: 'signin_role.delete',
        target: { type: 'signin_role', id: roleId },
        summary: `Deleted the role ${role.name}, held by ${holders} people`,
        details: { name: role.name, people: holders },
      });
    });
  }

  async #out(trx: Trx, api: ApiRow, role: Selectable<SigninRolesTable>) {
    const permissions = await q.permissionsOfRoles(trx, api.id, [role.id]);
    return toRoleOut(role, permissions, (await q.holderCounts(trx, api.id)).get(role.id) ?? 0);
  }

  /** Items naming a permission that no server of this API exposes, by their place in the body. */
  async #unknownPermissions(trx: Trx, apiId: string, items: RolePermission[]): Promise<ErrorDetail[]> {
    const existing = await q.existingPermissions(trx, apiId, items);
    return items.flatMap((item, index) =>
      existing.has(`${item.server_id} ${item.permission}`) ? [] : [{ location: `body.permissions.${index}`, message: 'no server of this API exposes this permission', value: item }],
    );
  }

  /** Role names are unique per API: a taken name (or two creations racing for one) answers 409. */
  async #nameTaken<T>(name: string, work: () => Promise<Result<T>>): Promise<Result<T>> {
    try {
      return await work();
    } catch (error) {
      if (!isUniqueViolation(error, 'signin_roles_api_id_name_key')) throw error;
      return fail('role_name_taken', `This API already has a role named ${name.trim()}`, [{ location: 'body.name', message: 'is taken by another role of this API', value: name }]);
    }
  }
}
