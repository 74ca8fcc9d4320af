// CSRF double-submit tokens of every server-rendered form, plus an Origin check.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { constantTimeEqual, randomToken } from '../crypto.js';
import { html } from './html.js';

/** The double-submit cookie of the pages' forms; host-only, so each host has its own. */
export const CSRF_COOKIE = 'gh_csrf';
export const CSRF_FIELD = 'csrf';

/** The token to put in a form as the `csrf` field; made and set as a cookie on first use. */
export function csrfToken(request: FastifyRequest, reply: FastifyReply, secure: boolean): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomToken();
  reply.setCookie(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
  request.cookies[CSRF_COOKIE] = token;
  return token;
}

/**
 * A form post is ours when its `csrf` field equals the cookie (another site can neither read
 * the cookie nor set it) and, when the browser says where it comes from, the origin is ours.
 */
export function csrfValid(request: FastifyRequest, field: unknown, origin: string): boolean {
  const sent = request.headers.origin;
  if (sent !== undefined && sent !== 'null' && sent !== origin) return false;
  const cookie = request.cookies[CSRF_COOKIE];
  return typeof field === 'string' && typeof cookie === 'string' && cookie.length > 0 && constantTimeEqual(field, cookie);
}

/** The hidden field every form carries. */
export const csrfInput = (csrf: string) => html`<input type="hidden" name="${CSRF_FIELD}" value="${csrf}">`;
