// Helpers of the invitation page tests (test/console/invite-page*.test.ts): a browser stand-in on
// the console host, the link from the real invitation mail, and what a page says.
import assert from 'node:assert/strict';
import type { TestClient } from './client.js';
import type { TestApp } from './harness.js';
import { errorIn, headingOf, TenantBrowser, type Page } from './tenant-client.js';
import { sendInvite, type InvitableRole } from './workspaces.js';

/** A browser on the console host: its own cookies, the forms of each page (tenant-client.ts). */
export const consoleBrowser = (t: TestApp) => new TenantBrowser(t.url);

/** A browser signed in to the console as the person whose API client this is. */
export function browserSignedInAs(t: TestApp, client: TestClient): TenantBrowser {
  const browser = consoleBrowser(t);
  const session = client.cookies.get('gh_session');
  assert.ok(session, 'the client is signed in');
  browser.cookies.set('gh_session', session);
  return browser;
}

export interface MailedInvitation {
  token: string;
  /** The link exactly as the mail carries it. */
  link: string;
}

/** Invites an address and returns the link of the mail that arrived over SMTP. */
export async function mailedInvitation(t: TestApp, inviter: TestClient, workspaceId: string, email: string, role: InvitableRole): Promise<MailedInvitation> {
  const { token, mail } = await sendInvite(t, inviter, workspaceId, email, role);
  const link = /(https?:\/\/\S+\/invites\/[A-Za-z0-9_-]+)/.exec(mail.text)?.[1];
  assert.ok(link, mail.text);
  return { token, link };
}

/** The page must be an HTML page (never a JSON answer) with this status and heading. */
export function expectHtmlPage(page: Page, status: number, heading: RegExp): Page {
  assert.equal(page.status, status, `${page.url}: ${page.html.slice(0, 800)}`);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(headingOf(page.html), heading, page.html.slice(0, 800));
  return page;
}

/** The page must show this message in its error box. */
export function expectError(page: Page, status: number, message: RegExp): Page {
  assert.equal(page.status, status, `${page.url}: ${page.html.slice(0, 800)}`);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  assert.match(errorIn(page.html) ?? '', message, page.html.slice(0, 800));
  return page;
}

/** The page's text with tags stripped and entities decoded, for "the page says" checks. */
export function textOf(page: Page): string {
  return page.html
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<title>[\s\S]*?<\/title>/g, '')
    // Inline tags join their text; the templates put blocks on lines of their own.
    .replace(/<[^>]+>/g, '')
    .replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

/** What the console API says of the person a browser is signed in as (null when it is not). */
export async function consoleMe(t: TestApp, browser: TenantBrowser): Promise<{ user: { id: string; email: string }; workspaces: { id: string; role: string }[] } | null> {
  const session = browser.cookies.get('gh_session');
  if (!session) return null;
  const response = await fetch(`${t.url}/api/me`, { headers: { cookie: `gh_session=${session}` } });
  return response.status === 200 ? ((await response.json()) as never) : null;
}
