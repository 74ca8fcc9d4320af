/**
 * Which face of the service a Host header reaches (DESIGN section 5): the console, a portal host
 * `<slug>.PORTAL_DOMAIN`, a name that may be an API's custom domain (the tenant lookup decides),
 * or nothing.
 */
export type Face = { kind: 'console' } | { kind: 'tenant'; slug: string } | { kind: 'custom'; domain: string } | { kind: 'unknown' };

/** The faces of an API's own host: its sign-in service and portal. */
export const isTenantFace = (face: Face | null | undefined) => face?.kind === 'tenant' || face?.kind === 'custom';

const DOMAIN = /^(?=.{1,253}$)[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})+$/;

export function classifyHost(hostHeader: string | undefined, consoleHost: string, portalDomain: string): Face {
  const host = (hostHeader ?? '').toLowerCase();
  if (host === consoleHost) return { kind: 'console' };
  const name = host.replace(/:\d+$/, '').replace(/\.$/, '');
  const suffix = `.${portalDomain}`;
  if (name.endsWith(suffix)) {
    const slug = name.slice(0, -suffix.length);
    if (/^[a-z0-9-]{1,63}$/.test(slug)) return { kind: 'tenant', slug };
    return { kind: 'unknown' };
  }
  // Any other name may be a custom domain; an address (all-numeric last label) never is.
  if (DOMAIN.test(name) && !/\.\d+$/.test(name) && name !== portalDomain) return { kind: 'custom', domain: name };
  return { kind: 'unknown' };
}
