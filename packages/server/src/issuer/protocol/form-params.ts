import { OAuthError } from './oauth-error.js';

/** Longest value we take for any single protocol parameter. */
export const MAX_PARAM_LENGTH = 4096;

/**
 * Parameters of a protocol request as single strings. A parameter sent twice is refused
 * (RFC 6749 3.1: "Request and response parameters MUST NOT be included more than once"),
 * and an empty value counts as absent (RFC 6749 3.1).
 */
export class Params {
  readonly #values = new Map<string, string>();

  constructor(entries: Iterable<[string, unknown]>, allowRepeated: ReadonlySet<string> = new Set()) {
    for (const [name, value] of entries) {
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) {
        if (typeof item !== 'string') continue;
        if (this.#values.has(name) && !allowRepeated.has(name)) throw new OAuthError('invalid_request', `${name} is repeated`);
        if (item.length > MAX_PARAM_LENGTH) throw new OAuthError('invalid_request', `${name} is too long`);
        if (item !== '') this.#values.set(name, this.#values.has(name) ? `${this.#values.get(name)}\u0000${item}` : item);
      }
    }
  }

  static fromQuery(url: string): Params {
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    return new Params(new URLSearchParams(query), new Set(['resource']));
  }

  static fromBody(body: unknown): Params {
    if (!body || typeof body !== 'object') return new Params([]);
    return new Params(Object.entries(body as Record<string, unknown>), new Set(['resource']));
  }

  get(name: string): string | undefined {
    const value = this.#values.get(name);
    return value?.includes('\u0000') ? value.split('\u0000')[0] : value;
  }

  /** Every value of a parameter that may repeat (only `resource`, to refuse more than one). */
  all(name: string): string[] {
    return this.#values.get(name)?.split('\u0000') ?? [];
  }

  require(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw new OAuthError('invalid_request', `${name} is required`);
    return value;
  }

  has(name: string): boolean {
    return this.#values.has(name);
  }

  toObject(): Record<string, string> {
    return Object.fromEntries(this.#values);
  }
}
