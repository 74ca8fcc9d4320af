import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission, MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';
import type { Principal, Verifier, VerifierResult } from '../verify/verifier.js';
import { finishVerified, finishWhenAnswered, headerValue } from './shared.js';

// Structural types: the SDK does not depend on fastify.
interface FastifyLikeRequest {
  headers: IncomingMessage['headers'];
  ip: string;
  raw: IncomingMessage;
  gatehouse?: MeteredCustomer;
  principal?: Principal;
}
interface FastifyLikeReply {
  statusCode: number;
  raw: ServerResponse;
  code(status: number): FastifyLikeReply;
  headers(values: Record<string, string>): FastifyLikeReply;
  send(payload: unknown): FastifyLikeReply;
}
type Done = (error?: Error | null, payload?: unknown) => void;
type OnRequest = (request: FastifyLikeRequest, reply: FastifyLikeReply, done: Done) => void;
interface FastifyLike {
  decorateRequest(name: string, value: unknown): unknown;
  // Loose on purpose: Fastify's own overloads, generic over the hook's arity, do not match a
  // structural callback signature; the hooks below are typed where they are written.
  addHook(name: 'onRequest', hook: (...args: never[]) => unknown): unknown;
}

/**
 * A Fastify plugin: meters every route of the instance it is registered on (register it in an
 * encapsulated context to meter some routes only). Sets `request.gatehouse`.
 * @example
 * app.register(gatehousePlugin(meter));
 */
export function gatehousePlugin(meter: Meter) {
  const decided = (decision: Admission, request: FastifyLikeRequest, reply: FastifyLikeReply, done: Done): void => {
    // Answered here: Fastify sends the reply, and `done` is not called (its hook contract).
    if (!decision.ok) return void reply.code(decision.status).headers(decision.headers).send(decision.body);
    request.gatehouse = decision.customer;
    // The route runs inside done() as far as it can without waiting: a synchronous handler has
    // answered when it returns. Fastify writes every answer's head through the raw writeHead.
    try {
      done();
    } finally {
      finishWhenAnswered(reply.raw, decision);
    }
  };
  const plugin = async (app: FastifyLike) => {
    app.decorateRequest('gatehouse', null);
    // Callback hooks, not async ones: a decision that needs no waiting costs no promise.
    const onRequest: OnRequest = (request, reply, done) => {
      // Without clientAddress: the meter does not use it, and request.ip runs proxy-addr under trustProxy.
      const decision = meter.admitNow({ key: headerValue(request.headers[meter.options.keyHeader]), authorization: headerValue(request.headers.authorization) });
      if (decision instanceof Promise) decision.then((d) => decided(d, request, reply, done), done);
      else decided(decision, request, reply, done);
    };
    app.addHook('onRequest', onRequest);
  };
  // Hooks apply outside the plugin's own context (what fastify-plugin's skip-override does).
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}

/** Fastify's hook `done`, as a route's `onRequest` option types it. */
type HookDone = (error?: Error) => void;

/** What {@link verify} checks besides the credential. */
export interface VerifyOptions {
  /** Permissions the route needs: a credential lacking one gets 403 `insufficient_scope`. */
  scopes?: readonly string[];
}

/**
 * A Fastify `onRequest` hook admitting requests by an access token or an end-user API key
 * (`Authorization: Bearer`); refusals are answered here, admitted requests get
 * `request.principal` (and `request.gatehouse` when the verifier meters). Put it on the routes
 * that need it, or on an instance with `addHook('onRequest', …)`.
 * @example
 * app.get('/whoami', { onRequest: verify(verifier, { scopes: ['read:weather'] }) }, async (request) => request.principal);
 */
export function verify(verifier: Verifier, options: VerifyOptions = {}) {
  const scopes = options.scopes ?? [];
  const decided = (result: VerifierResult, request: FastifyLikeRequest, reply: FastifyLikeReply, done: HookDone): void => {
    if (!result.ok) return void reply.code(result.status).headers(result.headers).send(result.body);
    request.principal = result.principal;
    if (result.customer) request.gatehouse = result.customer;
    try {
      done();
    } finally {
      finishVerified(reply.raw, result);
    }
  };
  return (request: FastifyLikeRequest, reply: FastifyLikeReply, done: HookDone): void => {
    const result = verifier.checkNow({ authorization: headerValue(request.headers.authorization), clientAddress: request.ip, scopes });
    if (result instanceof Promise) result.then((r) => decided(r, request, reply, done), (error: unknown) => done(error instanceof Error ? error : new Error(String(error))));
    else decided(result, request, reply, done);
  };
}
