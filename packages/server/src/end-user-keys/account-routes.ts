import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { SigningKeys } from '../issuer/keys/signing-keys.js';
import { issuerErrorHandler } from '../issuer/routes.js';
import type { Clock } from '../platform/clock.js';
import type { Db } from '../platform/db/database.js';
import { InputRefused } from '../platform/http/validation.js';
import type { TokenBuckets } from '../platform/token-bucket.js';
import { accountCaller, type AccountCaller } from './account-auth.js';
import { admitKeyRequest } from './admission.js';
import { KeyApiError, sendKeyError, type KeyOutcome } from './errors.js';
import * as s from './schemas.js';
import type { EndUserKeys } from './service.js';
import type { CachedReads } from '../issuer/cached-reads.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the account API's auth hook. */
    accountCaller: AccountCaller;
  }
  interface FastifyContextConfig {
    /** Creating and rolling keys need a recent sign-in (spec 5.7). */
    stepUp?: boolean;
  }
}

const BASE = '/api/v1/me/api-keys';

/** A 422 names the first field whose value is not allowed (spec 7), as `field`. */
function fieldOf(error: InputRefused): string {
  return error.details[0]?.location?.split('.')[1] ?? 'body';
}

function answer<T>(reply: FastifyReply, outcome: KeyOutcome<T>, status = 200) {
  if (!outcome.ok) return sendKeyError(reply, outcome.refusal);
  return reply.status(status).header('cache-control', 'no-store').send(outcome.value);
}

/**
 * The account API for end-user keys on the tenant host (spec 4.5): a person's access token with
 * platform:api_keys for the issuer alone, then per-person limits (spec 8), then one service call.
 */
export function accountApiRoutes(deps: { db: Db; reads: CachedReads; clock: Clock; keys: SigningKeys; endUserKeys: EndUserKeys; buckets: TokenBuckets }) {
  const keys = deps.endUserKeys;
  return async (plain: FastifyInstance) => {
    const app = plain.withTypeProvider<TypeBoxTypeProvider>();
    app.setErrorHandler((error: FastifyError | KeyApiError | InputRefused, request, reply) => {
      if (error instanceof KeyApiError) return sendKeyError(reply, error);
      if (error instanceof InputRefused) return sendKeyError(reply, new KeyApiError('invalid_request', error.message, 422, {}, fieldOf(error)));
      return issuerErrorHandler(error as FastifyError, request, reply);
    });
    app.decorateRequest('accountCaller', null as never);
    // Before the body is validated: who calls and whether they may, then their limits.
    app.addHook('preValidation', async (request: FastifyRequest) => {
      const caller = await accountCaller(deps.reads, deps.clock, deps.keys, request.tenant, request);
      await admitKeyRequest(deps.buckets, request.tenant.api.id, caller, { change: request.method !== 'GET', stepUp: request.routeOptions.config.stepUp === true }, deps.clock.now());
      request.accountCaller = caller;
    });
    const requester = (request: FastifyRequest) => ({ caller: request.accountCaller, ip: request.ip });
    const limits = { bodyLimit: 16 * 1024 };

    app.get(`${BASE}/options`, { schema: { response: { 200: s.OptionsBody } } }, async (request, reply) =>
      answer(reply, { ok: true, value: await keys.options(request.tenant, request.accountCaller) }),
    );

    app.get(BASE, { schema: { response: { 200: s.KeysBody } } }, async (request, reply) =>
      answer(reply, { ok: true, value: await keys.list(request.tenant, request.accountCaller) }),
    );

    app.post(BASE, { ...limits, config: { stepUp: true }, schema: { body: s.NewKeyInBody, response: { 201: s.KeyWithSecret } } }, async (request, reply) =>
      answer(reply, await keys.create(request.tenant, requester(request), request.body), 201),
    );

    app.patch(`${BASE}/:key`, { ...limits, schema: { params: s.KeyParams, body: s.RenameInBody, response: { 200: s.KeyOut } } }, async (request, reply) =>
      answer(reply, await keys.rename(request.tenant, request.accountCaller, request.params.key, request.body.name)),
    );

    app.post(`${BASE}/:key/roll`, { ...limits, config: { stepUp: true }, schema: { params: s.KeyParams, body: s.RollInBody, response: { 200: s.KeyWithSecret } } }, async (request, reply) =>
      answer(reply, await keys.roll(request.tenant, requester(request), request.params.key, request.body.old_secret_lasts_hours)),
    );

    app.delete(`${BASE}/:key`, { schema: { params: s.KeyParams } }, async (request, reply) => {
      const outcome = await keys.revoke(request.tenant, requester(request), request.params.key);
      if (!outcome.ok) return sendKeyError(reply, outcome.refusal);
      return reply.status(204).header('cache-control', 'no-store').send();
    });

    app.delete(BASE, async (request, reply) => {
      await keys.revokeAll(request.tenant, requester(request));
      return reply.status(204).header('cache-control', 'no-store').send();
    });
  };
}
