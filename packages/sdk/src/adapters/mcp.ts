import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';
import { finishOnHead, headerValue, sendDenial } from './shared.js';

/**
 * The MCP SDK's `AuthInfo` (`@modelcontextprotocol/sdk/server/auth/types.js`), written out so this
 * package does not depend on the MCP SDK. `StreamableHTTPServerTransport.handleRequest` reads it
 * from `req.auth` and hands it to every request handler as `extra.authInfo`.
 */
export interface McpAuthInfo {
  /** The credential the request carried: here the customer's API key. Never log it. */
  token: string;
  /** Here the Gatehouse customer id (`cus_…`). */
  clientId: string;
  scopes: string[];
  expiresAt?: number;
  resource?: URL;
  /** `extra.gatehouse` holds the {@link MeteredCustomer}; read it with {@link customerOf}. */
  extra?: Record<string, unknown>;
}

/** A node:http (or Express) request as the MCP transport reads it. */
export type McpRequest<Req extends IncomingMessage = IncomingMessage> = Req & { auth?: McpAuthInfo };

const customerField = 'gatehouse';

/** RFC 6750 section 2.1: `Authorization: Bearer <token>`, the scheme compared case-insensitively. */
function bearerToken(authorization: string | undefined): string | undefined {
  return authorization ? /^Bearer +(\S+) *$/i.exec(authorization)?.[1] : undefined;
}

/**
 * The key an MCP request carries: the meter's key header first, else `Authorization: Bearer`,
 * which is how MCP clients send credentials (MCP authorization spec, "Token Requirements").
 */
function mcpKeyOf(req: IncomingMessage, keyHeader: string): string | undefined {
  const fromHeader = keyHeader === 'authorization' ? undefined : headerValue(req.headers[keyHeader]);
  return fromHeader || bearerToken(headerValue(req.headers.authorization));
}

/** An auth already set by an earlier middleware (OAuth, say) keeps its token and client id. */
function authInfoFor(customer: MeteredCustomer, key: string, earlier: McpAuthInfo | undefined): McpAuthInfo {
  if (earlier) return { ...earlier, extra: { ...earlier.extra, [customerField]: customer } };
  return { token: key, clientId: customer.id, scopes: [], extra: { [customerField]: customer } };
}

/**
 * Meters a streamable-HTTP MCP endpoint: wraps the node:http (or Express) handler that passes
 * requests to `StreamableHTTPServerTransport.handleRequest`. Every HTTP request (POST, GET and
 * DELETE) is admitted by the meter, with the key from the meter's key header or else from
 * `Authorization: Bearer <key>`. Denied requests are answered here with the denial's status,
 * headers (401 keeps WWW-Authenticate) and JSON body. Admitted ones reach the handler with
 * `req.auth` set, which the transport hands to tool handlers as `extra.authInfo` (read the
 * customer with {@link customerOf}); their status is recorded when the response head is written.
 * A handler that throws is answered 500, recorded as 500, and its error goes to the meter's `onError`.
 * @example
 * http.createServer(withMcpMeter(meter, async (req, res) => {
 *   const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
 *   await buildServer().connect(transport);
 *   await transport.handleRequest(req, res);
 * }));
 */
export function withMcpMeter<Req extends IncomingMessage, Res extends ServerResponse>(
  meter: Meter,
  handler: (req: McpRequest<Req>, res: Res) => unknown,
): (req: Req, res: Res) => Promise<void> {
  return async (req, res) => {
    const key = mcpKeyOf(req, meter.options.keyHeader);
    const decision = await meter.admit({ key, clientAddress: req.socket.remoteAddress ?? '' });
    if (!decision.ok) return sendDenial(res, decision);
    const request = req as McpRequest<Req>;
    request.auth = authInfoFor(decision.customer, key ?? '', request.auth);
    request.gatehouse = decision.customer;
    finishOnHead(res, decision);
    try {
      await handler(request, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      if (!res.writableEnded) res.end(JSON.stringify({ error: 'internal_error' }));
      meter.options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
}

function isMeteredCustomer(value: unknown): value is MeteredCustomer {
  return typeof value === 'object' && value !== null && typeof (value as MeteredCustomer).id === 'string';
}

/**
 * The metered customer of the request a tool (or resource, or prompt) handler is answering.
 * Throws when the request did not come through {@link withMcpMeter}: that is a wiring bug.
 * @example
 * server.registerTool('balance', { description: 'Your balance' }, (extra) => ({
 *   content: [{ type: 'text', text: String(customerOf(extra).balanceMicro) }],
 * }));
 */
export function customerOf(extra: { authInfo?: { extra?: Record<string, unknown> } | undefined }): MeteredCustomer {
  const customer = extra.authInfo?.extra?.[customerField];
  if (!isMeteredCustomer(customer)) {
    throw new Error('gatehouse: this MCP request has no metered customer; wrap the endpoint with withMcpMeter');
  }
  return customer;
}
