// A live preview of the portal's header as the owner types: the API's logo and name on its accent
// colour, its tagline, and the navigation's current item. The console's CSP keeps third-party
// images out, so the logo's place shows the name's first letter; the portal serves the logo itself.
const HEX = /^#[0-9a-fA-F]{6}$/;
const FALLBACK = '#4f46e5';

function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** White text on dark accents and near-black on light ones, whichever reads better (WCAG contrast). */
export function textOn(accent: string): string {
  const l = luminance(accent);
  return (1.05 / (l + 0.05) >= (l + 0.05) / 0.05) ? '#ffffff' : '#1f2328';
}

export const validAccent = (accent: string) => HEX.test(accent);

export function PortalPreview({ name, tagline, accent, hasLogo }: { name: string; tagline: string; accent: string; hasLogo: boolean }) {
  const color = validAccent(accent) ? accent : FALLBACK;
  const ink = textOn(color);
  const initial = (name.trim()[0] ?? '?').toUpperCase();
  return (
    <figure className="portal-preview" aria-labelledby="portal-preview-caption">
      <figcaption id="portal-preview-caption" className="small muted">
        Preview of your portal's header
      </figcaption>
      <div className="preview-header" data-testid="preview-header" style={{ backgroundColor: color, color: ink }}>
        <span className="preview-logo" aria-hidden="true" style={{ color }}>
          {initial}
        </span>
        <strong>{name.trim() || 'Your API'}</strong>
      </div>
      <div className="preview-body">
        {tagline.trim() ? <p className="preview-tagline">{tagline}</p> : null}
        <div className="preview-nav" aria-hidden="true">
          <span style={{ backgroundColor: color, color: ink }}>Overview</span>
          <span>Usage</span>
          <span>Keys</span>
        </div>
        {hasLogo ? <p className="small muted">Your logo shows in the header on the portal.</p> : null}
      </div>
    </figure>
  );
}
