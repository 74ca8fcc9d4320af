import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { classifyHost } from './host.js';
import { networkOf } from './network.js';
import { endQuietConnectionsOnClose } from './quiet-connections.js';

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
  /** To tell the console from an API's hosts when answering a refused connection. */
  consoleHost: string;
  portalDomain: string;
}

// Fastify's default; longer than the usual load balancer's idle timeout (60 s), so it is the
// balancer that closes an idle connection, never us in the middle of its next request.
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

const REFUSAL_DETAIL = 'Too many connections from your address are open; close one or try again shortly';
// Each face answers in its own shape (issue 26): the console problem+json, an API's hosts (sign-in
// service and portal, or a name that may become one) OAuth's {error, error_description}, which is
// what OAuth clients read there.
const REFUSAL_BODIES = {
  console: { type: 'application/problem+json', body: JSON.stringify({ type: 'urn:gatehouse:problem:rate_limited', title: 'Too many requests', status: 429, detail: REFUSAL_DETAIL }) },
  tenant: { type: 'application/json', body: JSON.stringify({ error: 'temporarily_unavailable', error_description: REFUSAL_DETAIL }) },
};

/**
 * How long a connection over the cap may take to send its request line and headers, which say
 * which face it wants an answer from. It holds no place among the address's connections meanwhile,
 * and is cut with the console's answer when the time is up, so a slow client gains nothing by it.
 */
export const REFUSED_WAIT_MS = 1000;

/**
 * Fastify's `serverFactory`: Node's HTTP server with the limits a reverse proxy would put in front
 * of it (nginx's client_header_timeout, a whole-request bound, limit_conn).
 */
export function httpServerFactory(limits: ServerLimits) {
  return (handler: (request: IncomingMessage, response: ServerResponse) => void): Server => {
    const headersTimeoutMs = limits.headersTimeoutS * 1000;
    const requestTimeoutMs = limits.requestTimeoutS * 1000;
    // Connections over the cap, each with the timer that cuts it if no request comes.
    const refused = new WeakMap<Socket, NodeJS.Timeout>();
    const faceOf = (host: string | undefined) => (classifyHost(host, limits.consoleHost, limits.portalDomain).kind === 'console' ? 'console' : 'tenant');
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
      (request, response) => {
        // A refused connection's request is answered without reaching the app, its body unread.
        const timer = refused.get(request.socket);
        if (timer !== undefined) {
          clearTimeout(timer);
          return refuse(request.socket, faceOf(request.headers.host), response);
        }
        handler(request, response);
      },
    );
    // Behind a trusted proxy every connection comes from the proxy, which pools them for all its
    // clients: a cap per address would cap the whole service. The proxy caps its clients.
    if (limits.maxConnectionsPerAddress > 0 && !limits.trustProxy) {
      const connections = new ConnectionsPerNetwork(limits.maxConnectionsPerAddress);
      server.on('connection', (socket: Socket) => {
        const network = socket.remoteAddress ? connections.open(socket.remoteAddress) : null;
        if (network === null) {
          const timer = setTimeout(() => refuse(socket, 'console'), REFUSED_WAIT_MS);
          timer.unref();
          refused.set(socket, timer);
          socket.once('close', () => clearTimeout(timer));
          return;
        }
        socket.once('close', () => connections.close(network));
      });
    }
    endQuietConnectionsOnClose(server);
    return server;
  };
}

/**
 * Answers 429 in the face's shape and hangs up. Through the response when the request was read;
 * straight on the socket when none came in time. A client still sending may see a reset instead.
 */
function refuse(socket: Socket, face: keyof typeof REFUSAL_BODIES, response?: ServerResponse): void {
  const { type, body } = REFUSAL_BODIES[face];
  if (response) {
    response.shouldKeepAlive = false;
    response.writeHead(429, { 'content-type': type, 'content-length': Buffer.byteLength(body), 'retry-after': '1', 'cache-control': 'no-store', connection: 'close' });
    response.end(body, () => socket.destroySoon());
    return;
  }
  if (socket.destroyed || socket.writableEnded) return;
  socket.end(['HTTP/1.1 429 Too Many Requests', `Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(body)}`, 'Retry-After: 1', 'Connection: close', '', body].join('\r\n'));
  socket.destroySoon();
}
