// Slug rules: the portal address is <slug>.{portal_domain}, so a slug is one DNS label.
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

/**
 * Labels no API may take, the one list: names of the platform's own hosts and pages, and names
 * that clients, mail servers and operating systems look up by themselves under any domain (a
 * portal at `wpad.` or `autodiscover.` would be asked for proxy or mail settings; `mta-sts.` holds
 * the domain's mail policy; `domains.` is the default CNAME target of custom domains). An API on
 * one of them would also get a certificate from the TLS ask.
 */
const reserved = new Set([
  'www', 'api', 'app', 'apps', 'console', 'admin', 'auth', 'login', 'signin', 'signup', 'oauth', 'sso',
  'dashboard', 'docs', 'status', 'mail', 'smtp', 'imap', 'static', 'assets', 'cdn', 'help', 'support',
  'billing', 'portal', 'gatehouse', 'internal', 'root', 'system', 'metrics', 'webhooks', 'sdk', 'account',
  // the platform's own hosts
  'domains', 'custom-domains', 'tls', 'acme', 'health', 'healthz', 'readyz', 'openid', 'jwks', 'events', 'dev',
  // looked up by clients and servers on their own
  'localhost', 'mta-sts', 'autodiscover', 'autoconfig', 'wpad', 'isatap', 'openpgpkey', 'webmail', 'email', 'pop', 'pop3',
  'mx', 'ns', 'ns1', 'ns2', 'ns3', 'ns4', 'dns', 'ftp', 'sftp', 'vpn', 'ldap', 'kerberos', 'cpanel', 'whm', 'webdisk',
]);

export type SlugProblem = 'invalid' | 'reserved';

/** Why a slug cannot be used (before looking at whether it is taken), or null when it can. */
export function slugProblem(slug: string): SlugProblem | null {
  if (!SLUG_PATTERN.test(slug) || slug.includes('--')) return 'invalid';
  if (reserved.has(slug)) return 'reserved';
  return null;
}

export const slugReasons: Record<SlugProblem | 'taken', string> = {
  invalid: '3 to 40 lowercase letters, digits and single hyphens, not starting or ending with a hyphen',
  reserved: 'this name is reserved',
  taken: 'another API uses this name',
};

/** A slug from an API's name: lowercase ASCII words joined by hyphens, 3 to 40 characters. */
export function slugFromName(name: string): string {
  let slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  if (slug.length < 3) slug = `${slug || 'api'}-api`.replace(/^-/, '');
  return slug;
}

/** The n-th alternative when a generated slug is taken: name-2, name-3 … within 40 characters. */
export function slugCandidate(base: string, n: number): string {
  if (n <= 1) return base;
  const suffix = `-${n}`;
  return base.slice(0, 40 - suffix.length).replace(/-+$/g, '') + suffix;
}

/** The default customer-key prefix of an API: the slug's first letters (spec 4.4 prefix rules). */
export function prefixFromSlug(slug: string): string {
  const letters = slug.replace(/[^a-z0-9]/g, '');
  const prefix = (/^[a-z]/.test(letters) ? letters : `k${letters}`).slice(0, 8);
  return prefix.length >= 2 ? prefix : `${prefix}k`;
}
