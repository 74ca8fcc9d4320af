import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admitted, Denied } from '../decision.js';
import type { Meter } from '../meter.js';

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function sendDenial(res: ServerResponse, denied: Denied): void {
  res.writeHead(denied.status, { 'content-type': 'application/json', ...denied.headers });
  res.end(JSON.stringify(denied.body));
}

/**
 * Records the final status when the response head is written: the status cannot change after
 * that, it is before the response completes (a crash after the answer cannot lose the usage), and
 * a streamed answer (SSE) counts even when the client hangs up mid-stream. Node writes an implicit
 * head through writeHead too. A connection closed before any head is recorded as 499.
 */
export function finishOnHead(res: ServerResponse, admitted: Admitted): void {
  const writeHead = res.writeHead as (...args: unknown[]) => ServerResponse;
  // end(), write() and flushHeaders() all go through this.writeHead when the head is implicit.
  (res as { writeHead: (...args: unknown[]) => ServerResponse }).writeHead = function (this: ServerResponse, ...args: unknown[]) {
    const written = writeHead.apply(this, args);
    admitted.finish(res.statusCode);
    return written;
  };
  res.once('close', () => admitted.finish(res.headersSent ? res.statusCode : 499));
}

export async function admitNode(meter: Meter, req: IncomingMessage) {
  return meter.admit({ key: headerValue(req.headers[meter.options.keyHeader]), clientAddress: req.socket.remoteAddress ?? '' });
}
