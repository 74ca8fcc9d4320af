import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRefusal, type AccountTenant, type PersonAccounts, type Proof, type Refusal } from '../people/accounts.js';
import { clearPersonSessionCookie, setPersonSessionCookie, type PersonSessions } from '../people/sessions.js';
import { resumePath, type AuthorizationService, type OpenInteraction } from '../protocol/authorization.js';
import { sendAuthorizeErrorPage } from '../protocol/responses.js';
import type { Tenant } from '../tenant.js';
import { chooseBody } from './choose-page.js';
import { consentBody } from './consent-page.js';
import { csrfToken, csrfValid, CSRF_FIELD } from '../../platform/pages/csrf.js';
import * as form from './forms.js';
import { FieldError, type FormBody } from '../../platform/pages/forms.js';
import type { SafeHtml } from '../../platform/pages/html.js';
import { redirectSource, sendPage } from '../../platform/pages/send-page.js';
import { actions, type PageContext } from './parts.js';
import { codeEntryBody, signinBody } from './signin-page.js';
import { signupBody, signupCodeBody } from './signup-page.js';

export interface PageDeps {
  authorization: AuthorizationService;
  accounts: PersonAccounts;
  sessions: PersonSessions;
  secureCookies: boolean;
}

/** One request about one open interaction. */
interface Ctx {
  tenant: Tenant;
  token: string;
  interaction: OpenInteraction;
  body: FormBody;
  request: FastifyRequest;
  reply: FastifyReply;
}

type Rerender = (message: string, status: number) => Promise<unknown>;

const accountTenant = (tenant: Tenant): AccountTenant => ({
  apiId: tenant.api.id, apiName: tenant.branding.name, issuer: tenant.issuer, signupsOpen: tenant.settings.signups === 'open',
});

const SIGNUPS_CLOSED = 'Sign-ups are closed. Sign in with an account you already have.';

/** How a refusal reads on the page, and its status. Wording never tells whether an address has an account. */
function refusalText(refusal: Refusal): { message: string; status: number } {
  switch (refusal.refused) {
    case 'invalid_credentials': return { message: 'Wrong e-mail or password.', status: 401 };
    case 'invalid_code': return { message: 'That code is wrong or has expired. Use the newest e-mail, or ask for a new code.', status: 401 };
    case 'signups_closed': return { message: SIGNUPS_CLOSED, status: 403 };
    case 'invite_only': return { message: 'Sign-up is by invitation. Ask the team that runs this API to invite this address, then use the link in their e-mail.', status: 403 };
    case 'email_taken': return { message: 'This address already has an account. Sign in instead.', status: 400 };
    case 'rate_limited': return { message: `Too many attempts. Try again in ${refusal.retryAfterS} seconds.`, status: 429 };
  }
}

/**
 * The people's pages of an interaction (sign-in, sign-up, choices, consent) on the tenant host.
 * The authorization endpoint decides what is needed; these pages do it, record it on the
 * interaction, and send the browser back to the endpoint's resume step (DESIGN style: the
 * protocol apart from the pages).
 */
export function signinPageRoutes(deps: PageDeps) {
  const { authorization, accounts, sessions, secureCookies } = deps;

  const resume = (ctx: Ctx) => ctx.reply.header('cache-control', 'no-store').redirect(resumePath(ctx.token), 303);
  const expired = (reply: FastifyReply, tenant: Tenant) =>
    sendAuthorizeErrorPage(reply, tenant, 'This sign-in has expired or was started in another browser. Start again from the app.');

  async function page(ctx: Ctx, error: string | null): Promise<{ page: PageContext; view: Awaited<ReturnType<AuthorizationService['view']>> }> {
    const view = await authorization.view(ctx.tenant, ctx.interaction, ctx.request);
    return { view, page: { token: ctx.token, csrf: csrfToken(ctx.request, ctx.reply, secureCookies), appName: view.app.name, error } };
  }

  // A form here may end, through our redirects, at the app's redirect URI; browsers apply
  // form-action to every hop of a form's redirects (CSP 3), so the app's origin is allowed too.
  const send = (ctx: Ctx, title: string, body: SafeHtml, status = 200) =>
    sendPage(ctx.reply, { title, branding: ctx.tenant.branding, body, status, formActions: [redirectSource(ctx.interaction.request.redirectUri)] });

  /** The page of the step the authorization endpoint would take now; done or error go back to it. */
  async function show(ctx: Ctx, options: { form?: 'signin' | 'signup'; error?: string; status?: number; email?: string } = {}) {
    const { view, page: p } = await page(ctx, options.error ?? null);
    const step = view.step;
    if (step.kind === 'done' || step.kind === 'error') return resume(ctx);
    if (step.kind === 'signin') {
      const email = options.email ?? view.loginHint ?? '';
      const signup = view.signupsOpen && (options.form === 'signup' || (step.signup && options.form !== 'signin'));
      if (signup) return send(ctx, 'Create your account', signupBody({ ...p, email }), options.status);
      return send(ctx, 'Sign in', signinBody({ ...p, email, signupsOpen: view.signupsOpen }), options.status);
    }
    const signedInAs = view.session!.email;
    if (step.kind === 'choose') return send(ctx, 'Choose an account', chooseBody({ ...p, signedInAs, reason: step.reason, loginHint: view.loginHint }), options.status);
    return send(ctx, 'Allow access', consentBody({ ...p, apiName: ctx.tenant.branding.name, view, signedInAs }), options.status);
  }

  async function codeEntry(ctx: Ctx, email: string, error: string | null = null, status = 200) {
    const { page: p } = await page(ctx, error);
    return send(ctx, 'Check your e-mail', codeEntryBody({ ...p, email }), status);
  }

  async function signupCode(ctx: Ctx, email: string, error: string | null = null, status = 200) {
    const { page: p } = await page(ctx, error);
    return send(ctx, 'Check your e-mail', signupCodeBody({ ...p, email, name: form.echo(ctx.body, 'name') }), status);
  }

  function refused(ctx: Ctx, refusal: Refusal, rerender: Rerender) {
    if (refusal.refused === 'rate_limited') ctx.reply.header('retry-after', String(refusal.retryAfterS));
    const { message, status } = refusalText(refusal);
    return rerender(message, status);
  }

  /**
   * A proven person: a suspended one makes the app hear access_denied and gets no session;
   * anyone else gets a new session (another person's ends), recorded as this interaction's sign-in.
   */
  async function finishSignIn(ctx: Ctx, proof: Proof) {
    const apiId = ctx.tenant.api.id;
    if (proof.suspended) {
      await authorization.record(ctx.tenant, ctx.interaction, { suspended: true });
      return resume(ctx);
    }
    const current = await sessions.current(apiId, ctx.request);
    if (current && current.person_id !== proof.personId) await sessions.end(apiId, current.session_id);
    const session = await sessions.start(apiId, proof.personId, proof.amr, ctx.tenant.settings.session_ttl_s);
    setPersonSessionCookie(ctx.reply, secureCookies, session);
    await authorization.record(ctx.tenant, ctx.interaction, { signedInSessionId: session.id });
    return resume(ctx);
  }

  return async (app: FastifyInstance) => {
    app.get('/interaction/:token', async (request: FastifyRequest<{ Params: { token: string }; Querystring: { form?: unknown } }>, reply) => {
      const tenant = request.tenant;
      const interaction = await authorization.interaction(tenant, request.params.token, request);
      if (!interaction) return expired(reply, tenant);
      const wanted = request.query.form;
      const ctx: Ctx = { tenant, token: request.params.token, interaction, body: {}, request, reply };
      return show(ctx, wanted === 'signin' || wanted === 'signup' ? { form: wanted } : {});
    });

    /** Every form post: our own CSRF token (and Origin, when sent) first, then the interaction. */
    const post = (path: string, handle: (ctx: Ctx) => Promise<unknown>) =>
      app.post(`/interaction/:token${path}`, async (request: FastifyRequest<{ Params: { token: string } }>, reply) => {
        const tenant = request.tenant;
        const body = (request.body !== null && typeof request.body === 'object' ? request.body : {}) as FormBody;
        if (!csrfValid(request, body[CSRF_FIELD], tenant.issuer)) {
          return sendAuthorizeErrorPage(reply, tenant, 'This form has expired or came from another site. Go back, reload the page and try again.', 403);
        }
        const interaction = await authorization.interaction(tenant, request.params.token, request);
        if (!interaction) return expired(reply, tenant);
        return handle({ tenant, token: request.params.token, interaction, body, request, reply });
      });

    post('/password', async (ctx) => {
      const email = form.email(ctx.body);
      const password = form.signinPassword(ctx.body);
      if (email instanceof FieldError || password instanceof FieldError) {
        const bad = email instanceof FieldError ? email : (password as FieldError);
        return show(ctx, { form: 'signin', error: bad.message, status: 400, email: form.echo(ctx.body, 'email') });
      }
      const outcome = await accounts.signInWithPassword(accountTenant(ctx.tenant), email, password, ctx.request.ip);
      if (isRefusal(outcome)) return refused(ctx, outcome, (error, status) => show(ctx, { form: 'signin', error, status, email }));
      return finishSignIn(ctx, outcome);
    });

    post('/code/send', async (ctx) => {
      const email = form.email(ctx.body);
      if (email instanceof FieldError) return show(ctx, { form: 'signin', error: email.message, status: 400, email: form.echo(ctx.body, 'email') });
      const refusal = await accounts.sendCode(accountTenant(ctx.tenant), 'signin', email, ctx.request.ip);
      if (refusal) return refused(ctx, refusal, (error, status) => show(ctx, { form: 'signin', error, status, email }));
      return codeEntry(ctx, email);
    });

    post('/code', async (ctx) => {
      const email = form.email(ctx.body);
      if (email instanceof FieldError) return show(ctx, { form: 'signin', error: email.message, status: 400 });
      const code = form.code(ctx.body);
      if (code instanceof FieldError) return codeEntry(ctx, email, code.message, 400);
      const outcome = await accounts.signInWithCode(accountTenant(ctx.tenant), email, code, ctx.request.ip);
      if (isRefusal(outcome)) return refused(ctx, outcome, (error, status) => codeEntry(ctx, email, error, status));
      return finishSignIn(ctx, outcome);
    });

    post('/signup/send', async (ctx) => {
      if (ctx.tenant.settings.signups !== 'open') return show(ctx, { form: 'signin', error: SIGNUPS_CLOSED, status: 403 });
      const email = form.email(ctx.body);
      if (email instanceof FieldError) return show(ctx, { form: 'signup', error: email.message, status: 400, email: form.echo(ctx.body, 'email') });
      const refusal = await accounts.sendCode(accountTenant(ctx.tenant), 'signup', email, ctx.request.ip);
      if (refusal) return refused(ctx, refusal, (error, status) => show(ctx, { form: 'signup', error, status, email }));
      return signupCode(ctx, email);
    });

    post('/signup', async (ctx) => {
      if (ctx.tenant.settings.signups !== 'open') return show(ctx, { form: 'signin', error: SIGNUPS_CLOSED, status: 403 });
      const email = form.email(ctx.body);
      if (email instanceof FieldError) return show(ctx, { form: 'signup', error: email.message, status: 400 });
      const [code, name, password] = [form.code(ctx.body), form.name(ctx.body), form.newPassword(ctx.body)];
      if (code instanceof FieldError) return signupCode(ctx, email, code.message, 400);
      if (name instanceof FieldError) return signupCode(ctx, email, name.message, 400);
      if (password instanceof FieldError) return signupCode(ctx, email, password.message, 400);
      const outcome = await accounts.signUp(accountTenant(ctx.tenant), { email, code, name, password }, ctx.request.ip);
      if (isRefusal(outcome)) return refused(ctx, outcome, (error, status) => signupCode(ctx, email, error, status));
      return finishSignIn(ctx, outcome);
    });

    // Spec 4.2 rules 3 and 4: continue as the signed-in account, or sign out here and use another.
    post('/choose', async (ctx) => {
      const view = await authorization.view(ctx.tenant, ctx.interaction, ctx.request);
      if (view.step.kind !== 'choose') return ctx.reply.redirect(actions(ctx.token).page, 303);
      const choice = form.text(ctx.body, 'choice');
      if (choice === 'continue') {
        await authorization.record(ctx.tenant, ctx.interaction, { continued: true });
        return resume(ctx);
      }
      if (choice !== 'other') return show(ctx, { error: 'Choose one of the two.', status: 400 });
      if (view.session) await sessions.end(ctx.tenant.api.id, view.session.session_id);
      clearPersonSessionCookie(ctx.reply, secureCookies);
      // Without the session the step is sign-in; with prompt=create it opens on the sign-up form.
      return ctx.reply.header('cache-control', 'no-store').redirect(actions(ctx.token).page, 303);
    });

    post('/consent', async (ctx) => {
      const view = await authorization.view(ctx.tenant, ctx.interaction, ctx.request);
      if (view.step.kind !== 'consent') return ctx.reply.redirect(actions(ctx.token).page, 303);
      const decision = form.text(ctx.body, 'decision');
      if (decision !== 'allow' && decision !== 'deny') return show(ctx, { error: 'Choose Allow or Deny.', status: 400 });
      await authorization.record(ctx.tenant, ctx.interaction, { consent: decision === 'allow' ? 'granted' : 'denied' });
      return resume(ctx);
    });
  };
}
