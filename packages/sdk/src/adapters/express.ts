import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission } from '../decision.js';
import type { Meter } from '../meter.js';
import { admitNode, finishWhenAnswered, sendDenial } from './shared.js';

/**
 * Express (or Connect) middleware: answers denied requests, sets `req.gatehouse` on admitted ones.
 * @example
 * app.use(gatehouse(createMeter()));
 * app.get('/forecast', (req, res) => res.json({ customer: req.gatehouse!.id }));
 */
export function gatehouse(meter: Meter) {
  const serve = (decision: Admission, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    if (!decision.ok) return sendDenial(res, decision);
    req.gatehouse = decision.customer;
    // The rest of the chain runs inside next() as far as it can without waiting.
    try {
      next();
    } finally {
      finishWhenAnswered(res, decision);
    }
  };
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const decision = admitNode(meter, req);
    if (decision instanceof Promise) decision.then((d) => serve(d, req, res, next), next);
    else serve(decision, req, res, next);
  };
}
