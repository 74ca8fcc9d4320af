import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admitted, Denied, MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';

declare module 'node:http' {
  interface IncomingMessage {
    /** The metered customer, set by the Gatehouse adapters on admitted requests. */
    gatehouse?: MeteredCustomer;
  }
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function sendDenial(res: ServerResponse, denied: Denied): void {
  res.writeHead(denied.status, { 'content-type': 'application/json', ...denied.headers });
  res.end(JSON.stringify(denied.body));
}

/**
 * Records the final status when the response is ended: before it completes, so a crash after the
 * answer cannot lose the usage. A connection closed before any answer is recorded as 499 (never
 * billed unless the API bills 499).
 */
export function finishOnEnd(res: ServerResponse, admitted: Admitted): void {
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  (res as { end: (...args: unknown[]) => ServerResponse }).end = (...args: unknown[]) => {
    admitted.finish(res.statusCode);
    return end(...args);
  };
  res.once('close', () => admitted.finish(res.writableEnded ? res.statusCode : 499));
}

export async function admitNode(meter: Meter, req: IncomingMessage) {
  return meter.admit({ key: headerValue(req.headers[meter.options.keyHeader]), clientAddress: req.socket.remoteAddress ?? '' });
}
