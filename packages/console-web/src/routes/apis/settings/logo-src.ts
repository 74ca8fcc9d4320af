// Where the console shows an API's logo from: its own host (GET /api/apis/{api}/logo), since the
// CSP loads images from nowhere else. `v` changes with the address, so a new logo is not read from
// the browser's cache of the old one.

/** FNV-1a of the text, in base 36: short, and different for different addresses in practice. */
function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

export const logoSrc = (apiId: string, logoUrl: string | undefined): string | null =>
  logoUrl ? `/api/apis/${encodeURIComponent(apiId)}/logo?v=${fingerprint(logoUrl)}` : null;
