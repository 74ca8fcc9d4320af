// A live preview of the portal's header as the owner types: the API's logo and name on its accent
// colour, its tagline, and the navigation's current item. The logo comes from the console's own
// host (logo-src.ts); until there is one, or when it cannot be fetched, the name's first letter.
import { useState } from 'react';
import { FALLBACK_ACCENT, textOn, validAccent } from './contrast.js';

function Logo({ src, initial, color }: { src: string | null; initial: string; color: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) return <img className="preview-logo" src={src} alt="" data-testid="preview-logo" onError={() => setFailed(src)} />;
  return (
    <span className="preview-logo" aria-hidden="true" style={{ color }}>
      {initial}
    </span>
  );
}

export function PortalPreview({ name, tagline, accent, logoSrc }: { name: string; tagline: string; accent: string; logoSrc: string | null }) {
  const color = validAccent(accent) ? accent : FALLBACK_ACCENT;
  const ink = textOn(color);
  const initial = (name.trim()[0] ?? '?').toUpperCase();
  return (
    <figure className="portal-preview" aria-labelledby="portal-preview-caption">
      <figcaption id="portal-preview-caption" className="small muted">
        Preview of your portal's header
      </figcaption>
      <div className="preview-header" data-testid="preview-header" style={{ backgroundColor: color, color: ink }}>
        <Logo src={logoSrc} initial={initial} color={ink === '#ffffff' ? color : ink} />
        <strong>{name.trim() || 'Your API'}</strong>
      </div>
      <div className="preview-body">
        {tagline.trim() ? <p className="preview-tagline">{tagline}</p> : null}
        <div className="preview-nav" aria-hidden="true">
          <span style={{ backgroundColor: color, color: ink }}>Overview</span>
          <span>Usage</span>
          <span>Keys</span>
        </div>
      </div>
    </figure>
  );
}
