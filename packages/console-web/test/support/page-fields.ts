// What a journey reads off a form and the session: the error under a field (found by its label,
// through the field's aria-describedby, as a screen reader finds it) and who the browser context is
// signed in as, asked of the console API itself.
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import type { ConsoleFixture, ConsolePage } from './console-browser.js';

/** The error shown under the field labelled `label` within `scope`, once the field is marked invalid. */
export async function fieldError(scope: Page | Locator, label: string): Promise<string> {
  const field = scope.getByLabel(label, { exact: true });
  await field.and(scope.locator('[aria-invalid=true]')).waitFor();
  const ids = ((await field.getAttribute('aria-describedby')) ?? '').split(' ');
  const page = 'page' in scope ? scope.page() : scope;
  const text = await page.locator(`[id="${ids.at(-1)}"]`).textContent();
  assert.ok(text, `${label} has an error under it`);
  return text;
}

export interface Me {
  user: { email: string; name: string; two_factor: boolean };
  workspaces: { id: string; name: string; role: string }[];
}

/** GET /api/me with the context's cookies: null when it is not signed in. */
export async function meOf(f: ConsoleFixture, cp: ConsolePage): Promise<Me | null> {
  const answer = await cp.context.request.get(`${f.t.url}/api/me`);
  return answer.status() === 200 ? ((await answer.json()) as Me) : null;
}
