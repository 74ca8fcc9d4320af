import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Meter } from '../meter.js';
import { admitNode, finishOnHead, sendDenial } from './shared.js';

/**
 * Wraps a node:http handler: denied requests are answered here, admitted ones reach the handler
 * with `req.gatehouse` set. A handler that throws is answered 500, recorded as 500, and its error
 * goes to the meter's `onError`.
 * @example
 * http.createServer(withMeter(meter, (req, res) => res.end(`hello ${req.gatehouse!.id}`)));
 */
export function withMeter(meter: Meter, handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const decision = await admitNode(meter, req);
    if (!decision.ok) return sendDenial(res, decision);
    req.gatehouse = decision.customer;
    finishOnHead(res, decision);
    try {
      await handler(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      if (!res.writableEnded) res.end(JSON.stringify({ error: 'internal_error' }));
      // Not thrown again: this runs in an http 'request' listener, where a rejection would end the process.
      meter.options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
}
