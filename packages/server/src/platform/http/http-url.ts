/**
 * The `http-url` format: an absolute http(s) URL as browsers and fetch read it (the WHATWG URL
 * parser), with a host and without credentials, spaces or control characters. JSON Schema's `uri`
 * is RFC 3986 syntax, which takes `https://` with no host or `https://exa mple.com`-like text a
 * browser reads otherwise; addresses owners give us (where their API runs, their docs, their
 * terms) are shown as links and written into snippets, so they must be what they look like.
 */
export function isHttpUrl(value: string): boolean {
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  // The parser takes `https:example.com`, `https:/example.com` and `https:///example.com` as the
  // host `example.com`; the text must say `//` and the host itself.
  if (!/^https?:\/\/[^/\\]/i.test(value)) return false;
  return url.hostname !== '' && url.username === '' && url.password === '';
}
