// Sends a hostile request byte for byte: node:http, so a bad percent-encoding in the path, a Host
// header naming a tenant, or a body that is not JSON go out exactly as generated (fetch would
// normalize the URL or refuse some of it).
import { Agent, request as httpRequest } from 'node:http';

/** A request the suite generated, and why it must be refused. */
export interface HostileRequest {
  method: string;
  /** Path and query exactly as sent. */
  target: string;
  headers: Record<string, string>;
  body?: string;
  /** Who it is sent as: `anonymous`, `owner session`, `admin key`, `sdk secret`... */
  credential: string;
  /** The family of hostile input (`body NUL`, `path bad percent`...), for grouping failures. */
  family: string;
  /** What exactly is wrong with it (`NUL in body.email`). */
  poison: string;
  /** Refused by a rule of the spec or of issue 11 (schema, well-formed text, credentials). */
  sure: boolean;
}

export interface HostileAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as received (its first 1 MB), and its full size in bytes. */
  text: string;
  bytes: number;
  /** Only the first megabyte of the body was kept. */
  truncated: boolean;
  ms: number;
  /** Set when no answer came: the connection was reset or timed out. */
  error?: string;
}

// Few sockets kept alive: the fuzz walks thousands of requests one after another.
const agent = new Agent({ keepAlive: true, maxSockets: 2 });

/** A hung request is reported as such rather than running into node:test's timeout. */
const NO_ANSWER_AFTER_MS = 60_000;
const KEEP_BYTES = 1024 * 1024;

export function send(port: number, request: HostileRequest, host?: string): Promise<HostileAnswer> {
  const started = performance.now();
  const headers: Record<string, string> = { ...request.headers };
  if (host) headers.host = host;
  if (request.body !== undefined) headers['content-length'] = String(Buffer.byteLength(request.body));
  return new Promise((resolve) => {
    let settled = false;
    const finish = (answer: Omit<HostileAnswer, 'ms'>) => {
      if (settled) return;
      settled = true;
      resolve({ ...answer, ms: performance.now() - started });
    };
    const outgoing = httpRequest({ host: '127.0.0.1', port, method: request.method, path: request.target, headers, agent }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        if (bytes < KEEP_BYTES) chunks.push(chunk);
        bytes += chunk.length;
      });
      response.on('end', () => finish({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8'), bytes, truncated: bytes > KEEP_BYTES }));
      response.on('error', (error) => finish({ status: 0, headers: {}, text: '', bytes: 0, truncated: false, error: String(error) }));
    });
    outgoing.setTimeout(NO_ANSWER_AFTER_MS, () => outgoing.destroy(new Error(`no answer within ${NO_ANSWER_AFTER_MS / 1000} s`)));
    // A server may answer (413, 400) and close before the whole body is written: the answer counts.
    outgoing.on('error', (error) => finish({ status: 0, headers: {}, text: '', bytes: 0, truncated: false, error: error.message }));
    outgoing.end(request.body);
  });
}

/** A short, replayable description of a request (long parts elided with their size). */
export function describeRequest(request: HostileRequest, host?: string): string {
  const elide = (text: string, keep: number) => {
    const shown = text.length > keep ? `${text.slice(0, keep)}…(${text.length} chars)` : text;
    return JSON.stringify(shown).slice(1, -1);
  };
  const headers = Object.entries({ ...(host ? { host } : {}), ...request.headers })
    .filter(([name]) => name !== 'cookie' && name !== 'x-requested-with')
    .map(([name, value]) => `${name}: ${name === 'authorization' && /^Bearer (ghw|mas)_/.test(value) ? 'Bearer <real credential>' : elide(value, 80)}`);
  const lines = [`${request.method} ${elide(request.target, 200)}   [as ${request.credential}]`, ...headers];
  if (request.body !== undefined) lines.push(elide(request.body, 240));
  return lines.join('\n      ');
}
