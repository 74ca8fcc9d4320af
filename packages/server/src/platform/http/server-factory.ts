import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { networkOf } from './network.js';

/** Open connections counted per client network (an IPv4 address, an IPv6 /64). */
export class ConnectionsPerNetwork {
  readonly #open = new Map<string, number>();
  constructor(private readonly max: number) {}

  /** Counts a new connection from `address`: its network, or null when the network is at the cap. */
  open(address: string): string | null {
    const network = networkOf(address);
    const count = this.#open.get(network) ?? 0;
    if (count >= this.max) return null;
    this.#open.set(network, count + 1);
    return network;
  }

  close(network: string): void {
    const count = (this.#open.get(network) ?? 1) - 1;
    // Forgotten at zero, so the map holds only networks with a connection open.
    if (count > 0) this.#open.set(network, count);
    else this.#open.delete(network);
  }

  get size(): number {
    return this.#open.size;
  }
}

export interface ServerLimits {
  headersTimeoutS: number;
  requestTimeoutS: number;
  /** 0: no cap. */
  maxConnectionsPerAddress: number;
  trustProxy: boolean;
}

// Fastify's default; longer than the usual load balancer's idle timeout (60 s), so it is the
// balancer that closes an idle connection, never us in the middle of its next request.
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

const REFUSAL_BODY = JSON.stringify({
  type: 'urn:gatehouse:problem:rate_limited',
  title: 'Too many requests',
  status: 429,
  detail: 'Too many connections from your address are open; close one or try again shortly',
});
const REFUSAL = [
  'HTTP/1.1 429 Too Many Requests',
  'Content-Type: application/problem+json',
  `Content-Length: ${Buffer.byteLength(REFUSAL_BODY)}`,
  'Retry-After: 1',
  'Connection: close',
  '',
  REFUSAL_BODY,
].join('\r\n');

/**
 * Fastify's `serverFactory`: Node's HTTP server with the limits a reverse proxy would put in front
 * of it (nginx's client_header_timeout, a whole-request bound, limit_conn).
 */
export function httpServerFactory(limits: ServerLimits) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void): Server => {
    const headersTimeoutMs = limits.headersTimeoutS * 1000;
    const requestTimeoutMs = limits.requestTimeoutS * 1000;
    const server = createServer(
      {
        // Both are measured from the request's first byte (headers alone, then headers and body)
        // and answered 408 with the connection closed. A connection that sends nothing at all is
        // cut at the headers timeout as well.
        headersTimeout: headersTimeoutMs,
        requestTimeout: requestTimeoutMs,
        // Node enforces both only when it sweeps its connections (every 30 s by default, which
        // let a 60 s limit run to 90 s): sweep often enough that a limit is kept to within a
        // quarter of itself, and at least every second.
        connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(Math.min(headersTimeoutMs, requestTimeoutMs) / 4))),
        keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      },
      handler,
    );
    // Behind a trusted proxy every connection comes from the proxy, which pools them for all its
    // clients: a cap per address would cap the whole service. The proxy caps its clients.
    if (limits.maxConnectionsPerAddress > 0 && !limits.trustProxy) {
      const connections = new ConnectionsPerNetwork(limits.maxConnectionsPerAddress);
      server.on('connection', (socket: Socket) => {
        const network = socket.remoteAddress ? connections.open(socket.remoteAddress) : null;
        if (network === null) return refuse(socket);
        socket.once('close', () => connections.close(network));
      });
    }
    return server;
  };
}

/**
 * Answers 429 at once and hangs up, without waiting for the request: a refused connection must
 * not hold a place while its client sends slowly. A client still sending may see a reset instead.
 */
function refuse(socket: Socket): void {
  socket.end(REFUSAL);
  socket.destroySoon();
}
