// Helpers of the workspace group's journeys: the switcher, waiting for what a page shows, holding
// a request to see a loading state, and printing the requests a page makes on open.
import assert from 'node:assert/strict';
import type { Page, Route } from 'playwright-core';
import { MEMBER_PASSWORD, type Member } from '../../../server/test/support/workspaces.js';
import { apiRequestsOnOpen, newConsolePage, signInContext, type ConsoleFixture, type ConsolePage } from './console-browser.js';

/** The frame's workspace switcher. */
export const switcher = (page: Page) => page.getByLabel('Workspace', { exact: true });

/** The switcher's choices (names) and the id it has selected. */
export async function switcherState(page: Page): Promise<{ names: string[]; selected: string }> {
  const select = switcher(page);
  await select.waitFor();
  return { names: await select.locator('option').allTextContents(), selected: await select.inputValue() };
}

/** Polls until `check` holds (the page re-renders after an answer arrives), then returns its value. */
export async function eventually<T>(what: string, read: () => Promise<T>, check: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let value = await read();
  while (!check(value)) {
    if (Date.now() > until) assert.fail(`${what}: still ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

/**
 * Opens `path` by address and asserts the console API requests it made (issue 21: at most 3,
 * counting GET /api/me), printing them for the integrator's figures.
 */
export async function assertRequestsOnOpen(page: Page, path: string, label: string): Promise<string[]> {
  // apiRequestsOnOpen counts the new document's requests only, until the page has drawn and the
  // console API has been quiet for a second with nothing in flight.
  const requests = await apiRequestsOnOpen(page, path);
  await page.locator('main h1').first().waitFor();
  await page.locator('.state[role=status]').first().waitFor({ state: 'detached' });
  console.log(`requests on open, ${label} (${path.replace(/ws_[A-Za-z0-9]+/, ':ws')}): ${requests.length}: ${requests.join(', ')}`);
  assert.ok(requests.length <= 3, `${label}: ${requests.join(', ')}`);
  assert.ok(requests.includes('GET /api/me'), 'the frame reads the session');
  return requests;
}

/**
 * Holds the requests matching `pattern` until `release()` is called: the page shows its loading
 * state meanwhile. The request then goes to the real server.
 */
export async function holdRequests(page: Page, pattern: string | RegExp): Promise<{ release: () => Promise<void> }> {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const held: Promise<void>[] = [];
  const handler = (route: Route) => {
    const passed = gate.then(() => route.continue());
    held.push(passed);
    return passed;
  };
  await page.route(pattern, handler);
  return {
    release: async () => {
      open();
      // Every held request goes on before the route is taken away (which would pass them itself).
      await Promise.all(held);
      await page.unroute(pattern, handler);
    },
  };
}

/** A browser signed in as a member the tests added through an invitation. */
export async function memberPage(f: ConsoleFixture, member: Member): Promise<ConsolePage> {
  const cp = await newConsolePage(f);
  await signInContext(f, cp, member.email, MEMBER_PASSWORD);
  return cp;
}

/** How many buttons' accessible names start with `name`. */
export const buttonCount = (page: Page, name: string) => page.getByRole('button', { name: new RegExp(`^${name}`) }).count();
