// The ~1 MB request bodies of hostile-input.bench.ts, built once before anything is timed. Each
// shape is what issue 11 found slow or large to answer: a long string, a huge flat array of
// numbers, an array of objects (quadratic to check for uniqueness in a naive validator), an array
// nested half a million deep, an object of many properties, and form bodies for the issuer.

/** Just under the console's 1 MiB body limit, so the body is read and parsed, not refused for size. */
export const TARGET_BYTES = 1_000_000;

export interface Shape {
  name: string;
  contentType: string;
  body: Buffer;
}

/** The fields of a body schema a shape is put into: the first string and the first array field. */
export interface Targets {
  text: string;
  list: string;
}

function numbers(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const part = String(i);
    parts.push(part);
    length += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}

function objects(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const part = `{"server_id":"srv_${i}","permission":"p${i}"}`;
    parts.push(part);
    length += part.length + 1;
  }
  return `[${parts.join(',')}]`;
}

function manyKeys(bytes: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const part = `"k${i}":${i}`;
    parts.push(part);
    length += part.length + 1;
  }
  return `{${parts.join(',')}}`;
}

/** JSON bodies of about 1 MB each, put into the route's own fields where it has them. */
export function jsonShapes(targets: Targets): Shape[] {
  const room = TARGET_BYTES - 40;
  const json = (name: string, text: string): Shape => ({ name, contentType: 'application/json', body: Buffer.from(text) });
  const depth = Math.floor(room / 2);
  return [
    json('long string', `{${JSON.stringify(targets.text)}:"${'x'.repeat(room)}"}`),
    json('array of numbers', `{${JSON.stringify(targets.list)}:${numbers(room)}}`),
    json('array of objects', `{${JSON.stringify(targets.list)}:${objects(room)}}`),
    json('nested array', `{${JSON.stringify(targets.text)}:${'['.repeat(depth)}${']'.repeat(depth)}}`),
    json('many properties', manyKeys(room)),
  ];
}

/** Form bodies of about 1 MB: one long value, many parameters, one parameter sent many times. */
export function formShapes(): Shape[] {
  const form = (name: string, text: string): Shape => ({ name, contentType: 'application/x-www-form-urlencoded', body: Buffer.from(text) });
  const params = Array.from({ length: 90_000 }, (_, i) => `p${i}=${i}`).join('&');
  return [
    form('form long value', `client_id=x&scope=${'x'.repeat(TARGET_BYTES - 20)}`),
    form('form many params', params.slice(0, params.lastIndexOf('&', TARGET_BYTES))),
    form('form repeated', 'scope=openid&'.repeat(Math.floor(TARGET_BYTES / 13))),
  ];
}
