/**
 * The one rule for every string that enters the service, wherever it comes from (JSON bodies,
 * paths, queries, form parameters, cookies, Basic credentials): well-formed Unicode and no NUL.
 *
 * Why these two: PostgreSQL cannot store NUL in `text` nor `\u0000` in `jsonb`, and it refuses a
 * lone UTF-16 surrogate in `jsonb` while the driver silently turns one into U+FFFD in `text`. A
 * string that breaks either rule is refused at the edge, naming its field, before any query sees it.
 */
export type TextFault = 'contains NUL' | 'is not well-formed Unicode';

export function textFault(value: string): TextFault | null {
  if (value.includes('\u0000')) return 'contains NUL';
  if (!value.isWellFormed()) return 'is not well-formed Unicode';
  return null;
}

export interface LocatedTextFault {
  /** Dotted path of the bad string, as the 422's `location` (`body.name`, `query.q`, `body.tags.3`). */
  location: string;
  message: TextFault;
  /** True when the bad string is a property name rather than a value. */
  inKey: boolean;
}

/** Deeper than this is refused by the JSON parser already; the walk stops here regardless. */
const MAX_WALK_DEPTH = 64;

/**
 * The first string in a parsed value (keys included) that breaks the rule, or null. The walk uses
 * its own stack, so no input can overflow the call stack, and it is linear in the input's size.
 */
export function findTextFault(value: unknown, root: string): LocatedTextFault | null {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: root, depth: 0 }];
  while (stack.length > 0) {
    const { value: current, path, depth } = stack.pop()!;
    if (typeof current === 'string') {
      const fault = textFault(current);
      if (fault) return { location: path, message: fault, inKey: false };
      continue;
    }
    if (current === null || typeof current !== 'object' || depth >= MAX_WALK_DEPTH) continue;
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push({ value: current[i], path: `${path}.${i}`, depth: depth + 1 });
      continue;
    }
    for (const key of Object.keys(current)) {
      const fault = textFault(key);
      if (fault) return { location: `${path}.${printableKey(key)}`, message: fault, inKey: true };
      stack.push({ value: (current as Record<string, unknown>)[key], path: `${path}.${key}`, depth: depth + 1 });
    }
  }
  return null;
}

/** A property name fit to be echoed in an error: NUL and lone surrogates shown as escapes. */
export function printableKey(key: string): string {
  return key.replace(/\u0000/g, '\\u0000').toWellFormed();
}
