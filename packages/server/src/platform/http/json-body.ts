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

/** A body refused before it is read as JSON: its bytes, its charset or its content coding. */
export class BodyRefused extends Error {
  constructor(
    readonly statusCode: 400 | 415,
    readonly code: 'GH_BODY_NOT_UTF8' | 'GH_BODY_CHARSET' | 'GH_BODY_ENCODING',
    message: string,
  ) {
    super(message);
  }
}

/** The `charset` parameter of a Content-Type, lower-cased and unquoted; undefined without one. */
export function charsetOf(contentType: string | undefined): string | undefined {
  for (const parameter of (contentType ?? '').split(';').slice(1)) {
    const at = parameter.indexOf('=');
    if (at < 0 || parameter.slice(0, at).trim().toLowerCase() !== 'charset') continue;
    return parameter.slice(at + 1).trim().replace(/^"(.*)"$/, '$1').toLowerCase();
  }
  return undefined;
}

/**
 * Why a JSON body is refused before parsing, or null. RFC 8259 8.1: JSON exchanged between systems
 * is UTF-8, so a body in another charset (it would be read as UTF-8 and stored garbled) is 415, and
 * bytes that are not UTF-8 are 400; they used to be decoded with U+FFFD in their place and stored.
 * RFC 9110 8.4 and 15.5.16: a content coding we do not apply (gzip, br, …) is 415, where the
 * compressed bytes used to be read as the JSON text itself.
 */
export function bodyRefusal(headers: { 'content-type'?: string; 'content-encoding'?: string | string[] }, bytes: Buffer): BodyRefused | null {
  const coding = [headers['content-encoding'] ?? []].flat().join(',').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  if (coding.length) return new BodyRefused(415, 'GH_BODY_ENCODING', `Content-Encoding ${coding.join(', ')} is not accepted: send the body uncompressed`);
  const charset = charsetOf(headers['content-type']);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return new BodyRefused(415, 'GH_BODY_CHARSET', `charset ${charset.slice(0, 40)} is not accepted: JSON is sent in UTF-8`);
  try {
    utf8.decode(bytes);
  } catch {
    return new BodyRefused(400, 'GH_BODY_NOT_UTF8', 'The body is not valid UTF-8');
  }
  return null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Fastify's JSON parser (with its prototype-poisoning checks), behind the checks of `bodyRefusal`
 * and a depth limit: every walk over a parsed body (validation, the text rule, error answers) then
 * has a small bound, where a megabyte of `[[[[…` used to overflow the stack of the error
 * serializer. Every JSON route of every face (console, SDK, the account API) is parsed here.
 */
export function installJsonParser(app: FastifyInstance, bodyLimit: number) {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const bytes = body as Buffer; // parseAs: 'buffer'
    const refused = bodyRefusal(request.headers, bytes);
    if (refused) return done(refused, undefined);
    const text = bytes.toString('utf8');
    if (jsonDepthExceeds(text, MAX_JSON_DEPTH)) return done(new JsonTooDeep(), undefined);
    parse(request, text, done);
  });
}
