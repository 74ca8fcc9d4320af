import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { PeopleDirectory } from '../../issuer/people/directory.js';
import type { RegistryService } from '../../issuer/registry/service.js';
import { unwrap } from '../../platform/errors.js';
import { ApiParams } from '../../apis/schemas.js';
import { DEFAULT_PAGE_SIZE, withProblems } from '../common-schemas.js';
import { requireCaller } from '../http.js';
import * as s from './schemas.js';

/** The sign-in service settings of an API (DESIGN 8): settings, signing keys, apps, servers, roles, people. */
export function signinSettingsRoutes(registry: RegistryService, people: PeopleDirectory): FastifyPluginAsyncTypebox {
  return async (app) => {
    const base = '/apis/:api/signin';
    let tags = ['sign-in settings'];

    app.get(base, {
      schema: { tags, summary: 'Sign-in service settings', params: ApiParams, response: withProblems({ 200: s.SigninSettingsOut }) },
    }, async (request) => registry.getSettings(requireCaller(request), request.params.api));

    app.patch(base, {
      schema: { tags, summary: 'Change sign-in service settings (editor)', params: ApiParams, body: s.SigninSettingsInBody, response: withProblems({ 200: s.SigninSettingsOut }) },
    }, async (request) => registry.updateSettings(requireCaller(request), request.params.api, request.body));

    app.get(`${base}/key-settings`, {
      schema: { tags, summary: 'End-user API key settings', params: ApiParams, response: withProblems({ 200: s.KeySettingsOut }) },
    }, async (request) => registry.keySettings.get(requireCaller(request), request.params.api));

    app.patch(`${base}/key-settings`, {
      schema: { tags, summary: 'Change end-user API key settings (editor); turning keys on needs a platform plan that includes them', params: ApiParams, body: s.KeySettingsInBody, response: withProblems({ 200: s.KeySettingsOut }, 402) },
    }, async (request) => unwrap(await registry.keySettings.update(requireCaller(request), request.params.api, request.body)));

    app.get(`${base}/signing-keys`, {
      schema: { tags, summary: 'Signing keys, newest first, with how long retired ones stay published', params: ApiParams, response: withProblems({ 200: s.SigningKeysBody }) },
    }, async (request) => ({ keys: await registry.listSigningKeys(requireCaller(request), request.params.api) }));

    app.post(`${base}/signing-keys/rotate`, {
      schema: { tags, summary: 'Rotate the signing key (admin); the old one stays published for the token lifetime plus 24 hours', params: ApiParams, response: withProblems({ 200: s.SigningKeysBody }) },
    }, async (request) => ({ keys: await registry.rotateSigningKey(requireCaller(request), request.params.api) }));

    tags = ['sign-in apps'];
    app.get(`${base}/apps`, {
      schema: { tags, summary: "The owner's applications", params: ApiParams, response: withProblems({ 200: Type.Object({ apps: Type.Array(s.AppOut) }) }) },
    }, async (request) => ({ apps: await registry.apps.list(requireCaller(request), request.params.api) }));

    app.post(`${base}/apps`, {
      schema: { tags, summary: 'Add an application (editor); a web app\'s client secret is shown once', params: ApiParams, body: s.NewAppInBody, response: withProblems({ 200: s.AppWithSecret }) },
    }, async (request) => unwrap(await registry.apps.create(requireCaller(request), request.params.api, request.body)));

    app.get(`${base}/apps/:id`, {
      schema: { tags, summary: 'One application', params: s.ItemParams, response: withProblems({ 200: s.AppOut }) },
    }, async (request) => registry.apps.get(requireCaller(request), request.params.api, request.params.id));

    app.patch(`${base}/apps/:id`, {
      schema: { tags, summary: 'Change an application (editor); its kind is fixed', params: s.ItemParams, body: s.AppChangesInBody, response: withProblems({ 200: s.AppOut }) },
    }, async (request) => unwrap(await registry.apps.update(requireCaller(request), request.params.api, request.params.id, request.body)));

    app.delete(`${base}/apps/:id`, {
      schema: { tags, summary: 'Delete an application and everything it was granted (editor)', params: s.ItemParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await registry.apps.remove(requireCaller(request), request.params.api, request.params.id);
      return reply.status(204).send(null);
    });

    app.post(`${base}/apps/:id/secret/rotate`, {
      schema: { tags, summary: "Rotate a web app's client secret (admin); the old one works 24 hours more", params: s.ItemParams, response: withProblems({ 200: s.AppRotated }, 409) },
    }, async (request) => unwrap(await registry.apps.rotateSecret(requireCaller(request), request.params.api, request.params.id)));

    tags = ['sign-in connected apps'];
    app.get(`${base}/connected-apps`, {
      schema: { tags, summary: 'Apps people connected on their own (registered, or by a metadata document), newest first, with a cursor', params: ApiParams, querystring: s.ConnectedAppsQuery, response: withProblems({ 200: s.ConnectedAppsBody }) },
    }, async (request) => registry.connectedApps.list(requireCaller(request), request.params.api, { ...request.query, limit: request.query.limit ?? DEFAULT_PAGE_SIZE }));

    app.post(`${base}/connected-apps/block`, {
      schema: { tags, summary: 'Block a connected app (editor): it signs nobody in, and every grant it holds is revoked', params: ApiParams, body: s.ConnectedAppInBody, response: withProblems({ 200: s.ConnectedAppOut }) },
    }, async (request) => registry.connectedApps.block(requireCaller(request), request.params.api, request.body.client_id));

    app.post(`${base}/connected-apps/unblock`, {
      schema: { tags, summary: 'Unblock a connected app (editor); grants revoked by the block stay revoked', params: ApiParams, body: s.ConnectedAppInBody, response: withProblems({ 200: s.ConnectedAppOut }) },
    }, async (request) => registry.connectedApps.unblock(requireCaller(request), request.params.api, request.body.client_id));

    app.post(`${base}/connected-apps/delete`, {
      schema: { tags, summary: 'Delete a connected app with its grants (editor); a metadata document app comes back on its next use, so block one to keep it out', params: ApiParams, body: s.ConnectedAppInBody, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await registry.connectedApps.remove(requireCaller(request), request.params.api, request.body.client_id);
      return reply.status(204).send(null);
    });

    tags = ['sign-in servers'];
    app.get(`${base}/servers`, {
      schema: { tags, summary: 'APIs and MCP servers tokens are for, with their permissions', params: ApiParams, response: withProblems({ 200: Type.Object({ servers: Type.Array(s.ServerOut) }) }) },
    }, async (request) => ({ servers: await registry.servers.list(requireCaller(request), request.params.api) }));

    app.post(`${base}/servers`, {
      schema: { tags, summary: 'Add a server (editor); its secret is shown once', params: ApiParams, body: s.NewServerInBody, response: withProblems({ 200: s.ServerWithSecret }, 409) },
    }, async (request) => unwrap(await registry.servers.create(requireCaller(request), request.params.api, request.body)));

    app.get(`${base}/servers/:id`, {
      schema: { tags, summary: 'One server', params: s.ItemParams, response: withProblems({ 200: s.ServerOut }) },
    }, async (request) => registry.servers.get(requireCaller(request), request.params.api, request.params.id));

    app.patch(`${base}/servers/:id`, {
      schema: { tags, summary: 'Change a server (editor); a permission list replaces the old one, and roles lose removed permissions', params: s.ItemParams, body: s.ServerChangesInBody, response: withProblems({ 200: s.ServerOut }, 409) },
    }, async (request) => unwrap(await registry.servers.update(requireCaller(request), request.params.api, request.params.id, request.body)));

    app.delete(`${base}/servers/:id`, {
      schema: { tags, summary: 'Delete a server; its permissions leave every role (editor)', params: s.ItemParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await registry.servers.remove(requireCaller(request), request.params.api, request.params.id);
      return reply.status(204).send(null);
    });

    app.post(`${base}/servers/:id/secret/rotate`, {
      schema: { tags, summary: "Rotate a server's secret (admin); the old one works 24 hours more", params: s.ItemParams, response: withProblems({ 200: s.ServerWithSecret }) },
    }, async (request) => registry.servers.rotateSecret(requireCaller(request), request.params.api, request.params.id));

    tags = ['sign-in roles'];
    app.get(`${base}/roles`, {
      schema: { tags, summary: 'Roles and the permissions they give', params: ApiParams, response: withProblems({ 200: Type.Object({ roles: Type.Array(s.RoleOut) }) }) },
    }, async (request) => ({ roles: await registry.roles.list(requireCaller(request), request.params.api) }));

    app.post(`${base}/roles`, {
      schema: { tags, summary: 'Add a role (editor)', params: ApiParams, body: s.NewRoleInBody, response: withProblems({ 200: s.RoleOut }, 409) },
    }, async (request) => unwrap(await registry.roles.create(requireCaller(request), request.params.api, request.body)));

    app.patch(`${base}/roles/:id`, {
      schema: { tags, summary: 'Change a role (editor); a permission list replaces the old one', params: s.ItemParams, body: s.RoleChangesInBody, response: withProblems({ 200: s.RoleOut }, 409) },
    }, async (request) => unwrap(await registry.roles.update(requireCaller(request), request.params.api, request.params.id, request.body)));

    app.delete(`${base}/roles/:id`, {
      schema: { tags, summary: 'Delete a role; the people holding it lose it (editor)', params: s.ItemParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await registry.roles.remove(requireCaller(request), request.params.api, request.params.id);
      return reply.status(204).send(null);
    });

    tags = ['sign-in people'];
    app.get(`${base}/people`, {
      schema: { tags, summary: 'People who signed in, newest first, with a cursor', params: ApiParams, querystring: s.PeopleQuery, response: withProblems({ 200: s.PeopleBody }) },
    }, async (request) => people.list(requireCaller(request), request.params.api, { ...request.query, limit: request.query.limit ?? DEFAULT_PAGE_SIZE }));

    app.get(`${base}/people/:id`, {
      schema: { tags, summary: 'One person with their roles', params: s.ItemParams, response: withProblems({ 200: s.PersonOut }) },
    }, async (request) => people.get(requireCaller(request), request.params.api, request.params.id));

    app.patch(`${base}/people/:id`, {
      schema: { tags, summary: 'Suspend or reactivate a person (editor)', params: s.ItemParams, body: s.PersonStatusInBody, response: withProblems({ 200: s.PersonOut }) },
    }, async (request) => people.setStatus(requireCaller(request), request.params.api, request.params.id, request.body.status));

    app.put(`${base}/people/:id/roles`, {
      schema: { tags, summary: "Set a person's roles (editor)", params: s.ItemParams, body: s.PersonRolesInBody, response: withProblems({ 200: s.PersonOut }) },
    }, async (request) => unwrap(await people.setRoles(requireCaller(request), request.params.api, request.params.id, request.body.role_ids)));

    app.get(`${base}/people/:id/sessions`, {
      schema: { tags, summary: "A person's live sessions on the sign-in pages, newest first (at most 100)", params: s.ItemParams, response: withProblems({ 200: s.PersonSessionsBody }) },
    }, async (request) => people.sessions(requireCaller(request), request.params.api, request.params.id));

    app.delete(`${base}/people/:id/sessions/:session`, {
      schema: { tags, summary: 'End one live session of a person (editor): that browser is signed out and the tokens issued in it answer inactive', params: s.SessionParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await people.endSession(requireCaller(request), request.params.api, request.params.id, request.params.session);
      return reply.status(204).send(null);
    });
  };
}
