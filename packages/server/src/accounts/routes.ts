import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Problem, unwrap } from '../platform/errors.js';
import { OkBody, SentBody, UserOut, withProblems } from '../console/common-schemas.js';
import { clearSessionCookie, clientInfo, publicRoute, rateLimitedProblem, requireUser, setSessionCookie } from '../console/http.js';
import type { AuthService, StartedSession } from './service.js';
import { RateLimited } from './service.js';
import * as s from './schemas.js';

/** Throws 429 for a rate-limited outcome, otherwise hands the outcome on. */
function notLimited<T>(outcome: T | RateLimited): T {
  if (outcome instanceof RateLimited) throw rateLimitedProblem(outcome.retryAfterS);
  return outcome;
}

export function authRoutes(auth: AuthService, secureCookies: boolean): FastifyPluginAsyncTypebox {
  return async (app) => {
    const sessionBody = (reply: Parameters<typeof setSessionCookie>[0], session: StartedSession) => {
      setSessionCookie(reply, secureCookies, session);
      return { user: session.user, ...(session.workspaceId ? { workspace_id: session.workspaceId } : {}) };
    };
    const tags = ['auth'];

    app.post('/auth/signup', {
      ...publicRoute,
      schema: { tags, summary: 'E-mail a six-digit sign-up code', description: 'The answer is the same whether or not the address has an account.', body: s.EmailInBody, response: withProblems({ 200: SentBody }) },
    }, async (request) => {
      notLimited(await auth.sendCode('signup', request.body.email, request.ip));
      return { sent: true };
    });

    app.post('/auth/signup/verify', {
      ...publicRoute,
      schema: { tags, summary: 'Trade the e-mailed code for a sign-up ticket', body: s.CodeInBody, response: withProblems({ 200: s.TicketBody }) },
    }, async (request) => unwrap(notLimited(await auth.verifyCode('signup', request.body.email, request.body.code, request.ip))));

    app.post('/auth/signup/complete', {
      ...publicRoute,
      schema: { tags, summary: 'Create the account with the ticket, a name and a password', body: s.SignupInBody, response: withProblems({ 200: s.SessionBody }, 409) },
    }, async (request, reply) => sessionBody(reply, unwrap(await auth.completeSignup(request.body, clientInfo(request)))));

    app.post('/auth/login', {
      ...publicRoute,
      schema: { tags, summary: 'Sign in with e-mail and password', body: s.LoginInBody, response: withProblems({ 200: s.LoginBody }) },
    }, async (request, reply) => {
      const outcome = unwrap(notLimited(await auth.login(request.body.email, request.body.password, clientInfo(request))));
      if (outcome.twoFactorRequired) return { two_factor_required: true, challenge: outcome.challenge };
      return { two_factor_required: false, ...sessionBody(reply, outcome) };
    });

    app.post('/auth/login/2fa', {
      ...publicRoute,
      schema: { tags, summary: 'Finish a sign-in with an authenticator or recovery code', body: s.TwoFactorInBody, response: withProblems({ 200: s.SessionBody }) },
    }, async (request, reply) => {
      const session = unwrap(notLimited(await auth.loginTwoFactor(request.body.challenge, request.body.code, clientInfo(request))));
      return sessionBody(reply, session);
    });

    app.post('/auth/logout', {
      ...publicRoute,
      schema: { tags, summary: 'End this session', response: withProblems({ 200: OkBody }) },
    }, async (request, reply) => {
      if (request.caller?.kind === 'user') await auth.logout(request.caller.user.sessionId);
      clearSessionCookie(reply, secureCookies);
      return { ok: true };
    });

    app.post('/auth/password/forgot', {
      ...publicRoute,
      schema: { tags, summary: 'E-mail a password reset code', description: 'The answer is the same whether or not the address has an account.', body: s.EmailInBody, response: withProblems({ 200: SentBody }) },
    }, async (request) => {
      notLimited(await auth.sendCode('reset', request.body.email, request.ip));
      return { sent: true };
    });

    app.post('/auth/password/verify', {
      ...publicRoute,
      schema: { tags, summary: 'Trade the e-mailed code for a reset ticket', body: s.CodeInBody, response: withProblems({ 200: s.TicketBody }) },
    }, async (request) => unwrap(notLimited(await auth.verifyCode('reset', request.body.email, request.body.code, request.ip))));

    app.post('/auth/password/reset', {
      ...publicRoute,
      schema: { tags, summary: 'Set a new password with the ticket', description: 'Ends every session; signs in unless two-factor is on.', body: s.ResetInBody, response: withProblems({ 200: s.ResetBody }) },
    }, async (request, reply) => {
      const outcome = unwrap(await auth.resetPassword(request.body.ticket, request.body.password, clientInfo(request)));
      if (!outcome.signedIn) return { signed_in: false };
      setSessionCookie(reply, secureCookies, outcome);
      return { signed_in: true, user: outcome.user };
    });

    const meTags = ['me'];
    app.get('/me', {
      schema: { tags: meTags, summary: 'The signed-in person and their workspaces', response: withProblems({ 200: s.MeBody }) },
    }, async (request) => {
      const me = await auth.me(requireUser(request).user);
      if (!me) throw new Problem('not_signed_in');
      return me;
    });

    app.patch('/me', {
      schema: { tags: meTags, summary: 'Change your name', body: s.ProfileInBody, response: withProblems({ 200: UserOut }) },
    }, async (request) => auth.rename(requireUser(request).user, request.body.name));

    app.post('/me/password', {
      schema: { tags: meTags, summary: 'Change your password', description: 'Signs out every other session.', body: s.PasswordInBody, response: withProblems({ 200: OkBody }) },
    }, async (request) => {
      const caller = requireUser(request);
      unwrap(await auth.changePassword(caller.user, request.body.current_password, request.body.password, request.ip));
      return { ok: true };
    });

    app.post('/me/2fa/setup', {
      schema: { tags: meTags, summary: 'Start authenticator setup', response: withProblems({ 200: s.TotpSetupBody }, 409) },
    }, async (request) => unwrap(await auth.setupTwoFactor(requireUser(request).user)));

    app.post('/me/2fa/enable', {
      schema: { tags: meTags, summary: 'Confirm a code and turn two-factor on', body: s.TotpCodeInBody, response: withProblems({ 200: s.RecoveryBody }, 409) },
    }, async (request) => ({ recovery_codes: unwrap(await auth.enableTwoFactor(requireUser(request).user, request.body.code, request.ip)) }));

    app.post('/me/2fa/disable', {
      schema: { tags: meTags, summary: 'Turn two-factor off', body: s.TotpDisableInBody, response: withProblems({ 200: OkBody }, 409) },
    }, async (request) => {
      unwrap(notLimited(await auth.disableTwoFactor(requireUser(request).user, request.body.password, request.body.code, request.ip)));
      return { ok: true };
    });

    app.post('/me/2fa/recovery-codes', {
      schema: { tags: meTags, summary: 'Replace the recovery codes', body: s.TotpCodeInBody, response: withProblems({ 200: s.RecoveryBody }, 409) },
    }, async (request) => ({ recovery_codes: unwrap(notLimited(await auth.regenerateRecoveryCodes(requireUser(request).user, request.body.code, request.ip))) }));
  };
}
