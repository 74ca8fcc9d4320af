import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../platform/pages/html.js';
import { csrfValid, CSRF_FIELD } from '../platform/pages/csrf.js';
import { formBody, type FormBody } from '../platform/pages/forms.js';
import { portalAuthRoutes } from './auth-routes.js';
import { portalContext, sendStatePage, type PortalContext, type PortalDeps } from './context.js';
import { accountPage, changePassword, chooseCustomer } from './pages/account.js';
import { acceptInvite, invitePage } from './pages/invite.js';
import { createKey, keysPage, revokeConfirmPage, revokeKey } from './pages/keys.js';
import { apiKeysPage, createApiKey, queryNotice } from './pages/api-keys.js';
import { renameApiKey, renamePage, revokeAllApiKeys, revokeAllPage, revokeApiKey, revokePage, rollApiKey, rollPage } from './pages/api-key-changes.js';
import { overviewPage } from './pages/overview.js';
import { quickstartPage } from './pages/quickstart.js';
import { ledgerPage } from './pages/ledger.js';
import { billingPage, startTopUp } from './pages/billing.js';
import { saveAutoRecharge, startCardSetup } from './pages/auto-recharge.js';
import { cancelConfirmPage, cancelSubscription, planPage, plansPage, subscribe, switchConfirmPage, switchPlan } from './pages/plans.js';
import { doneNotice, inviteTeammate, setMemberRole, teamPage } from './pages/team.js';
import { leave, leaveConfirmPage, removeConfirmPage, removeMember, revokeInvitation, revokeInvitationConfirmPage } from './pages/team-confirm.js';
import { usagePage } from './pages/usage.js';

type Params = Record<string, string>;
interface Options {
  /** The page stays open to a customer waiting for approval or suspended (their account). */
  inactiveAllowed?: boolean;
  /** The page exists only while the owner has end-user keys turned on; else it is a 404. */
  keysOn?: boolean;
}

/** Whether the request reached a page that does not exist on this API now. */
const absent = (request: FastifyRequest, options: Options) => options.keysOn === true && !request.tenant.settings.keys_enabled;

/**
 * The customer portal: the API's own site on its tenant host, where its customers' people sign in
 * (through the API's issuer), watch their balance and usage, make keys and run their team.
 * Server-rendered like the sign-in pages: escaped templates, a strict CSP, CSRF on every form.
 */
export function portalRoutes(deps: PortalDeps) {
  return async (app: FastifyInstance) => {
    await app.register(portalAuthRoutes(deps));

    const page = (path: string, handler: (ctx: PortalContext, params: Params) => unknown, options: Options = {}) =>
      app.get(path, async (request: FastifyRequest, reply: FastifyReply) => {
        if (absent(request, options)) return reply.callNotFound();
        const ctx = await portalContext(deps, request, reply, options);
        return ctx ? handler(ctx, request.params as Params) : reply;
      });
    // Every change is a form post: its CSRF token is checked before anything is read or done.
    const post = (path: string, handler: (ctx: PortalContext, body: FormBody, params: Params) => unknown, options: Options = {}) =>
      app.post(path, async (request: FastifyRequest, reply: FastifyReply) => {
        if (absent(request, options)) return reply.callNotFound();
        const body = formBody(request.body);
        if (!csrfValid(request, body[CSRF_FIELD], request.tenant.issuer)) {
          return sendStatePage(deps, request.tenant, reply, 'The form expired', html`<h1>The form expired</h1><p>Go <a href="/">back</a> and try again.</p>`, 403);
        }
        const ctx = await portalContext(deps, request, reply, options);
        return ctx ? handler(ctx, body, request.params as Params) : reply;
      });

    page('/', (ctx) => overviewPage(deps, ctx));
    page('/keys', (ctx) => keysPage(deps, ctx));
    post('/keys', (ctx, body) => createKey(deps, ctx, body));
    page('/keys/:id/revoke', (ctx, params) => revokeConfirmPage(deps, ctx, params.id!));
    post('/keys/:id/revoke', (ctx, _body, params) => revokeKey(deps, ctx, params.id!));
    // People's own keys: theirs whatever their customer's state, so a suspended customer's people
    // can still see and revoke them (spec 3).
    const keys: Options = { keysOn: true, inactiveAllowed: true };
    page('/api-keys', (ctx) => apiKeysPage(deps, ctx, queryNotice(ctx)), keys);
    post('/api-keys', (ctx, body) => createApiKey(deps, ctx, body), keys);
    page('/api-keys/revoke-all', (ctx) => revokeAllPage(deps, ctx), keys);
    post('/api-keys/revoke-all', (ctx) => revokeAllApiKeys(deps, ctx), keys);
    page('/api-keys/:id/rename', (ctx, params) => renamePage(deps, ctx, params.id!), keys);
    post('/api-keys/:id/rename', (ctx, body, params) => renameApiKey(deps, ctx, body, params.id!), keys);
    page('/api-keys/:id/roll', (ctx, params) => rollPage(deps, ctx, params.id!), keys);
    post('/api-keys/:id/roll', (ctx, body, params) => rollApiKey(deps, ctx, body, params.id!), keys);
    page('/api-keys/:id/revoke', (ctx, params) => revokePage(deps, ctx, params.id!), keys);
    post('/api-keys/:id/revoke', (ctx, _body, params) => revokeApiKey(deps, ctx, params.id!), keys);
    page('/usage', (ctx) => usagePage(deps, ctx));
    page('/ledger', (ctx) => ledgerPage(deps, ctx));
    page('/billing', (ctx) => billingPage(deps, ctx));
    post('/billing/topup', (ctx, body) => startTopUp(deps, ctx, body));
    post('/billing/card', (ctx) => startCardSetup(deps, ctx));
    post('/billing/auto-recharge', (ctx, body) => saveAutoRecharge(deps, ctx, body));
    page('/quickstart', (ctx) => quickstartPage(ctx));
    page('/plans', (ctx) => plansPage(deps, ctx));
    page('/plans/cancel', (ctx) => cancelConfirmPage(deps, ctx));
    post('/plans/cancel', (ctx) => cancelSubscription(deps, ctx));
    page('/plans/:id', (ctx, params) => planPage(deps, ctx, params.id!));
    post('/plans/:id/subscribe', (ctx, _body, params) => subscribe(deps, ctx, params.id!));
    page('/plans/:id/switch', (ctx, params) => switchConfirmPage(deps, ctx, params.id!));
    post('/plans/:id/switch', (ctx, _body, params) => switchPlan(deps, ctx, params.id!));
    page('/team', (ctx) => teamPage(deps, ctx, doneNotice(ctx)));
    post('/team/invitations', (ctx, body) => inviteTeammate(deps, ctx, body));
    page('/team/invitations/:id/revoke', (ctx, params) => revokeInvitationConfirmPage(deps, ctx, params.id!));
    post('/team/invitations/:id/revoke', (ctx, _body, params) => revokeInvitation(deps, ctx, params.id!));
    post('/team/members/:id/role', (ctx, body, params) => setMemberRole(deps, ctx, body, params.id!));
    page('/team/members/:id/remove', (ctx, params) => removeConfirmPage(deps, ctx, params.id!));
    post('/team/members/:id/remove', (ctx, _body, params) => removeMember(deps, ctx, params.id!));
    page('/team/leave', (ctx) => leaveConfirmPage(deps, ctx));
    post('/team/leave', (ctx) => leave(deps, ctx));
    page('/account', (ctx) => accountPage(ctx), { inactiveAllowed: true });
    post('/account/password', (ctx, body) => changePassword(deps, ctx, body), { inactiveAllowed: true });
    post('/account/customer', (ctx, body) => chooseCustomer(deps, ctx, body), { inactiveAllowed: true });

    // An invitation's landing works signed in or not.
    app.get('/invites/:token', async (request, reply) => invitePage(deps, request, reply, (request.params as Params).token!));
    app.post('/invites/:token/accept', async (request, reply) => acceptInvite(deps, request, reply, (request.params as Params).token!));
  };
}
