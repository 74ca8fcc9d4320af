// A preview of the API's sign-in page (/apis/:api/signin/preview): its logo, name and accent as the
// sign-in pages draw them, the "create an account" link only while sign-up is open, and a link to
// the live page (the portal's sign-in, which goes through the real sign-in pages). Drawn by React
// with the console's own styles: the console's CSP loads no other host and no inline style, so the
// logo comes through GET /apis/{api}/logo as on the settings page. Opens on the session, the API's
// record and the sign-in settings.
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api, call } from '../../../api/client.js';
import type { ApiOut, SigninSettingsOut } from '../../../api/records.js';
import { useApiAndList, useApiId } from '../../../app/use-api.js';
import { PageHeader } from '../../../components/page.js';
import { QueryState } from '../../../components/states.js';
import { contrast, FALLBACK_ACCENT, textOn, validAccent } from '../settings/contrast.js';
import { logoSrc } from '../settings/logo-src.js';
import { signinSettingsKey } from './keys.js';
import { SigninNav } from './signin-nav.js';

/** Where the API's sign-in pages are: its custom domain once active, else its own host. */
export function issuerOf(apiOut: ApiOut): string {
  return apiOut.domain.status === 'active' && apiOut.domain.domain ? `https://${apiOut.domain.domain}` : apiOut.portal_url;
}

function PreviewLogo({ src, initial, accent }: { src: string | null; initial: string; accent: string }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (src && failed !== src) return <img className="preview-logo" src={src} alt="" data-testid="signin-preview-logo" onError={() => setFailed(src)} />;
  return (
    <span className="preview-logo" aria-hidden="true" style={{ backgroundColor: accent, color: textOn(accent) }}>
      {initial}
    </span>
  );
}

// The sign-in page's own measures (platform/pages/send-page.ts), as style props: React sets them
// through the DOM, which the console's `style-src 'self'` allows.
const BOX = { maxWidth: 420, margin: '8px auto', background: '#fff', border: '1px solid #e3e6ea', borderRadius: 12, padding: 32 } as const;
const INPUT = { border: '1px solid #c9ced4', borderRadius: 8, padding: 10, color: '#6e7781', marginBottom: 4 } as const;

function SigninPreview({ apiOut, settings }: { apiOut: ApiOut; settings: SigninSettingsOut }) {
  const accent = validAccent(apiOut.accent_color) ? apiOut.accent_color : FALLBACK_ACCENT;
  // The live page writes white on its accent; the preview writes whichever reads, and says so
  // when white would not.
  const ink = textOn(accent);
  const whiteReads = contrast(accent, '#ffffff') >= 4.5;
  const linkColor = contrast(accent, '#ffffff') >= 4.5 ? accent : '#1f2328';
  return (
    <figure className="card" aria-labelledby="signin-preview-caption" style={{ background: '#f6f7f9' }}>
      <figcaption id="signin-preview-caption" className="small muted">
        Preview of the sign-in page people see
      </figcaption>
      <div style={BOX} data-testid="signin-preview">
        <div style={{ display: 'flex', alignItems: 'center', gap: 12, marginBottom: 24 }}>
          <PreviewLogo src={logoSrc(apiOut.id, apiOut.logo_url)} initial={(apiOut.name.trim()[0] ?? '?').toUpperCase()} accent={accent} />
          <strong style={{ fontSize: 18 }}>{apiOut.name}</strong>
        </div>
        <p style={{ fontSize: 22, fontWeight: 600, margin: '0 0 16px' }}>Sign in</p>
        <p className="small muted">
          to continue to <strong>your app</strong>
        </p>
        <p style={{ fontWeight: 600, margin: '12px 0 4px' }}>E-mail</p>
        <div style={INPUT}>you@example.com</div>
        <p style={{ fontWeight: 600, margin: '12px 0 4px' }}>Password</p>
        <div style={INPUT}>••••••••••</div>
        <div data-testid="signin-preview-button" style={{ marginTop: 16, padding: 11, borderRadius: 8, background: accent, color: ink, fontWeight: 600, textAlign: 'center' }}>
          Sign in
        </div>
        <div style={{ marginTop: 16, padding: 11, borderRadius: 8, background: '#fff', color: linkColor, border: `1px solid ${accent}`, fontWeight: 600, textAlign: 'center' }}>E-mail me a code instead</div>
        {settings.signups === 'open' ? (
          <p className="small muted" data-testid="signin-preview-signup">
            New here? <span style={{ color: linkColor, textDecoration: 'underline' }}>Create an account</span>
          </p>
        ) : null}
      </div>
      {whiteReads ? null : (
        <p className="alert warning" data-testid="signin-preview-contrast">
          The live page writes white on your accent colour, {accent}, which reads poorly there; the preview uses dark text instead. A darker accent in the <Link to={`/apis/${apiOut.id}/settings`}>API's branding</Link> reads better.
        </p>
      )}
    </figure>
  );
}

export function SigninPreviewPage() {
  const apiId = useApiId();
  const settings = useQuery({
    queryKey: signinSettingsKey(apiId),
    queryFn: () => call(api.GET('/api/apis/{api}/signin', { params: { path: { api: apiId } } })),
  });
  const both = useApiAndList(apiId, settings);
  return (
    <QueryState query={both} loading="Loading the preview…">
      {({ apiOut, list: current }) => {
        const live = `${issuerOf(apiOut)}/auth/signin`;
        return (
          <>
            <PageHeader
              title={`Sign-in page of ${apiOut.name}`}
              description={
                <>
                  The page people sign in on, in your API's name, logo and accent colour. Change them in the <Link to={`/apis/${apiOut.id}/settings`}>API's branding</Link>; sign-up is {current.signups} in the <Link to={`/apis/${apiOut.id}/signin`}>sign-in settings</Link>.
                </>
              }
              actions={
                <a href={live} target="_blank" rel="noopener noreferrer" data-testid="live-signin">
                  Open the live sign-in page<span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              }
            />
            <SigninNav apiId={apiOut.id} />
            <SigninPreview apiOut={apiOut} settings={current} />
            <p className="small muted">
              The live page is at <code>{live}</code>: it signs you in to your API's portal through the same pages your apps use.
            </p>
          </>
        );
      }}
    </QueryState>
  );
}
