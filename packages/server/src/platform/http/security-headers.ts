import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The response headers helmet sets for these options, computed once. @fastify/helmet rebuilt the
 * middleware (CSP directives parsed again) on every request, two hooks deep, and the profile of
 * the token endpoint showed it (issue 28); the headers never depend on the request, so they are
 * read once here by running helmet against a response that records them.
 */
export function securityHeaders(options: HelmetOptions): [string, string][] {
  const headers = new Map<string, string>();
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers.set(name.toLowerCase(), Array.isArray(value) ? value.join(', ') : String(value));
    },
    removeHeader(name: string) {
      headers.delete(name.toLowerCase());
    },
    getHeader: (name: string) => headers.get(name.toLowerCase()),
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  return [...headers];
}

/**
 * What a JSON endpoint of the sign-in service keeps of them (`config: { jsonOnly: true }`): a page's
 * headers (CSP, framing, referrer, cross-origin isolation) say nothing to a client that reads JSON;
 * nosniff and HSTS still do.
 */
export function jsonHeaders(pageHeaders: [string, string][]): [string, string][] {
  return pageHeaders.filter(([name]) => name === 'x-content-type-options' || name === 'strict-transport-security');
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A JSON endpoint: it gets jsonHeaders() rather than every page header. */
    jsonOnly?: boolean;
  }
}
