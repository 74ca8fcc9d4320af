// Which redirect URIs an owner may register for an app (spec 4.2: "exact match with a registered
// URI"; RFC 9700 2.1 and RFC 8252 7 for what is safe to redirect a code to).
import type { AppKind } from './tables.js';

/** Loopback hosts where plain http is allowed (RFC 8252 7.3; spec 4.3 registration). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Schemes that are never a redirect target, for every app (the owner's, registered, metadata
 * documents): the one list (RFC 9700 4.11 open redirection; RFC 8252 7.1 private-use schemes are
 * the app's own, these are not). A browser sent to one runs code, shows its own internals, opens
 * a local file or hands the address to an operating-system handler that acts on it (ms-msdt ran
 * code in Follina, search-ms opens a remote folder in Explorer), or it leaves the web for another
 * network protocol. Spec 4.3 names javascript, data, file and mailto.
 */
const REFUSED_SCHEMES: ReadonlySet<string> = new Set([
  // script, data and local content
  'javascript', 'vbscript', 'livescript', 'data', 'file', 'blob', 'filesystem', 'about', 'jar', 'view-source', 'wyciwyg',
  // the browsers' own pages and extensions
  'chrome', 'edge', 'brave', 'opera', 'vivaldi', 'resource', 'moz-icon', 'devtools', 'intent', 'android-app', 'microsoft-edge', 'shell', 'res', 'its', 'mk', 'mhtml', 'hcp', 'help', 'search', 'search-ms', 'read', 'cid', 'mid',
  // mail, calls and messages
  'mailto', 'tel', 'callto', 'sms', 'smsto', 'mms', 'sip', 'sips', 'facetime', 'facetime-audio', 'im', 'xmpp', 'news', 'nntp', 'snews',
  // other network protocols
  'ftp', 'ftps', 'sftp', 'tftp', 'ssh', 'telnet', 'ws', 'wss', 'smb', 'cifs', 'nfs', 'afp', 'ldap', 'ldaps', 'gopher', 'irc', 'ircs', 'rtsp', 'rtmp', 'dict', 'webcal', 'git', 'svn',
]);

/** Families of such schemes, by prefix: Windows' handlers (ms-msdt, ms-officecmd, ms-settings, …), the browsers' extensions and internals. */
const REFUSED_SCHEME_PREFIXES: readonly string[] = ['ms-', 'microsoft-', 'chrome-', 'edge-', 'moz-', 'safari-', 'webkit-', 'opera-', 'vnd.ms-', 'x-apple-'];

/** Whether a redirect URI may never use this scheme (lowercase, without the colon). */
export function isRefusedScheme(scheme: string): boolean {
  return REFUSED_SCHEMES.has(scheme) || REFUSED_SCHEME_PREFIXES.some((prefix) => scheme.startsWith(prefix));
}

export const MAX_REDIRECT_URI_LENGTH = 2000;

/** Why `uri` cannot be a redirect URI of an app of this kind, or null when it can. */
export function redirectUriProblem(uri: string, kind: AppKind): string | null {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return `must be at most ${MAX_REDIRECT_URI_LENGTH} characters`;
  // RFC 6749 3.1.2: the redirection endpoint URI must not include a fragment (an empty '#' too).
  if (uri.includes('#')) return 'must not have a fragment';
  if (uri !== uri.trim() || /\s/.test(uri)) return 'must not contain spaces';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  const scheme = url.protocol.slice(0, -1);
  if (isRefusedScheme(scheme)) return `the ${scheme}: scheme is refused`;
  if (url.username || url.password) return 'must not carry a user name or password';
  if (scheme === 'https') {
    if (!url.hostname) return 'must name a host';
    return null;
  }
  if (scheme === 'http') return LOOPBACK_HOSTS.has(url.hostname) ? null : 'plain http is allowed only on localhost, 127.0.0.1 and [::1]';
  if (kind !== 'native') return 'must be https (or http on a loopback host)';
  // RFC 8252 7.1: a private-use scheme is a reverse domain name the app's owner controls
  // (com.example.app:/callback), which keeps apps from claiming each other's schemes.
  if (!/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) return 'a custom scheme must be a reverse domain name, like com.example.app:/callback';
  return null;
}

/** A resource URL (RFC 8707 2): absolute http(s), no fragment. Null when acceptable. */
export function resourceUrlProblem(uri: string): string | null {
  if (uri.includes('#')) return 'must not have a fragment';
  if (/\s/.test(uri)) return 'must not contain spaces';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (!url.hostname) return 'must name a host';
  if (url.username || url.password) return 'must not carry a user name or password';
  return null;
}
