import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { unwrap } from '../platform/errors.js';
import { WorkspaceOut, withProblems } from '../console/common-schemas.js';
import { clientInfo, publicRoute, requireCaller, requireUser, setSessionCookie } from '../console/http.js';
import * as s from './schemas.js';
import type { WorkspaceService } from './service.js';

export function workspaceRoutes(workspaces: WorkspaceService, secureCookies: boolean): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['workspaces'];
    const Member = Type.Object({ ws: Type.String({ maxLength: 64 }), user_id: Type.String({ maxLength: 64 }) });
    const Item = Type.Object({ ws: Type.String({ maxLength: 64 }), id: Type.String({ maxLength: 64 }) });

    app.post('/workspaces', {
      schema: { tags, summary: 'Create a workspace you own', body: s.NameInBody, response: withProblems({ 200: WorkspaceOut }) },
    }, async (request) => unwrap(await workspaces.create(requireUser(request), request.body.name)));

    app.get('/workspaces/:ws', {
      schema: { tags, summary: 'A workspace and your role in it', params: s.WorkspaceParams, response: withProblems({ 200: WorkspaceOut }) },
    }, async (request) => workspaces.get(requireCaller(request), request.params.ws));

    app.patch('/workspaces/:ws', {
      schema: { tags, summary: 'Rename a workspace (admin)', params: s.WorkspaceParams, body: s.NameInBody, response: withProblems({ 200: WorkspaceOut }) },
    }, async (request) => workspaces.rename(requireCaller(request), request.params.ws, request.body.name));

    app.delete('/workspaces/:ws', {
      schema: { tags, summary: 'Delete a workspace and everything in it (owner)', params: s.WorkspaceParams, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await workspaces.remove(requireCaller(request), request.params.ws);
      return reply.status(204).send(null);
    });

    app.get('/workspaces/:ws/members', {
      schema: { tags, summary: 'Members and open invitations', params: s.WorkspaceParams, response: withProblems({ 200: s.MembersBody }) },
    }, async (request) => workspaces.members(requireCaller(request), request.params.ws));

    app.post('/workspaces/:ws/invites', {
      schema: { tags, summary: 'Invite someone by e-mail (admin)', params: s.WorkspaceParams, body: s.InviteInBody, response: withProblems({ 200: s.InviteOut }, 402, 409) },
    }, async (request) => unwrap(await workspaces.invite(requireCaller(request), request.params.ws, request.body.email, request.body.role)));

    app.delete('/workspaces/:ws/invites/:id', {
      schema: { tags, summary: 'Revoke an open invitation (admin)', params: Item, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await workspaces.revokeInvite(requireCaller(request), request.params.ws, request.params.id);
      return reply.status(204).send(null);
    });

    app.put('/workspaces/:ws/members/:user_id/role', {
      schema: { tags, summary: "Change a member's role (admin; owner for the owner role)", params: Member, body: s.RoleInBody, response: withProblems({ 200: s.MemberOut }, 409) },
    }, async (request) => workspaces.changeRole(requireCaller(request), request.params.ws, request.params.user_id, request.body.role));

    app.delete('/workspaces/:ws/members/:user_id', {
      schema: { tags, summary: 'Remove a member, or leave (admin, or yourself)', params: Member, response: withProblems({ 204: Type.Null() }, 409) },
    }, async (request, reply) => {
      await workspaces.removeMember(requireCaller(request), request.params.ws, request.params.user_id);
      return reply.status(204).send(null);
    });

    app.get('/workspaces/:ws/keys', {
      schema: { tags, summary: 'Workspace keys (never the key itself)', params: s.WorkspaceParams, response: withProblems({ 200: s.KeysBody }) },
    }, async (request) => ({ keys: await workspaces.keys(requireCaller(request), request.params.ws) }));

    app.post('/workspaces/:ws/keys', {
      schema: { tags, summary: 'Create a workspace key for automation (admin); shown once', params: s.WorkspaceParams, body: s.KeyInBody, response: withProblems({ 200: s.NewKeyBody }) },
    }, async (request) => workspaces.createKey(requireCaller(request), request.params.ws, request.body.name, request.body.role ?? 'editor'));

    app.delete('/workspaces/:ws/keys/:id', {
      schema: { tags, summary: 'Revoke a workspace key (admin)', params: Item, response: withProblems({ 204: Type.Null() }) },
    }, async (request, reply) => {
      await workspaces.revokeKey(requireCaller(request), request.params.ws, request.params.id);
      return reply.status(204).send(null);
    });

    app.get('/invites/:token', {
      ...publicRoute,
      schema: { tags, summary: 'What an invitation is for (no sign-in needed)', params: s.InviteParams, response: withProblems({ 200: s.InviteInfo }) },
    }, async (request) => unwrap(await workspaces.inviteInfo(request.params.token)));

    app.post('/invites/:token/accept', {
      ...publicRoute,
      schema: {
        tags,
        summary: 'Accept an invitation',
        description: 'A new address sets name and password here; an address with an account must be signed in as it.',
        params: s.InviteParams,
        body: s.AcceptInviteInBody,
        response: withProblems({ 200: s.AcceptedBody }, 409),
      },
    }, async (request, reply) => {
      const accepted = unwrap(await workspaces.acceptInvite(request.params.token, request.body, request.caller, clientInfo(request)));
      if (accepted.session) setSessionCookie(reply, secureCookies, accepted.session);
      return { user: accepted.user, workspace_id: accepted.workspace_id };
    });
  };
}
