import { textFault } from '../text.js';

/**
 * How every cookie value is read: percent-decoded like the cookie library does, and a value that
 * breaks the text rule (a `%00`, a lone surrogate) counts as absent, as if it had never been set.
 * We never set such a value, so only a forged cookie has one.
 */
export function decodeCookieValue(raw: string): string {
  let value = raw;
  if (raw.includes('%')) {
    try {
      value = decodeURIComponent(raw);
    } catch {
      value = raw;
    }
  }
  return textFault(value) === null ? value : '';
}
