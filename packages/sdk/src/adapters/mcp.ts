import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MeteredCustomer } from '../decision.js';
import type { Meter } from '../meter.js';
import { bearerToken, protectResource, type ProtectedResource, type ProtectedResourceOptions } from '../signin/protected-resource.js';
import type { Verifier } from '../verify/verifier.js';
import { acceptVerified, finishOnHead, finishVerified, headerValue, sendDenial, sendRefusal } from './shared.js';

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

// ---- Sign-in: MCP servers agents sign in to (MCP authorization spec; spec 4.3)

/** Options of {@link withMcpSignIn}. */
export interface McpSignInOptions extends ProtectedResourceOptions {
  /**
   * Permissions a tool needs, by tool name: a `tools/call` of that tool with an access token
   * lacking one is answered 403 `insufficient_scope` naming it, before the MCP server sees it.
   * Requests with customer keys are not checked (keys carry no permissions).
   * @example { forecast: 'read:weather', 'set-station': ['read:weather', 'write:weather'] }
   */
  toolPermissions?: Record<string, string | readonly string[]>;
  /** Largest request body read to find the tools called, in bytes; larger ones get 413. @default 4_194_304 */
  maxBodyBytes?: number;
}

type BodyCarrier = IncomingMessage & { body?: unknown; rawBody?: Buffer };

class BodyTooLarge extends Error {}

/**
 * The request's JSON body, read once. The MCP transport (through @hono/node-server) takes a body
 * already read from `rawBody`, and a handler may pass `req.body` as the parsed body; a body a
 * framework parsed before us is used as it is.
 */
async function jsonBody(req: BodyCarrier, maxBytes: number): Promise<unknown> {
  if (req.body !== undefined) return req.body;
  if (req.rawBody instanceof Buffer) return parseOrUndefined(req.rawBody);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new BodyTooLarge();
    chunks.push(chunk as Buffer);
  }
  req.rawBody = Buffer.concat(chunks);
  const parsed = parseOrUndefined(req.rawBody);
  if (parsed !== undefined) req.body = parsed;
  return parsed;
}

function parseOrUndefined(raw: Buffer): unknown {
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined; // the transport answers the parse error itself
  }
}

/** The permissions the tools called in a JSON-RPC message (or batch) need. */
function permissionsOfCalls(body: unknown, toolPermissions: Map<string, readonly string[]>): string[] {
  const needed = new Set<string>();
  for (const message of Array.isArray(body) ? body : [body]) {
    const call = message as { method?: unknown; params?: { name?: unknown } } | null;
    if (call?.method !== 'tools/call' || typeof call.params?.name !== 'string') continue;
    for (const permission of toolPermissions.get(call.params.name) ?? []) needed.add(permission);
  }
  return [...needed];
}

function serveMetadata(guard: ProtectedResource, req: IncomingMessage, res: ServerResponse): Promise<void> | void {
  // Browser-based MCP clients read the metadata across origins; it is public and carries no credentials.
  const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'mcp-protocol-version' };
  if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
  if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET', ...cors }).end();
  return guard.metadata().then((metadata) => {
    if (!metadata) return void res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '5', ...cors }).end(JSON.stringify({ error: 'unavailable', message: 'The service cannot check tokens right now.' }));
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300', ...cors }).end(req.method === 'HEAD' ? undefined : JSON.stringify(metadata));
  });
}

/**
 * An MCP server over streamable HTTP that agents sign in to: wraps the node:http (or Express)
 * handler that passes requests to `StreamableHTTPServerTransport.handleRequest`, like
 * {@link withMcpMeter}, and also:
 * - serves the protected resource metadata (RFC 9728) at `/.well-known/oauth-protected-resource`
 *   and at its form suffixed with the MCP endpoint's path, naming the API's issuer;
 * - answers requests without a credential 401 with `WWW-Authenticate: Bearer resource_metadata=…`,
 *   which is how MCP clients find where to sign in;
 * - verifies access tokens locally (spec 4.3) and meters each request as the customer the
 *   token's person belongs to (403 `no_customer` for a person who belongs to none);
 * - answers 403 `insufficient_scope` to a tool call whose token lacks a permission of `toolPermissions`.
 * A request with an `Authorization` header is judged by that header alone; customer keys keep
 * working, in the meter's key header or as `Authorization: Bearer <key>`. Tool handlers read the
 * customer with {@link customerOf}.
 * @example
 * http.createServer(withMcpSignIn(meter, mcpHandler, { resource: 'https://mcp.example.com/mcp', toolPermissions: { forecast: 'read:weather' } }));
 */
export function withMcpSignIn<Req extends IncomingMessage, Res extends ServerResponse>(
  meter: Meter,
  handler: (req: McpRequest<Req>, res: Res) => unknown,
  options: McpSignInOptions = {},
): ((req: Req, res: Res) => Promise<void>) & { guard: ProtectedResource } {
  const toolPermissions = new Map(Object.entries(options.toolPermissions ?? {}).map(([tool, p]) => [tool, typeof p === 'string' ? [p] : [...p]] as const));
  // A 401 names what the tools need (MCP 2026-07-28), unless told otherwise.
  const guard = protectResource(meter, { challengeScopes: [...new Set([...toolPermissions.values()].flat())], ...options });
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const resourceUrl = new URL(guard.resource);
  const serve = async (req: Req, res: Res): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (guard.metadataPaths.includes(path)) return serveMetadata(guard, req, res);
    const keyHeader = meter.options.keyHeader;
    const scopes = toolPermissions.size > 0 && req.method === 'POST' ? async () => permissionsOfCalls(await jsonBody(req, maxBodyBytes), toolPermissions) : [];
    let decision;
    try {
      decision = await guard.admit({
        authorization: headerValue(req.headers.authorization),
        key: keyHeader === 'authorization' ? undefined : headerValue(req.headers[keyHeader]),
        clientAddress: req.socket.remoteAddress ?? '',
        scopes,
      });
    } catch (error) {
      if (!(error instanceof BodyTooLarge)) throw error;
      return void res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ error: 'too_large', message: `The request body is larger than ${maxBodyBytes} bytes.` }));
    }
    if (!decision.ok) return sendDenial(res, decision);
    const request = req as McpRequest<Req>;
    const token = decision.token;
    const principal = decision.principal;
    request.auth = token
      ? { token: bearerToken(headerValue(req.headers.authorization)) ?? '', clientId: token.clientId, scopes: token.scopes, expiresAt: token.expiresAt, resource: resourceUrl, extra: { [customerField]: decision.customer, person: token.personId } }
      : principal
        ? { token: bearerToken(headerValue(req.headers.authorization)) ?? '', clientId: principal.keyId ?? '', scopes: principal.scope, resource: resourceUrl, extra: { [customerField]: decision.customer, person: principal.sub, principal } }
        : authInfoFor(decision.customer, bearerToken(headerValue(req.headers.authorization)) ?? headerValue(req.headers[keyHeader]) ?? '', request.auth);
    if (principal) request.principal = principal;
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
  return Object.assign(serve, { guard });
}

// ---- verify: an MCP server whose people send end-user keys or access tokens (issue 15)

/** Options of the MCP {@link verify}. */
export interface McpVerifyOptions {
  /** Permissions a tool needs, by tool name, as for {@link withMcpSignIn}: checked for keys and tokens alike. */
  toolPermissions?: Record<string, string | readonly string[]>;
  /** Largest request body read to find the tools called, in bytes; larger ones get 413. @default 4_194_304 */
  maxBodyBytes?: number;
  /** Where a throwing handler's error goes (it is answered 500). @default console.error */
  onError?: (error: Error) => void;
}

/**
 * Wraps a streamable-HTTP MCP handler like {@link withMcpSignIn}, with a verifier instead of a
 * meter's snapshot: every request needs an end-user API key or an access token for this server
 * as `Authorization: Bearer`; a `tools/call` needs the tool's permissions of `toolPermissions`.
 * Serves the protected resource metadata (RFC 9728) naming the verifier's issuer, so agents can
 * sign in, and adds its address to 401 and 403 challenges. Tool handlers find the principal in
 * `extra.authInfo.extra.principal` (and the customer with {@link customerOf} when the verifier meters).
 * @example
 * http.createServer(verify(verifier, mcpHandler, { toolPermissions: { forecast: 'read:weather' } }));
 */
export function verify<Req extends IncomingMessage, Res extends ServerResponse>(
  verifier: Verifier,
  handler: (req: McpRequest<Req>, res: Res) => unknown,
  options: McpVerifyOptions = {},
): (req: Req, res: Res) => Promise<void> {
  const toolPermissions = new Map(Object.entries(options.toolPermissions ?? {}).map(([tool, p]) => [tool, typeof p === 'string' ? [p] : [...p]] as const));
  const maxBodyBytes = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const onError = options.onError ?? ((error: Error) => console.error(error));
  const resourceUrl = new URL(verifier.resource);
  const path = resourceUrl.pathname === '/' ? '' : resourceUrl.pathname.replace(/\/$/, '');
  const metadataPaths = path ? ['/.well-known/oauth-protected-resource' + path, '/.well-known/oauth-protected-resource'] : ['/.well-known/oauth-protected-resource'];
  const metadataUrl = resourceUrl.origin + metadataPaths[0];
  const scopesSupported = () => {
    const fromSnapshot = verifier.meter?.state.signin?.servers.find((s) => s.resource === verifier.resource)?.permissions;
    const all = fromSnapshot && fromSnapshot.length > 0 ? [...fromSnapshot] : [...new Set([...toolPermissions.values()].flat())];
    return all.length > 0 ? all : ['openid'];
  };
  return async (req, res) => {
    const url = (req.url ?? '/').split('?')[0]!;
    if (metadataPaths.includes(url)) {
      const cors = { 'access-control-allow-origin': '*', 'access-control-allow-methods': 'GET', 'access-control-allow-headers': 'mcp-protocol-version' };
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      if (req.method !== 'GET' && req.method !== 'HEAD') return void res.writeHead(405, { allow: 'GET', ...cors }).end();
      const metadata = { resource: verifier.resource, authorization_servers: [verifier.issuer], scopes_supported: scopesSupported(), bearer_methods_supported: ['header'] };
      return void res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=300', ...cors }).end(req.method === 'HEAD' ? undefined : JSON.stringify(metadata));
    }
    let scopes: string[] = [];
    if (toolPermissions.size > 0 && req.method === 'POST') {
      try {
        scopes = permissionsOfCalls(await jsonBody(req, maxBodyBytes), toolPermissions);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        return void res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ error: 'too_large', message: `The request body is larger than ${maxBodyBytes} bytes.` }));
      }
    }
    const authorization = headerValue(req.headers.authorization);
    const result = await verifier.check({ authorization, clientAddress: req.socket.remoteAddress ?? '', scopes });
    if (!result.ok) {
      const challenge = result.headers['www-authenticate'];
      // A 401 names the scopes to sign in with (MCP 2026-07-28): what the tools need, else every
      // permission of the server; a 403's challenge already names every scope the request lacks.
      const scope = result.status === 401 ? `, scope="${(toolPermissions.size > 0 ? [...new Set([...toolPermissions.values()].flat())] : scopesSupported()).join(' ')}"` : '';
      const headers = challenge ? { ...result.headers, 'www-authenticate': `${challenge}${scope}, resource_metadata="${metadataUrl}"` } : result.headers;
      return sendRefusal(res, { ...result, headers });
    }
    const request = req as McpRequest<Req>;
    const principal = result.principal;
    request.auth = {
      token: bearerToken(authorization) ?? '',
      clientId: principal.clientId ?? principal.keyId ?? '',
      scopes: principal.scope,
      resource: resourceUrl,
      extra: { principal, person: principal.sub, ...(result.customer ? { [customerField]: result.customer } : {}) },
    };
    acceptVerified(request, result);
    finishVerified(res, result);
    try {
      await handler(request, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      if (!res.writableEnded) res.end(JSON.stringify({ error: 'internal_error' }));
      onError(error instanceof Error ? error : new Error(String(error)));
    }
  };
}
