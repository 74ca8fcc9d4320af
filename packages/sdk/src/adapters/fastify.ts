import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admitted, MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';
import { headerValue } from './shared.js';

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
interface FastifyLike {
  decorateRequest(name: string, value: unknown): unknown;
  addHook(name: 'onRequest', hook: (request: FastifyLikeRequest, reply: FastifyLikeReply) => Promise<unknown>): unknown;
  addHook(name: 'onSend', hook: (request: FastifyLikeRequest, reply: FastifyLikeReply, payload: unknown) => Promise<unknown>): unknown;
}

const admissions = new WeakMap<object, Admitted>();

/**
 * A Fastify plugin: meters every route of the instance it is registered on (register it in an
 * encapsulated context to meter some routes only). Sets `request.gatehouse`.
 * @example
 * app.register(gatehousePlugin(meter));
 */
export function gatehousePlugin(meter: Meter) {
  const plugin = async (app: FastifyLike) => {
    app.decorateRequest('gatehouse', null);
    app.addHook('onRequest', async (request, reply) => {
      const decision = await meter.admit({ key: headerValue(request.headers[meter.options.keyHeader]), clientAddress: request.ip });
      if (!decision.ok) return reply.code(decision.status).headers(decision.headers).send(decision.body);
      request.gatehouse = decision.customer;
      admissions.set(request.raw, decision);
      // An aborted request still counts, as 499. The response's 'close', not the request's: Node
      // closes the request once its body is read, so every POST whose handler had not answered
      // yet was recorded as 499 (never billed) instead of its real status.
      reply.raw.once('close', () => decision.finish(reply.raw.writableEnded ? reply.statusCode : 499));
      return undefined;
    });
    // onSend runs before the payload goes out: the final status is recorded before the response completes.
    app.addHook('onSend', async (request, reply, payload) => {
      admissions.get(request.raw)?.finish(reply.statusCode);
      return payload;
    });
  };
  // Hooks apply outside the plugin's own context (what fastify-plugin's skip-override does).
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}
