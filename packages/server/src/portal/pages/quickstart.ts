import { html, type SafeHtml } from '../../platform/pages/html.js';
import type { Tenant } from '../../issuer/tenant.js';
import type { PortalContext } from '../context.js';

/** A word for a POSIX shell: single quotes, each single quote inside closed, escaped and reopened. */
export const shellWord = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** A JavaScript string literal: JSON's, with U+2028 and U+2029 escaped as well. */
export const jsString = (value: string) => JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);

/** What the examples show where the API's address goes, while its owner has not set one. */
export const ADDRESS_PLACEHOLDER = 'API_ADDRESS';

/**
 * A curl line and a Node example calling the owner's API with a key, in its header. Without the
 * API's address (`api_base_url`) they hold a placeholder and say where the owner sets it, rather
 * than a made-up host a customer would try.
 */
export function quickstartSnippets(tenant: Tenant, key: string | null): SafeHtml {
  const base = tenant.api.api_base_url || ADDRESS_PLACEHOLDER;
  const unset = tenant.api.api_base_url
    ? html``
    : html`<p class="note warning" id="no-address">${tenant.api.name} has not published the address its API runs at yet: the examples show <code>${ADDRESS_PLACEHOLDER}</code> in its place. If this is your API, set “Where your API runs” in its Settings in the Gatehouse console.</p>`;
  const header = tenant.api.key_header || 'Authorization';
  const value = key ?? 'YOUR_API_KEY';
  // A key in Authorization goes as a Bearer token; any other header takes the key itself.
  const headerValue = header.toLowerCase() === 'authorization' ? `Bearer ${value}` : value;
  // Each value quoted for its language, whatever an editor typed (issue 26 item 3): one shell word
  // each, and JavaScript string literals by JSON's rules.
  const curl = `curl ${shellWord(base)} \\\n  -H ${shellWord(`${header}: ${headerValue}`)}`;
  const node = `const response = await fetch(${jsString(base)}, {\n  headers: { ${jsString(header)}: ${jsString(headerValue)} },\n});\nconsole.log(response.status, await response.text());`;
  return html`${unset}<h2>With curl</h2><pre><code id="curl">${curl}</code></pre><h2>With Node.js</h2><pre><code id="node">${node}</code></pre>`;
}

export function quickstartPage(ctx: PortalContext) {
  return ctx.page({
    title: 'Quickstart',
    active: '/quickstart',
    body: html`<h1>Quickstart</h1>
<p>Send your key in the <code>${ctx.tenant.api.key_header || 'Authorization'}</code> header of every request to ${ctx.tenant.api.name}. Make a key on the <a href="/keys">Keys</a> page; it is shown once, with these examples filled in.</p>
${quickstartSnippets(ctx.tenant, null)}`,
  });
}
