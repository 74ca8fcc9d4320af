// A browser stand-in for the sign-in pages on a tenant host: a cookie jar, redirects followed by
// hand (303 becomes GET, as a browser does) until one leaves the host, and the forms of a page
// read out of its HTML so a test submits what the page offers, CSRF token included.
import assert from 'node:assert/strict';
import { tenantFetch } from './issuer.js';

export interface Field {
  name: string;
  value: string;
}

export interface Button {
  id: string | null;
  name: string | null;
  value: string;
  formaction: string | null;
}

export interface Form {
  action: string;
  method: string;
  fields: Field[];
  buttons: Button[];
}

export interface Page {
  status: number;
  headers: Headers;
  /** Where this answer came from. */
  url: string;
  html: string;
  /** Set when a redirect left the tenant host (the app's redirect URI): where it went. */
  leftTo: URL | null;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#96': '`' };
export const decodeEntities = (text: string) => text.replace(/&(amp|lt|gt|quot|#39|#96);/g, (_, name: string) => ENTITIES[name]!);

function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w-]+)(?:="([^"]*)")?/g)) out[match[1]!.toLowerCase()] = decodeEntities(match[2] ?? '');
  return out;
}

/** Every form of a page with its fields and submit buttons. */
export function formsIn(html: string): Form[] {
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].map((match) => {
    const form = attributes(match[1]!);
    const inner = match[2]!;
    const fields = [...inner.matchAll(/<input\b([^>]*)>/g)]
      .map((input) => attributes(input[1]!))
      .filter((input) => input.name)
      .map((input) => ({ name: input.name!, value: input.value ?? '' }));
    const buttons = [...inner.matchAll(/<button\b([^>]*)>/g)].map((button) => {
      const a = attributes(button[1]!);
      return { id: a.id ?? null, name: a.name ?? null, value: a.value ?? '', formaction: a.formaction ?? null };
    });
    return { action: form.action ?? '', method: (form.method ?? 'get').toLowerCase(), fields, buttons };
  });
}

/** The text of the page's error box, if it shows one. */
export function errorIn(html: string): string | null {
  const match = /<p class="error"[^>]*>([\s\S]*?)<\/p>/.exec(html);
  return match ? decodeEntities(match[1]!) : null;
}

/** The first `<h1>` of a page, tags stripped. */
export function headingOf(html: string): string {
  const match = /<h1>([\s\S]*?)<\/h1>/.exec(html);
  return match ? decodeEntities(match[1]!.replace(/<[^>]+>/g, '')) : '';
}

/** A browser on one tenant host: its own cookies, its own forms. */
export class TenantBrowser {
  readonly cookies = new Map<string, string>();

  /** @param send how requests reach the app: tenantFetch for `*.localhost`, or a custom domain's (test/support/domains.ts). */
  constructor(readonly origin: string, private readonly send: (url: URL, init: RequestInit) => Promise<Response> = tenantFetch) {}

  /** One request, cookies sent and kept; no redirect followed. */
  async request(method: 'GET' | 'POST', target: string, form?: Field[] | Record<string, string>, headers: Record<string, string> = {}): Promise<Page> {
    const url = new URL(target, this.origin);
    const sent: Record<string, string> = { ...headers };
    if (this.cookies.size) sent.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    let body: string | undefined;
    if (form !== undefined) {
      const params = new URLSearchParams();
      for (const { name, value } of Array.isArray(form) ? form : Object.entries(form).map(([name, value]) => ({ name, value }))) params.append(name, value);
      body = params.toString();
      sent['content-type'] ??= 'application/x-www-form-urlencoded';
    }
    const response = await this.send(url, { method, headers: sent, body });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0\b/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const location = response.headers.get('location');
    const next = location ? new URL(location, url) : null;
    return { status: response.status, headers: response.headers, url: url.href, html: await response.text(), leftTo: next && next.origin !== this.origin ? next : null };
  }

  /** Follows redirects on this host; stops at an answer that is not a redirect or one that leaves. */
  async follow(page: Page): Promise<Page> {
    let current = page;
    for (let hops = 0; current.status >= 300 && current.status < 400 && !current.leftTo; hops++) {
      assert.ok(hops < 10, 'too many redirects');
      current = await this.request('GET', new URL(current.headers.get('location')!, current.url).href);
    }
    return current;
  }

  async get(target: string): Promise<Page> {
    return this.follow(await this.request('GET', target));
  }

  /** GET /oauth/authorize with these parameters, then wherever it leads on this host. */
  authorize(params: Record<string, string>): Promise<Page> {
    const url = new URL('/oauth/authorize', this.origin);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return this.get(url.href);
  }

  /**
   * Submits the form holding the button `buttonId` (or the page's first form), as a browser would:
   * its fields with `values` filled in, the button's name and value, to the button's formaction.
   */
  async submit(page: Page, buttonId: string | null, values: Record<string, string> = {}, headers: Record<string, string> = {}): Promise<Page> {
    const forms = formsIn(page.html);
    const form = buttonId === null ? forms[0] : forms.find((f) => f.buttons.some((b) => b.id === buttonId));
    assert.ok(form, `no form with button ${buttonId} on ${page.url}: ${page.html.slice(0, 400)}`);
    const button = form.buttons.find((b) => b.id === buttonId) ?? form.buttons[0];
    const fields = form.fields.map((field) => (field.name in values ? { name: field.name, value: values[field.name]! } : field));
    for (const [name, value] of Object.entries(values)) if (!fields.some((field) => field.name === name)) fields.push({ name, value });
    if (button?.name) fields.push({ name: button.name, value: button.value });
    return this.follow(await this.request('POST', new URL(button?.formaction ?? form.action, page.url).href, fields, headers));
  }
}
