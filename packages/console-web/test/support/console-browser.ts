// The console's browser journeys (DESIGN sections 10 and 11): the real app on a real database with
// real SMTP, Debian's Chromium driven by playwright-core, one browser per test file. Every page is
// checked by axe-core in the page and saved as a screenshot under
// packages/console-web/test-output/<test file>/ for a reviewer to look at.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Frame, type Page, type Request } from 'playwright-core';
import { PASSWORD, signUp, type SignedUp } from '../../../server/test/support/flows.js';
import { startTestApp, type TestApp } from '../../../server/test/support/harness.js';

export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
/** The reason browser journeys are skipped on a machine without Chromium (CI installs it). */
export const skipWithoutChromium = existsSync(CHROMIUM) ? false : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;

const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface ConsoleFixture {
  t: TestApp;
  browser: Browser;
  /** Where this test file's screenshots go. */
  output: string;
  close(): Promise<void>;
}

/** The app and one browser for a test file. */
export async function startConsole(testFileUrl: string, env: Record<string, string> = {}): Promise<ConsoleFixture> {
  const file = relative(join(PACKAGE_DIR, 'test'), fileURLToPath(testFileUrl)).replace(/\.test\.[jt]s$/, '');
  const output = join(PACKAGE_DIR, 'test-output', file);
  mkdirSync(output, { recursive: true });
  const t = await startTestApp(env);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--headless', '--disable-gpu', '--disable-background-networking'] });
  return {
    t,
    browser,
    output,
    async close() {
      await browser.close();
      await t.close();
    },
  };
}

export interface ConsolePage {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy refusals and uncaught errors seen in the page so far. */
  problems: string[];
}

/** A new browser context (its own cookies) and page, watching for CSP refusals and page errors. */
export async function newConsolePage(f: ConsoleFixture, viewport = { width: 1280, height: 900 }): Promise<ConsolePage> {
  const context = await f.browser.newContext({ viewport, baseURL: f.t.url });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return { context, page, problems };
}

/** An owner with an account made through the API, signed in in this browser context. */
export async function signedInOwner(f: ConsoleFixture, cp: ConsolePage, options: { name?: string; email?: string } = {}): Promise<SignedUp> {
  const owner = await signUp(f.t, options);
  await signInContext(f, cp, owner.email);
  return owner;
}

/** Signs a browser context in through the API (the cookie lands in the context's jar). */
export async function signInContext(f: ConsoleFixture, cp: ConsolePage, email: string, password = PASSWORD) {
  const answer = await cp.context.request.post(`${f.t.url}/api/auth/login`, { data: { email, password }, headers: { 'x-requested-with': 'test' } });
  assert.equal(answer.status(), 200, await answer.text());
}

/**
 * axe-core run in the page, as it stands: no serious or critical violation. Injected through the
 * debugging protocol, which the page's Content-Security-Policy does not govern.
 */
export async function checkAccessibility(page: Page, label: string) {
  // Once per document: the console is a single-page app, so axe (half a megabyte of script sent
  // over the debugging protocol) stays loaded between the checks of one journey.
  if (!(await page.evaluate('typeof globalThis.axe?.run === "function"'))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown }[] }[] }> } }).axe;
    return axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations'] });
  });
  const bad = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')})`),
    [],
    `axe on ${label}`,
  );
}

/** A screenshot of the whole page, after axe has checked it. */
export async function shotAndCheck(f: ConsoleFixture, page: Page, name: string) {
  await checkAccessibility(page, name);
  // From the top, so the sticky top bar is drawn where it belongs in a full-page image.
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: join(f.output, `${name}.png`), fullPage: true });
}

/**
 * The console API requests a page makes when it is opened by address (a full load), counted until
 * the console API has been quiet for a second after its first request and the page shows its
 * heading and no loading state: the figure of issue 21's
 * "requests each page makes on open". (Playwright's `networkidle` alone is not enough: on a busy
 * machine the bundle can take longer than its 500 ms to start, and the count came out as 0.)
 */
export async function apiRequestsOnOpen(page: Page, path: string, quietMs = 1000): Promise<string[]> {
  const seen: string[] = [];
  // Only the new document's requests count. A request the page being left still had in flight ends
  // (failed) during the navigation; counted as an end it took the count below zero, so it never came
  // back to zero and the page "never went quiet" (console-web/payments failed so in CI twice).
  const open = new Set<Request>();
  let committed = false;
  let lastChange = Date.now();
  const isApi = (request: Request) => new URL(request.url()).pathname.startsWith('/api/');
  const navigated = (frame: Frame) => {
    if (frame === page.mainFrame()) committed = true;
  };
  const started = (request: Request) => {
    if (!committed || !isApi(request)) return;
    const url = new URL(request.url());
    seen.push(`${request.method()} ${url.pathname}${url.search}`);
    open.add(request);
    lastChange = Date.now();
  };
  const ended = (request: Request) => {
    if (open.delete(request)) lastChange = Date.now();
  };
  page.on('framenavigated', navigated);
  page.on('request', started);
  page.on('requestfinished', ended);
  page.on('requestfailed', ended);
  try {
    await page.goto(path, { waitUntil: 'load' });
    const deadline = Date.now() + 30_000;
    // Quiet is not enough on a machine busy enough to take over a second between the session's
    // answer and the page's own requests: the page must also show its heading and no loading state.
    const settled = () =>
      page.evaluate(() => {
        const doc = (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document;
        return Boolean(doc.querySelector('h1')) && !doc.querySelector('.state[role=status]');
      });
    while (!(seen.length > 0 && open.size === 0 && Date.now() - lastChange >= quietMs && (await settled()))) {
      if (Date.now() > deadline) {
        // Which condition held it, for the next time this happens on a busy machine.
        const state = await page.evaluate(() => {
          const doc = (globalThis as unknown as { document: { querySelector(s: string): { textContent: string | null } | null } }).document;
          return { heading: doc.querySelector('h1')?.textContent ?? null, loading: doc.querySelector('.state[role=status]')?.textContent ?? null };
        });
        throw new Error(`${path}: the console API never went quiet (${seen.join(', ')}; ${open.size} in flight, heading ${JSON.stringify(state.heading)}, loading state ${JSON.stringify(state.loading)})`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } finally {
    page.off('framenavigated', navigated);
    page.off('request', started);
    page.off('requestfinished', ended);
    page.off('requestfailed', ended);
  }
  return seen;
}

/** The page's own heading. */
export const heading = (page: Page) => page.locator('h1').first().textContent();
