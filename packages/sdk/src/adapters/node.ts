import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission } from '../decision.js';
import type { Meter } from '../meter.js';
import { admitNode, finishWhenAnswered, sendDenial } from './shared.js';

/**
 * Wraps a node:http handler: denied requests are answered here, admitted ones reach the handler
 * with `req.gatehouse` set. A handler that throws is answered 500, recorded as 500, and its error
 * goes to the meter's `onError`.
 * @example
 * http.createServer(withMeter(meter, (req, res) => res.end(`hello ${req.gatehouse!.id}`)));
 */
export function withMeter(meter: Meter, handler: (req: IncomingMessage, res: ServerResponse) => unknown) {
  const failed = (res: ServerResponse, error: unknown) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    if (!res.writableEnded) res.end(JSON.stringify({ error: 'internal_error' }));
    // Not thrown again: this runs in an http 'request' listener, where a rejection would end the process.
    meter.options.onError(error instanceof Error ? error : new Error(String(error)));
  };
  const serve = (decision: Admission, req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    if (!decision.ok) return sendDenial(res, decision);
    req.gatehouse = decision.customer;
    let answered: unknown;
    try {
      answered = handler(req, res);
    } catch (error) {
      failed(res, error); // answers 500 unless the head is out: either way the head is written now
    }
    finishWhenAnswered(res, decision);
    if (answered instanceof Promise) return answered.then(undefined, (error: unknown) => failed(res, error));
  };
  // Synchronous when the decision is: most requests never wait for a promise of the meter's.
  return (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const decision = admitNode(meter, req);
    return decision instanceof Promise ? decision.then((d) => serve(d, req, res)) : serve(decision, req, res);
  };
}
