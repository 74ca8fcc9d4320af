import type { FastifyInstance } from 'fastify';

/** No body we accept nests deeper than a few levels; this leaves room and stops abuse. */
export const MAX_JSON_DEPTH = 32;

/** How deep a JSON text nests, stopping as soon as it passes `limit`; strings are skipped over. */
export function jsonDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

export class JsonTooDeep extends Error {
  readonly statusCode = 400;
  readonly code = 'GH_JSON_TOO_DEEP';
  constructor() {
    super(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
}

/**
 * Fastify's JSON parser (with its prototype-poisoning checks), behind a depth limit: every walk
 * over a parsed body (validation, the text rule, error answers) then has a small bound, where a
 * megabyte of `[[[[…` used to overflow the stack of the error serializer.
 */
export function installJsonParser(app: FastifyInstance, bodyLimit: number) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (request, body, done) => {
    const text = body as string; // parseAs: 'string'
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return done(new JsonTooDeep(), undefined);
    parse(request, text, done);
  });
}
