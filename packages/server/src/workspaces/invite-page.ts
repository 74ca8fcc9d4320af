// The workspace invitation link ({BASE_URL}/invites/<token>, the link of the invitation mail) as a
// server-rendered page on the console host, until the console web app replaces it. Every rule is
// the services': accepting is WorkspaceService.acceptInvite, signing in is AuthService.login and
// loginTwoFactor, exactly what the JSON routes (/api/invites/..., /api/auth/login) call.
import formbody from '@fastify/formbody';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccountsService, SessionUser } from '../accounts/accounts.js';
import { LoginInBody, TwoFactorInBody } from '../accounts/schemas.js';
import { RateLimited, type AuthService, type StartedSession } from '../accounts/service.js';
import type { Caller } from '../console/caller.js';
import { NewPassword } from '../console/common-schemas.js';
import { clearSessionCookie, clientInfo, SESSION_COOKIE, setSessionCookie } from '../console/http.js';
import { Problem, type ErrorCode } from '../platform/errors.js';
import { csrfToken, csrfValid, CSRF_FIELD } from '../platform/pages/csrf.js';
import * as fields from '../platform/pages/forms.js';
import { FieldError, formBody, type FormBody } from '../platform/pages/forms.js';
import type { SafeHtml } from '../platform/pages/html.js';
import { sendPage } from '../platform/pages/send-page.js';
import { AcceptInviteInBody } from './schemas.js';
import type { InvitationView, WorkspaceService } from './service.js';
import * as views from './invite-page-views.js';

export interface InvitePageDeps {
  workspaces: WorkspaceService;
  auth: AuthService;
  accounts: AccountsService;
  /** The console origin: a form post from any other origin is refused. */
  consoleOrigin: string;
  secureCookies: boolean;
}

/** The console's own pages are in the product's name, with a neutral accent. */
const BRANDING = { name: 'Gatehouse', logoUrl: null, accentColor: '#334155' };

/** The page's fields take the bounds the JSON routes' schemas state, so the two faces cannot drift. */
const BOUNDS: views.FieldBounds = {
  nameMax: AcceptInviteInBody.properties.name.maxLength!,
  passwordMin: NewPassword.minLength!,
  passwordMax: NewPassword.maxLength!,
  signinPasswordMax: LoginInBody.properties.password.maxLength!,
  secondFactorMax: TwoFactorInBody.properties.code.maxLength!,
};
const CHALLENGE_MAX = TwoFactorInBody.properties.challenge.maxLength!;
/** Tokens are 43 URL-safe characters; the JSON route takes up to 100. Anything else is unknown. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;
/** A few short fields: 16 KB, as the console's public routes (console/http.ts publicRoute). */
const BODY_LIMIT = 16 * 1024;

/** One request about one open invitation. */
interface Ctx {
  token: string;
  invitation: InvitationView;
  /** The console session this browser is signed in with, if any. */
  viewer: SessionUser | null;
  body: FormBody;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Shown = { error?: string; status?: number };

/** What the page says for each refusal of the services, and its status. */
const REFUSALS: Partial<Record<ErrorCode, { message: string; status: number }>> = {
  invalid_credentials: { message: 'Wrong password.', status: 401 },
  invalid_two_factor_code: { message: 'Wrong code. Use the newest code your app shows, or an unused recovery code.', status: 401 },
  invalid_challenge: { message: 'That sign-in took too long or was used already. Enter your password again.', status: 401 },
  invite_account_mismatch: { message: 'This address has a Gatehouse account: sign in as it to accept.', status: 403 },
};

const callerOf = (user: SessionUser, request: FastifyRequest): Caller => ({ kind: 'user', user, ...clientInfo(request) });

export function invitePageRoutes(deps: InvitePageDeps) {
  const { workspaces, auth, accounts, consoleOrigin, secureCookies } = deps;

  const send = (reply: FastifyReply, title: string, body: SafeHtml, status = 200) => sendPage(reply, { title, branding: BRANDING, body, status });
  const unusable = (reply: FastifyReply) => send(reply, 'Invitation', views.unusableBody(), 404);

  async function viewerOf(request: FastifyRequest): Promise<SessionUser | null> {
    const token = request.cookies[SESSION_COOKIE];
    return token ? accounts.sessionUser(token) : null;
  }

  const page = (ctx: Ctx, error: string | null) => ({
    token: ctx.token, invitation: ctx.invitation, error, csrf: csrfToken(ctx.request, ctx.reply, secureCookies),
  });

  /** The page for where this browser stands: signed in as the invitee, as someone else, or not at all. */
  function show(ctx: Ctx, shown: Shown = {}) {
    const p = page(ctx, shown.error ?? null);
    const title = `Join ${ctx.invitation.workspace}`;
    const { viewer } = ctx;
    if (viewer && viewer.email === ctx.invitation.email) return send(ctx.reply, title, views.confirmBody(p), shown.status);
    if (viewer) return send(ctx.reply, title, views.otherAccountBody({ ...p, signedInAs: viewer.email }), shown.status ?? 403);
    if (ctx.invitation.accountExists) return send(ctx.reply, title, views.signinBody({ ...p, bounds: BOUNDS }), shown.status);
    const name = fields.echo(ctx.body, 'name', BOUNDS.nameMax);
    return send(ctx.reply, title, views.createAccountBody({ ...p, name, bounds: BOUNDS }), shown.status);
  }

  function secondFactor(ctx: Ctx, challenge: string, shown: Shown = {}) {
    const p = page(ctx, shown.error ?? null);
    return send(ctx.reply, 'Two-factor sign-in', views.secondFactorBody({ ...p, challenge, bounds: BOUNDS }), shown.status);
  }

  /** A refusal of a service as the page shows it; anything unexpected goes to the error page. */
  function refused(ctx: Ctx, code: ErrorCode, rerender: (shown: Shown) => unknown = (shown) => show(ctx, shown)) {
    if (code === 'invite_not_found') return unusable(ctx.reply);
    if (code === 'already_member') return send(ctx.reply, 'Already a member', views.problemBody('You are already a member', `You already belong to ${ctx.invitation.workspace}.`), 409);
    const refusal = REFUSALS[code];
    if (!refusal) throw new Problem(code);
    return rerender({ error: refusal.message, status: refusal.status });
  }

  function limited(ctx: Ctx, outcome: RateLimited, rerender: (shown: Shown) => unknown) {
    ctx.reply.header('retry-after', String(outcome.retryAfterS));
    return rerender({ error: `Too many attempts. Try again in ${outcome.retryAfterS} seconds.`, status: 429 });
  }

  /** Accepts as the viewer (an account) or with a name and password (a new address). */
  async function accept(ctx: Ctx, newAccount: { name: string; password: string } | null) {
    const caller = ctx.viewer ? callerOf(ctx.viewer, ctx.request) : null;
    const result = await workspaces.acceptInvite(ctx.token, newAccount ?? {}, caller, clientInfo(ctx.request));
    if (!result.ok) return refused(ctx, result.code);
    if (result.value.session) setSessionCookie(ctx.reply, secureCookies, result.value.session);
    const { workspace, role } = ctx.invitation;
    return send(ctx.reply, `You joined ${workspace}`, views.acceptedBody({ workspace, role, workspaceId: result.value.workspace_id, email: result.value.user.email }));
  }

  /** A sign-in that just succeeded: this browser is now that account, which then accepts. */
  async function acceptAfterSignIn(ctx: Ctx, session: StartedSession) {
    setSessionCookie(ctx.reply, secureCookies, session);
    ctx.viewer = await accounts.sessionUser(session.token);
    if (ctx.viewer?.email !== ctx.invitation.email) return show(ctx);
    return accept(ctx, null);
  }

  return async (app: FastifyInstance) => {
    // These pages are no part of the console API's OpenAPI document.
    app.addHook('onRoute', (route) => {
      route.schema = { ...(route.schema ?? {}), hide: true };
    });
    await app.register(formbody, { bodyLimit: BODY_LIMIT });
    // A form's errors are pages too, never problem+json (a body too large, a media type refused).
    app.setErrorHandler((error: FastifyError | Problem, request, reply) => {
      const status = error instanceof Problem ? error.status : error.statusCode && error.statusCode < 500 ? error.statusCode : 500;
      if (status >= 500) request.log.error({ err: error }, 'unhandled error');
      if (error instanceof Problem) reply.headers(error.headers);
      const message = status >= 500 ? 'Something went wrong on our side.' : status === 413 ? 'The form is too large.' : error instanceof Problem ? (error.detail ?? error.title) : 'The request is malformed.';
      return send(reply, 'Something went wrong', views.problemBody('Something went wrong', message), status);
    });

    /** The invitation of the path, and the console session of the browser; null when unusable. */
    async function context(request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply, body: FormBody): Promise<Ctx | null> {
      const token = request.params.token;
      if (!TOKEN_SHAPE.test(token)) return null;
      const found = await workspaces.invitation(token);
      if (!found.ok) return null;
      return { token, invitation: found.value, viewer: await viewerOf(request), body, request, reply };
    }

    app.get('/invites/:token', async (request: FastifyRequest<{ Params: { token: string } }>, reply) => {
      const ctx = await context(request, reply, {});
      return ctx ? show(ctx) : unusable(reply);
    });

    // A form's address opened as a page (copied from the address bar after a post): the invitation.
    app.get('/invites/:token/:action', async (request: FastifyRequest<{ Params: { token: string } }>, reply) =>
      reply.header('cache-control', 'no-store').redirect(views.inviteActions(request.params.token).page, 303));

    /** Every form post: our CSRF token and origin first, then the invitation. */
    const post = (action: string, handle: (ctx: Ctx) => Promise<unknown>) =>
      app.post(`/invites/:token/${action}`, { bodyLimit: BODY_LIMIT }, async (request: FastifyRequest<{ Params: { token: string } }>, reply) => {
        const body = formBody(request.body);
        if (!csrfValid(request, body[CSRF_FIELD], consoleOrigin)) {
          return send(reply, 'Something went wrong', views.problemBody('This form cannot be sent', 'This form has expired or came from another site.'), 403);
        }
        const ctx = await context(request, reply, body);
        return ctx ? handle(ctx) : unusable(reply);
      });

    post('accept', async (ctx) => {
      // Only the invitee accepts as themself; a new address needs nobody signed in.
      if (ctx.viewer) return ctx.viewer.email === ctx.invitation.email ? accept(ctx, null) : show(ctx);
      if (ctx.invitation.accountExists) return refused(ctx, 'invite_account_mismatch');
      const name = fields.name(ctx.body, BOUNDS.nameMax);
      const password = fields.newPassword(ctx.body, BOUNDS.passwordMin, BOUNDS.passwordMax);
      if (name instanceof FieldError) return show(ctx, { error: name.message, status: 400 });
      if (password instanceof FieldError) return show(ctx, { error: password.message, status: 400 });
      return accept(ctx, { name, password });
    });

    post('signin', async (ctx) => {
      if (ctx.viewer || !ctx.invitation.accountExists) return show(ctx);
      const password = fields.signinPassword(ctx.body, BOUNDS.signinPasswordMax);
      if (password instanceof FieldError) return show(ctx, { error: password.message, status: 400 });
      const outcome = await auth.login(ctx.invitation.email, password, clientInfo(ctx.request));
      if (outcome instanceof RateLimited) return limited(ctx, outcome, (shown) => show(ctx, shown));
      if (!outcome.ok) return refused(ctx, outcome.code);
      if (outcome.value.twoFactorRequired) return secondFactor(ctx, outcome.value.challenge);
      return acceptAfterSignIn(ctx, outcome.value);
    });

    post('2fa', async (ctx) => {
      if (ctx.viewer || !ctx.invitation.accountExists) return show(ctx);
      const challenge = fields.text(ctx.body, 'challenge');
      if (challenge === '' || fields.length(challenge) > CHALLENGE_MAX) return refused(ctx, 'invalid_challenge');
      const code = fields.text(ctx.body, 'code').trim();
      if (code === '' || fields.length(code) > BOUNDS.secondFactorMax) {
        return secondFactor(ctx, challenge, { error: 'Enter the code from your authenticator app, or a recovery code.', status: 400 });
      }
      const outcome = await auth.loginTwoFactor(challenge, code, clientInfo(ctx.request));
      const again = (shown: Shown) => secondFactor(ctx, challenge, shown);
      if (outcome instanceof RateLimited) return limited(ctx, outcome, again);
      if (!outcome.ok) return refused(ctx, outcome.code, outcome.code === 'invalid_two_factor_code' ? again : undefined);
      return acceptAfterSignIn(ctx, outcome.value);
    });

    // Offered to a browser signed in as another account; it ends that console session here.
    post('signout', async (ctx) => {
      if (ctx.viewer) await auth.logout(ctx.viewer.sessionId);
      clearSessionCookie(ctx.reply, secureCookies);
      return ctx.reply.header('cache-control', 'no-store').redirect(views.inviteActions(ctx.token).page, 303);
    });
  };
}
