import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Admission, Admitted, Denied } from '../decision.js';
import type { Meter } from '../meter.js';
import type { Refused, Verified } from '../verify/verifier.js';

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function sendDenial(res: ServerResponse, denied: Denied): void {
  res.writeHead(denied.status, { 'content-type': 'application/json', ...denied.headers });
  res.end(JSON.stringify(denied.body));
}

// The admission and the response's own writeHead ride on the response under symbols, so that one
// shared function serves every response instead of two closures made per request.
const ADMITTED = Symbol('gatehouse.admitted');
const WRITE_HEAD = Symbol('gatehouse.writeHead');
type MeteredResponse = ServerResponse & { [ADMITTED]?: Admitted; [WRITE_HEAD]?: (...args: unknown[]) => ServerResponse };

function writeHeadThenFinish(this: MeteredResponse, ...args: unknown[]): ServerResponse {
  const written = this[WRITE_HEAD]!.apply(this, args);
  this[ADMITTED]!.finish(this.statusCode);
  return written;
}

function finishOnClose(this: MeteredResponse): void {
  this[ADMITTED]!.finish(this.headersSent ? this.statusCode : 499);
}

/**
 * Records the final status of an admitted request whose handler (or the rest of its middleware
 * chain) has run as far as it runs without waiting. Nothing else can run between the handler's
 * return and this call, so a handler that answered synchronously has written its head already:
 * its status is recorded at once, with no hook and no listener on the response. Only an answer
 * still to come gets them (finishOnHead).
 */
export function finishWhenAnswered(res: ServerResponse, admitted: Admitted): void {
  if (res.headersSent) admitted.finish(res.statusCode);
  else finishOnHead(res, admitted);
}

/**
 * Records the final status when the response head is written: the status cannot change after
 * that, it is before the response completes (a crash after the answer cannot lose the usage), and
 * a streamed answer (SSE) counts even when the client hangs up mid-stream. Node writes an implicit
 * head through writeHead too. A connection closed before any head is recorded as 499.
 */
export function finishOnHead(res: ServerResponse, admitted: Admitted): void {
  const metered = res as MeteredResponse;
  metered[ADMITTED] = admitted;
  // end(), write() and flushHeaders() all go through this.writeHead when the head is implicit.
  metered[WRITE_HEAD] = res.writeHead as (...args: unknown[]) => ServerResponse;
  (res as { writeHead: unknown }).writeHead = writeHeadThenFinish;
  res.on('close', finishOnClose);
}

/**
 * One request header (`name` in lower case) read from the raw list. `req.headers` is built on
 * first read, every header of the request into a new object, and a hello-world handler never reads
 * it: the SDK made every request pay for it (issue 28). A header sent more than once is left to
 * `req.headers`, whose rule (first kept for some, joined for others) then decides as before.
 */
export function rawHeader(req: IncomingMessage, name: string): string | undefined {
  const raw = req.rawHeaders;
  let found: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const header = raw[i]!;
    if (header.length !== name.length || header.toLowerCase() !== name) continue;
    if (found !== undefined) return headerValue(req.headers[name]);
    found = raw[i + 1]!;
  }
  return found;
}

/**
 * The meter's decision for a node request: as it is when ready, a promise when it must wait. The
 * client's address is not passed: the meter does not use it, and reading it costs a getter call
 * on every request.
 */
export function admitNode(meter: Meter, req: IncomingMessage): Admission | Promise<Admission> {
  const key = rawHeader(req, meter.options.keyHeader);
  // Authorization matters only without a key: the refusal then says when a Bearer was sent instead.
  return meter.admitNow({ key, authorization: key ? undefined : rawHeader(req, 'authorization') });
}

/** Sends a verifier's refusal as JSON with its headers. */
export function sendRefusal(res: ServerResponse, refused: Refused): void {
  res.writeHead(refused.status, { 'content-type': 'application/json', ...refused.headers });
  res.end(JSON.stringify(refused.body));
}

/**
 * Sets what a verified request carries (`req.principal`, and `req.gatehouse` when metered) and, when
 * metered, records its final status once the handler (or the rest of the chain) has run as far
 * as it runs without waiting.
 */
export function acceptVerified(req: IncomingMessage, verified: Verified): void {
  req.principal = verified.principal;
  if (verified.customer) req.gatehouse = verified.customer;
}

export function finishVerified(res: ServerResponse, verified: Verified): void {
  if (verified.customer) finishWhenAnswered(res, verified as unknown as Admitted);
}

/** The client's address for the bad-key guard: Express's `req.ip` (which honours `trust proxy`) when there is one, else the socket's. */
export function clientAddressOf(req: IncomingMessage & { ip?: string }): string {
  return req.ip ?? req.socket.remoteAddress ?? '';
}
