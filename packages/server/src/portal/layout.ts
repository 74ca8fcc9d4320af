import type { FastifyReply } from 'fastify';
import { html, type SafeHtml } from '../platform/pages/html.js';
import { sendPage } from '../platform/pages/send-page.js';
import type { Tenant } from '../issuer/tenant.js';

/** The portal's pages, in the order of its navigation bar. */
export const NAV = [
  { path: '/', label: 'Overview' },
  { path: '/usage', label: 'Usage' },
  { path: '/ledger', label: 'Ledger' },
  { path: '/billing', label: 'Billing' },
  { path: '/keys', label: 'Keys' },
  // People's own keys (spec 4.5), only where the owner turned them on (hidden and 404 otherwise).
  { path: '/api-keys', label: 'Personal keys', shown: (tenant: Tenant) => tenant.settings.keys_enabled },
  { path: '/quickstart', label: 'Quickstart' },
  { path: '/plans', label: 'Plans' },
  { path: '/team', label: 'Team' },
  { path: '/account', label: 'Account' },
] as const;

export type NavPath = (typeof NAV)[number]['path'];

const PORTAL_STYLE = `

p.tagline{color:#57606a;font-size:14px;margin:-16px 0 16px}
nav.portal{display:flex;flex-wrap:wrap;gap:4px;border-bottom:1px solid #e3e6ea;margin:0 0 24px;padding-bottom:8px}
nav.portal a{padding:6px 10px;border-radius:6px;text-decoration:none;color:#1f2328}
nav.portal a[aria-current=page]{background:var(--accent);color:#fff}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(200px,1fr));gap:12px;margin-bottom:16px}
.card{border:1px solid #e3e6ea;border-radius:10px;padding:14px}
.card .label{color:#57606a;font-size:13px}
.card .value{font-size:24px;font-weight:650}
table{width:100%;border-collapse:collapse;font-size:14px;margin:8px 0 16px}
th,td{text-align:left;padding:8px;border-bottom:1px solid #eef0f2}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
pre{background:#f6f8fa;border:1px solid #e3e6ea;border-radius:8px;padding:12px;overflow-x:auto;font-size:13px}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.inline{display:inline}
.inline button{width:auto;margin:0;padding:6px 12px}
button.danger{background:#cf222e}
form.row{display:flex;gap:8px;align-items:flex-end;flex-wrap:wrap}
form.row label{margin:0}
form.row input{width:auto;min-width:240px}
form.row button{width:auto}
.warning{background:#fff8c5;border:1px solid #eed888;border-radius:8px;padding:10px;margin-bottom:12px}
.ok{background:#dafbe1;border:1px solid #aceebb;border-radius:8px;padding:10px;margin-bottom:12px}
button{width:auto;padding:10px 18px}
main form:not(.row) input[type=text],main form:not(.row) input[type=password],main form:not(.row) input[type=email]{display:block;max-width:420px}
main form:not(.row):not(.inline) button{display:block}
td .person{font-weight:600}
td .email{color:#57606a;font-size:13px}
form.row select{height:46px;box-sizing:border-box}
select{padding:10px;border:1px solid #c9ced4;border-radius:8px;font:inherit;background:#fff;color:inherit}
h2{font-size:17px;margin:28px 0 8px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.badge.plain{background:#eef0f2;color:#1f2328}
a.danger{color:#cf222e}
a.button{display:inline-block;padding:8px 14px;border-radius:8px;text-decoration:none;font-weight:600;font-size:14px}
a.button.secondary{border:1px solid var(--accent);color:var(--accent);background:#fff}
form.row .cancel{align-self:center;margin:16px 0 0 8px}
.actions{display:flex;gap:12px;align-items:center;flex-wrap:wrap}
.actions form.inline{display:flex;gap:6px;align-items:center}
.actions select{padding:5px 8px;font-size:14px}
form.stack .actions{margin-top:16px}
form.stack .actions button{margin:0}
figure.chart{margin:4px 0 8px;border:1px solid #e3e6ea;border-radius:10px;padding:8px}
svg.chart{display:block;width:100%;height:auto}
svg.chart .grid{stroke:#eef0f2}
svg.chart .axis{stroke:#8c959f}
svg.chart .axis-label{font-size:12px;fill:#57606a}
svg.chart .empty{font-size:15px;fill:#57606a}
svg.chart .slot{fill:transparent}
svg.chart g.day:hover .slot{fill:#f3f4f6}
.bar-requests{fill:var(--accent);fill-opacity:.3}
.bar-billable,.bar-charged{fill:var(--accent)}
.bar-errors{fill:#cf222e}
ul.legend{display:flex;flex-wrap:wrap;gap:16px;list-style:none;padding:0;margin:0 0 6px;font-size:13px;color:#57606a}
ul.legend li{display:flex;align-items:center;gap:6px}
td.credit{color:#1a7f37}
tr.quiet td{color:#8c959f}
p.pager{display:flex;gap:16px}
.plans{display:grid;grid-template-columns:repeat(auto-fit,minmax(250px,1fr));gap:12px;margin-top:8px}
.plan{display:flex;flex-direction:column}
.plan h2{margin:0 0 4px;font-size:18px}
.plan.current{border-color:var(--accent);box-shadow:0 0 0 1px var(--accent)}
.plan .price{margin:0 0 8px;color:#57606a}
.plan .price .amount{font-size:26px;font-weight:650;color:#1f2328}
.plan .description{margin:0 0 8px}
.plan ul.terms{padding-left:18px;margin:0 0 12px;font-size:14px}
.plan .plan-action{margin:auto 0 0}
form.stack{max-width:640px}
form.stack fieldset{border:1px solid #e3e6ea;border-radius:10px;padding:10px 14px;margin:12px 0}
form.stack legend{font-weight:600;padding:0 4px}
label.check{display:flex;gap:8px;align-items:baseline;font-weight:400;margin:6px 0}
label.check input{width:auto;margin:0}
.indent{margin-left:26px}
code.url{color:#57606a;font-size:12px}
table.keys{font-size:13px}
table.keys td{vertical-align:top}
table.keys td.name{font-weight:600}
footer{margin-top:32px;padding-top:12px;border-top:1px solid #e3e6ea;font-size:13px;color:#57606a;display:flex;gap:12px;flex-wrap:wrap}
`;

export interface PortalPage {
  title: string;
  /** The navigation entry this page belongs to; none for pages outside the bar (sign-in states). */
  active?: NavPath;
  body: SafeHtml;
  status?: number;
  /** Whether the navigation bar shows: only for a signed-in member of an active customer. */
  nav?: boolean;
  /** Inline script of the page (allowed by its nonce). */
  script?: string;
  /** Origins the page's forms may be redirected to (a payments provider's checkout). */
  formActions?: string[];
  removeBranding: boolean;
}

/** Links the owner gave (support, docs, terms, privacy), when given. */
function footer(tenant: Tenant, removeBranding: boolean): SafeHtml {
  const api = tenant.api;
  const links = [
    api.website_url ? html`<a href="${api.website_url}" rel="noopener">Website</a>` : null,
    api.docs_url ? html`<a href="${api.docs_url}" rel="noopener">Docs</a>` : null,
    api.support_email ? html`<a href="mailto:${api.support_email}">Support</a>` : null,
    api.terms_url ? html`<a href="${api.terms_url}" rel="noopener">Terms</a>` : null,
    api.privacy_url ? html`<a href="${api.privacy_url}" rel="noopener">Privacy</a>` : null,
  ].filter((link): link is SafeHtml => link !== null);
  return html`<footer>${links}${removeBranding ? '' : html`<span class="powered">Powered by Gatehouse</span>`}</footer>`;
}

/** A portal page in the API's name, logo, accent colour and tagline, with its navigation and footer. */
export function sendPortalPage(reply: FastifyReply, tenant: Tenant, page: PortalPage) {
  const nav = page.nav === false ? html`` : html`<nav class="portal">${NAV.filter((item) => !('shown' in item) || item.shown(tenant)).map((item) => html`<a href="${item.path}"${page.active === item.path ? html` aria-current="page"` : ''}>${item.label}</a>`)}</nav>`;
  const tagline = tenant.api.tagline ? html`<p class="tagline">${tenant.api.tagline}</p>` : html``;
  return sendPage(reply, {
    title: page.title,
    branding: tenant.branding,
    status: page.status ?? 200,
    wide: true,
    style: PORTAL_STYLE,
    ...(page.script ? { script: page.script } : {}),
    ...(page.formActions ? { formActions: page.formActions } : {}),
    body: html`${tagline}${nav}${page.body}${footer(tenant, page.removeBranding)}`,
  });
}

/** Copy buttons: `data-copy` names the element whose text goes to the clipboard. */
export const COPY_SCRIPT = `document.querySelectorAll('[data-copy]').forEach(function(b){b.addEventListener('click',function(){navigator.clipboard.writeText(document.getElementById(b.dataset.copy).textContent).then(function(){b.textContent='Copied'})})})`;
