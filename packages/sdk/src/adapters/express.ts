import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Meter } from '../meter.js';
import { admitNode, finishOnHead, sendDenial } from './shared.js';

/**
 * Express (or Connect) middleware: answers denied requests, sets `req.gatehouse` on admitted ones.
 * @example
 * app.use(gatehouse(createMeter()));
 * app.get('/forecast', (req, res) => res.json({ customer: req.gatehouse!.id }));
 */
export function gatehouse(meter: Meter) {
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    admitNode(meter, req).then((decision) => {
      if (!decision.ok) return sendDenial(res, decision);
      req.gatehouse = decision.customer;
      finishOnHead(res, decision);
      next();
    }, next);
  };
}
