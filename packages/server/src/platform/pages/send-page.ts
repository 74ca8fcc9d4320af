// One page layout for every face that serves HTML (the sign-in pages on a tenant host, the
// console's few pages): a strict Content-Security-Policy with a nonce per answer, nothing loaded
// from elsewhere, never cached, never framed.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { html, raw, type SafeHtml } from './html.js';

/**
 * Where a page shows its logo: served by the face from its own host, so pages load nothing from
 * elsewhere. A face whose branding has a logo serves this path.
 */
export const LOGO_PATH = '/branding/logo';

export interface Branding {
  name: string;
  logoUrl: string | null;
  accentColor: string;
}

export interface PageOptions {
  title: string;
  branding: Branding;
  body: SafeHtml;
  status?: number;
  /** Origins a form on this page may post to besides our own (form_post to a client). */
  formActions?: string[];
  /** Inline script (for example the form_post auto-submit); allowed by this response's nonce. */
  script?: string;
  /** A page of the width of a dashboard rather than a form's card (the customer portal). */
  wide?: boolean;
  /** Style rules of this face added to the base ones, under the same nonce. */
  style?: string;
}

const BASE_STYLE = `
:root{color-scheme:light}
body{margin:0;font:16px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;background:#f6f7f9;color:#1f2328}
main{max-width:420px;margin:48px auto;background:#fff;border:1px solid #e3e6ea;border-radius:12px;padding:32px}
header{display:flex;align-items:center;gap:12px;margin-bottom:24px}
header img{width:40px;height:40px;border-radius:8px;object-fit:contain}
header strong{font-size:18px}
h1{font-size:22px;margin:0 0 16px}
label{display:block;margin:12px 0 4px;font-weight:600}
input[type=email],input[type=password],input[type=text]{width:100%;box-sizing:border-box;padding:10px;border:1px solid #c9ced4;border-radius:8px;font:inherit}
button{margin-top:16px;width:100%;padding:11px;border:0;border-radius:8px;background:var(--accent);color:#fff;font:inherit;font-weight:600;cursor:pointer}
button.secondary{background:#fff;color:var(--accent);border:1px solid var(--accent)}
.error{background:#fff1f0;border:1px solid #ffccc7;border-radius:8px;padding:10px;margin-bottom:12px}
.note{color:#57606a;font-size:14px}
ul.permissions{padding-left:20px}
.badge{display:inline-block;font-size:12px;padding:1px 6px;border-radius:6px;background:#fff4e5;color:#8a4b00;margin-left:4px}
a{color:var(--accent)}
`;

/**
 * The CSP source that lets a form's redirects reach an app's redirect URI: its origin, or its
 * scheme for a native app's private-use scheme. Browsers apply form-action to every redirect
 * a form submission follows (CSP 3), not only to the form's own action.
 */
export function redirectSource(uri: string): string {
  const url = new URL(uri);
  return url.origin === 'null' ? url.protocol : url.origin;
}

/** The box above a form that says what went wrong. */
export const errorBox = (message: string | null) => (message ? html`<p class="error" role="alert">${message}</p>` : html``);

/** Sends a page in the branding's name, logo and accent colour with a strict Content-Security-Policy. */
export function sendPage(reply: FastifyReply, options: PageOptions) {
  const nonce = randomBytes(16).toString('base64');
  const accent = /^#[0-9a-fA-F]{6}$/.test(options.branding.accentColor) ? options.branding.accentColor : '#4f46e5';
  // The logo comes through our own host (LOGO_PATH): nothing loads from elsewhere.
  const logo = options.branding.logoUrl ? LOGO_PATH : null;
  const page = html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · ${options.branding.name}</title>
<style nonce="${nonce}">${raw(BASE_STYLE)}:root{--accent:${accent}}${raw(options.wide ? 'main{max-width:960px;margin:24px auto}' : '')}${raw(options.style ?? '')}</style>
</head><body><main>
<header>${logo ? html`<img src="${logo}" alt="">` : ''}<strong>${options.branding.name}</strong></header>
${options.body}
</main>${options.script ? html`<script nonce="${nonce}">${raw(options.script)}</script>` : ''}</body></html>`;
  const formActions = ["'self'", ...(options.formActions ?? [])].join(' ');
  return reply
    .status(options.status ?? 200)
    .header('content-security-policy', `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self'; form-action ${formActions}; frame-ancestors 'none'; base-uri 'none'`)
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .type('text/html; charset=utf-8')
    .send(page.value);
}
