import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission } from '../decision.js';
import type { Meter } from '../meter.js';
import type { Verifier, VerifierResult } from '../verify/verifier.js';
import { acceptVerified, admitNode, clientAddressOf, finishVerified, finishWhenAnswered, rawHeader, sendDenial, sendRefusal } from './shared.js';

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

/** What {@link verify} checks besides the credential. */
export interface VerifyOptions {
  /** Permissions every request to the handler needs: a credential lacking one gets 403 `insufficient_scope`. */
  scopes?: readonly string[];
  /** Where a throwing handler's error goes (it is answered 500). @default console.error */
  onError?: (error: Error) => void;
}

/**
 * Wraps a node:http handler: requests are admitted by an access token or an end-user API key
 * (`Authorization: Bearer`), refusals are answered here, admitted ones reach the handler with
 * `req.principal` (and `req.gatehouse` when the verifier meters).
 * @example
 * http.createServer(verify(verifier, (req, res) => res.end(req.principal!.sub), { scopes: ['read:weather'] }));
 */
export function verify(verifier: Verifier, handler: (req: IncomingMessage, res: ServerResponse) => unknown, options: VerifyOptions = {}) {
  const scopes = options.scopes ?? [];
  const onError = options.onError ?? ((error: Error) => console.error(error));
  const failed = (res: ServerResponse, error: unknown) => {
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
    if (!res.writableEnded) res.end(JSON.stringify({ error: 'internal_error' }));
    onError(error instanceof Error ? error : new Error(String(error)));
  };
  const serve = (result: VerifierResult, req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    if (!result.ok) return sendRefusal(res, result);
    acceptVerified(req, result);
    let answered: unknown;
    try {
      answered = handler(req, res);
    } catch (error) {
      failed(res, error);
    }
    finishVerified(res, result);
    if (answered instanceof Promise) return answered.then(undefined, (error: unknown) => failed(res, error));
  };
  return (req: IncomingMessage, res: ServerResponse): void | Promise<void> => {
    const result = verifier.checkNow({ authorization: rawHeader(req, 'authorization'), clientAddress: clientAddressOf(req), scopes });
    return result instanceof Promise ? result.then((r) => serve(r, req, res), (error: unknown) => failed(res, error)) : serve(result, req, res);
  };
}
