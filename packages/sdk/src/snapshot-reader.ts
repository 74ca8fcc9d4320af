/**
 * Reads a snapshot's JSON as it arrives, handing each element of its large arrays (`customers`,
 * `keys`, `members`) to a callback as soon as the element is complete, and keeping every other top
 * field whole. Why: at a million customers the snapshot is over 600 MB of text, past V8's longest
 * string (about 512 MB), and holding the text and its parsed tree at once cost several times the
 * state they become (docs/decisions.md, "SDK memory per customer"). Each element is parsed alone
 * (JSON.parse of its own few hundred characters), so what is held at any moment is the state being
 * built plus one network chunk. Field order does not matter; elements arrive in array order.
 */

/** The top fields whose arrays are read element by element. */
export type StreamedField = 'customers' | 'keys' | 'members';
const STREAMED = new Set<string>(['customers', 'keys', 'members']);

export interface SnapshotSink {
  element(field: StreamedField, value: unknown): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** Index just past the string opening at `i`, or -1 when its end has not arrived. */
function stringEnd(s: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = s.indexOf('"', from);
    if (q < 0) return -1;
    let backslashes = 0;
    for (let b = q - 1; s.charCodeAt(b) === BACKSLASH; b--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** Index just past the value starting at `i`, or -1 when it has not all arrived (`ended`: nothing more will). */
function valueEnd(s: string, i: number, ended: boolean): number {
  const c = s.charCodeAt(i);
  if (c === QUOTE) return stringEnd(s, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) {
    let depth = 0;
    const n = s.length;
    for (let j = i; j < n; j++) {
      const d = s.charCodeAt(j);
      if (d === QUOTE) {
        const end = stringEnd(s, j);
        if (end < 0) return -1;
        j = end - 1;
      } else if (d === OPEN_BRACE || d === OPEN_BRACKET) depth++;
      else if (d === CLOSE_BRACE || d === CLOSE_BRACKET) {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }
  // A number, true, false or null: up to the next delimiter.
  let j = i;
  const n = s.length;
  while (j < n) {
    const d = s.charCodeAt(j);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || isSpace(d)) return j;
    j++;
  }
  return ended ? j : -1;
}

const enum At {
  Start, // before the top object's `{`
  Key, // before a key or the top object's `}`
  Colon,
  Value,
  AfterValue, // before `,` or `}`
  Element, // in a streamed array: before an element or `]`
  AfterElement, // in a streamed array: before `,` or `]`
  Done,
}

/**
 * A push parser: `write` text as it arrives, `end` when it has all arrived; answers the top fields
 * other than the streamed arrays (parsed whole), the streamed arrays having gone to `sink`.
 */
export class SnapshotParser {
  #buf = '';
  #at = At.Start;
  #key = '';
  readonly #top: Record<string, unknown> = {};

  constructor(private readonly sink: SnapshotSink) {}

  write(text: string): void {
    this.#buf = this.#buf.length === 0 ? text : this.#buf + text;
    this.#run(false);
  }

  end(): Record<string, unknown> {
    this.#run(true);
    if (this.#at !== At.Done) throw new SyntaxError('snapshot: the JSON ended early');
    return this.#top;
  }

  #run(ended: boolean): void {
    const s = this.#buf;
    const n = s.length;
    let i = 0;
    for (;;) {
      while (i < n && isSpace(s.charCodeAt(i))) i++;
      if (i >= n) break;
      const c = s.charCodeAt(i);
      if (this.#at === At.Start) {
        if (c !== OPEN_BRACE) throw new SyntaxError('snapshot: not a JSON object');
        this.#at = At.Key;
        i++;
      } else if (this.#at === At.Key) {
        if (c === CLOSE_BRACE) {
          this.#at = At.Done;
          i++;
          continue;
        }
        if (c !== QUOTE) throw new SyntaxError('snapshot: a key was expected');
        const end = stringEnd(s, i);
        if (end < 0) break;
        this.#key = JSON.parse(s.slice(i, end)) as string;
        this.#at = At.Colon;
        i = end;
      } else if (this.#at === At.Colon) {
        if (c !== COLON) throw new SyntaxError('snapshot: a colon was expected');
        this.#at = At.Value;
        i++;
      } else if (this.#at === At.Value) {
        if (c === OPEN_BRACKET && STREAMED.has(this.#key)) {
          this.#at = At.Element;
          i++;
          continue;
        }
        const end = valueEnd(s, i, ended);
        if (end < 0) break;
        this.#top[this.#key] = JSON.parse(s.slice(i, end));
        this.#at = At.AfterValue;
        i = end;
      } else if (this.#at === At.AfterValue) {
        if (c === COMMA) this.#at = At.Key;
        else if (c === CLOSE_BRACE) this.#at = At.Done;
        else throw new SyntaxError('snapshot: a comma was expected');
        i++;
      } else if (this.#at === At.Element) {
        if (c === CLOSE_BRACKET) {
          this.#top[this.#key] = true; // present (its elements went to the sink)
          this.#at = At.AfterValue;
          i++;
          continue;
        }
        const end = valueEnd(s, i, ended);
        if (end < 0) break;
        this.sink.element(this.#key as StreamedField, JSON.parse(s.slice(i, end)));
        this.#at = At.AfterElement;
        i = end;
      } else if (this.#at === At.AfterElement) {
        if (c === COMMA) this.#at = At.Element;
        else if (c === CLOSE_BRACKET) {
          this.#top[this.#key] = true;
          this.#at = At.AfterValue;
        } else throw new SyntaxError('snapshot: a comma was expected between elements');
        i++;
      } else throw new SyntaxError('snapshot: text after the end');
    }
    // Keep only what is not consumed (the start of an element still arriving).
    this.#buf = i >= n ? "" : s.slice(i);
  }
}
