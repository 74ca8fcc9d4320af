// Redirect URIs of apps people connect (spec 4.3): the rules of dynamic registration, which
// metadata documents follow too. Looser than the owner's rules in one way (any custom scheme, as
// Cursor's `cursor://` or VS Code's `vscode://`, not only reverse domain names) and stricter in
// none: these apps are unverified, so every URI must still be one a browser can safely be sent to.
import { isRefusedScheme, LOOPBACK_HOSTS, MAX_REDIRECT_URI_LENGTH } from '../registry/redirect-uris.js';

export type ApplicationType = 'native' | 'web';


/** At most this many redirect URIs per app, as for the owner's apps and metadata documents. */
export const MAX_CONNECTED_REDIRECT_URIS = 20;

export type RedirectKind = 'loopback' | 'custom' | 'https';

/** What kind of redirect URI this is, or why it cannot be one (spec 4.3 registration rules). */
export function classifyRedirectUri(uri: string): { kind: RedirectKind } | { problem: string } {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return { problem: `must be at most ${MAX_REDIRECT_URI_LENGTH} characters` };
  // RFC 6749 3.1.2: no fragment, an empty '#' included.
  if (uri.includes('#')) return { problem: 'must not have a fragment' };
  if (/\s/.test(uri)) return { problem: 'must not contain spaces' };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { problem: 'must be an absolute URL' };
  }
  const scheme = url.protocol.slice(0, -1);
  // The one list of schemes no app may use (registry/redirect-uris.ts), browser-internal and OS handlers among them.
  if (isRefusedScheme(scheme)) return { problem: `the ${scheme}: scheme is refused` };
  if (url.username || url.password) return { problem: 'must not carry a user name or password' };
  if (scheme === 'http' || scheme === 'https') {
    if (!url.hostname) return { problem: 'must name a host' };
    // RFC 8252 7.3: loopback redirects for native apps; any port matches at authorization.
    if (LOOPBACK_HOSTS.has(url.hostname)) return { kind: 'loopback' };
    if (scheme === 'http') return { problem: 'plain http is allowed only on localhost, 127.0.0.1 and [::1]' };
    return { kind: 'https' };
  }
  // RFC 8252 7.1: a private-use scheme for a native app (claimed by the app on the device).
  return { kind: 'custom' };
}

/**
 * The application type (spec 4.3): `native` when any redirect URI is loopback or a custom scheme,
 * else `web`; an explicit `web` allows only https redirects on a real host. Null with the reason
 * when the explicit type does not fit the URIs.
 */
export function applicationTypeOf(kinds: RedirectKind[], explicit: ApplicationType | undefined): { type: ApplicationType } | { problem: string } {
  const nativeOnly = kinds.some((kind) => kind !== 'https');
  if (explicit === 'web' && nativeOnly) return { problem: 'a web application may use only https redirect URIs on a real host (not loopback, not a custom scheme)' };
  return { type: explicit ?? (nativeOnly ? 'native' : 'web') };
}

/** The host an app comes from, as people see it: a URL's host name, or a custom scheme. */
export function hostOf(uri: string): string {
  try {
    const url = new URL(uri);
    return url.hostname || url.protocol;
  } catch {
    return uri.slice(0, 100);
  }
}
