import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission } from '../decision.js';
import type { Meter } from '../meter.js';
import type { Verifier, VerifierResult } from '../verify/verifier.js';
import { acceptVerified, admitNode, clientAddressOf, finishVerified, finishWhenAnswered, rawHeader, sendDenial, sendRefusal } from './shared.js';

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

/** What {@link verify} checks besides the credential. */
export interface VerifyOptions {
  /** Permissions the routes behind it need: a credential lacking one gets 403 `insufficient_scope`. */
  scopes?: readonly string[];
}

/**
 * Express middleware that admits requests carrying an access token or an end-user API key as
 * `Authorization: Bearer`, with the permissions `scopes` names; refusals are answered here.
 * Admitted requests get `req.principal` (and `req.gatehouse` when the verifier meters).
 * @example
 * app.get('/whoami', verify(verifier, { scopes: ['forecast:read'] }), (req, res) => res.json(req.principal));
 */
export function verify(verifier: Verifier, options: VerifyOptions = {}) {
  const scopes = options.scopes ?? [];
  const serve = (result: VerifierResult, req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    if (!result.ok) return sendRefusal(res, result);
    acceptVerified(req, result);
    try {
      next();
    } finally {
      finishVerified(res, result);
    }
  };
  return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
    const result = verifier.checkNow({ authorization: rawHeader(req, 'authorization'), clientAddress: clientAddressOf(req), scopes });
    if (result instanceof Promise) result.then((r) => serve(r, req, res, next), next);
    else serve(result, req, res, next);
  };
}
