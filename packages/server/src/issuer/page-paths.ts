/**
 * Paths a browser shows as pages (sign-in, consent, logout confirmation, the customer portal):
 * their errors are pages. Protocol endpoints (the rest of /oauth, discovery, /api) answer JSON.
 */
export function isPagePath(url: string): boolean {
  const path = url.split('?')[0]!;
  if (path === '/oauth/authorize' || path.startsWith('/oauth/authorize/') || path === '/oauth/logout') return true;
  return !(path.startsWith('/oauth/') || path.startsWith('/.well-known/') || path.startsWith('/api/'));
}
