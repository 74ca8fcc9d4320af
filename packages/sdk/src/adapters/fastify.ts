import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission, MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';
import { finishWhenAnswered, headerValue } from './shared.js';

// Structural types: the SDK does not depend on fastify.
interface FastifyLikeRequest {
  headers: IncomingMessage['headers'];
  ip: string;
  raw: IncomingMessage;
  gatehouse?: MeteredCustomer;
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
      const decision = meter.admitNow({ key: headerValue(request.headers[meter.options.keyHeader]) });
      if (decision instanceof Promise) decision.then((d) => decided(d, request, reply, done), done);
      else decided(decision, request, reply, done);
    };
    app.addHook('onRequest', onRequest);
  };
  // Hooks apply outside the plugin's own context (what fastify-plugin's skip-override does).
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
