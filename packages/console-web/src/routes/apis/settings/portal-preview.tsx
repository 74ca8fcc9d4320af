// A live preview of the portal's header as the owner types: the API's logo and name on its accent
// colour, its tagline, and the navigation's current item. The console's CSP keeps third-party
// images out, so the logo's place shows the name's first letter; the portal serves the logo itself.
import { FALLBACK_ACCENT, textOn, validAccent } from './contrast.js';

export function PortalPreview({ name, tagline, accent, hasLogo }: { name: string; tagline: string; accent: string; hasLogo: boolean }) {
  const color = validAccent(accent) ? accent : FALLBACK_ACCENT;
  const ink = textOn(color);
  const initial = (name.trim()[0] ?? '?').toUpperCase();
  return (
    <figure className="portal-preview" aria-labelledby="portal-preview-caption">
      <figcaption id="portal-preview-caption" className="small muted">
        Preview of your portal's header
      </figcaption>
      <div className="preview-header" data-testid="preview-header" style={{ backgroundColor: color, color: ink }}>
        <span className="preview-logo" aria-hidden="true" style={{ color: ink === '#ffffff' ? color : ink }}>
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
