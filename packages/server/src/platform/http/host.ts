/** Which face of the service a Host header reaches (DESIGN section 5). */
export type Face = { kind: 'console' } | { kind: 'tenant'; slug: string } | { kind: 'unknown' };

export function classifyHost(hostHeader: string | undefined, consoleHost: string, portalDomain: string): Face {
  const host = (hostHeader ?? '').toLowerCase();
  if (host === consoleHost) return { kind: 'console' };
  const name = host.replace(/:\d+$/, '');
  const suffix = `.${portalDomain}`;
  if (name.endsWith(suffix)) {
    const slug = name.slice(0, -suffix.length);
    if (/^[a-z0-9-]{1,63}$/.test(slug)) return { kind: 'tenant', slug };
  }
  return { kind: 'unknown' };
}
