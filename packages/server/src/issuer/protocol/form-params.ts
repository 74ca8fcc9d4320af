import { printableKey, textFault } from '../../platform/text.js';
import { OAuthError } from './oauth-error.js';

/** Longest value we take for any single protocol parameter. */
export const MAX_PARAM_LENGTH = 4096;

/**
 * Parameters of a protocol request as single strings. A parameter sent twice is refused
 * (RFC 6749 3.1: "Request and response parameters MUST NOT be included more than once"),
 * and an empty value counts as absent (RFC 6749 3.1).
 */
export class Params {
  readonly #values = new Map<string, string[]>();
  /** Names sent more than once (other than `resource`), too long, or breaking the text rule. */
  readonly #faults: { name: string; problem: string }[] = [];
  /** Names whose first value was refused (too long or bad text): what would be echoed is not there. */
  readonly #firstRefused = new Set<string>();

  constructor(entries: Iterable<[string, unknown]>, allowRepeated: ReadonlySet<string> = new Set(['resource'])) {
    for (const [name, value] of entries) {
      const nameFault = textFault(name);
      if (nameFault) {
        this.#faults.push({ name: printableKey(name), problem: `(a parameter name) ${nameFault}` });
        continue;
      }
      const values = Array.isArray(value) ? value : [value];
      for (const item of values) {
        if (typeof item !== 'string') continue;
        const fault = item.length > MAX_PARAM_LENGTH ? 'is too long' : textFault(item);
        if (fault) {
          this.#faults.push({ name, problem: fault });
          if (!this.#values.has(name)) this.#firstRefused.add(name);
          continue;
        }
        if (item === '') continue;
        const seen = this.#values.get(name);
        if (seen) {
          if (!allowRepeated.has(name)) this.#faults.push({ name, problem: 'is repeated' });
          seen.push(item);
        } else {
          this.#values.set(name, [item]);
        }
      }
    }
  }

  /** Query parameters; faults are kept so the caller can first decide whether it may redirect. */
  static fromQuery(url: string): Params {
    const query = url.includes('?') ? url.slice(url.indexOf('?') + 1) : '';
    return new Params(new URLSearchParams(query));
  }

  /** Form parameters of a token-like endpoint: a fault is an error at once. */
  static fromBody(body: unknown): Params {
    const params = !body || typeof body !== 'object' ? new Params([]) : new Params(Object.entries(body as Record<string, unknown>));
    params.assertWellFormed();
    return params;
  }

  /** Whether a parameter was sent more than once, too long or as bad text. */
  faulty(name: string): boolean {
    return this.#faults.some((fault) => fault.name === name);
  }

  assertWellFormed(): void {
    const fault = this.#faults[0];
    if (fault) throw new OAuthError('invalid_request', `${fault.name.slice(0, 40)} ${fault.problem}`);
  }

  get(name: string): string | undefined {
    return this.#values.get(name)?.[0];
  }

  /**
   * The value to send back as sent (`state`): the first one, unless that first one was refused, in
   * which case nothing: a later value is not what the client meant first, and a value cut short
   * (the old reading of `a%00b` as `a`) never is.
   */
  echoed(name: string): string | undefined {
    return this.#firstRefused.has(name) ? undefined : this.get(name);
  }

  /** Every value of a parameter that may repeat (only `resource`, to refuse more than one). */
  all(name: string): string[] {
    return this.#values.get(name) ?? [];
  }

  require(name: string): string {
    const value = this.get(name);
    if (value === undefined) throw new OAuthError('invalid_request', `${name} is required`);
    return value;
  }

  has(name: string): boolean {
    return this.#values.has(name);
  }

  /** The first value of each parameter, as a pushed request stores them. */
  toObject(): Record<string, string> {
    return Object.fromEntries([...this.#values].map(([name, values]) => [name, values[0]!]));
  }
}
