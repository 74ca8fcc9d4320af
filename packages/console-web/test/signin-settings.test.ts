// An API's sign-in settings in Chromium: lifetimes, sign-up for people, apps people connect with
// the platform plan's gate explained, metadata documents unadvertised, all saved in one PATCH and
// read back through the API; a value out of bounds refused on its own field (the API's 422) and
// one that is not a number before sending; what a viewer sees.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { apiRequestsOnOpen, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';
import { fieldError } from './support/page-fields.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

async function newApi(name: string) {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  return created.body.api as { id: string; plan: { name: string; connected_apps: boolean } };
}

test('sign-in settings: lifetimes, sign-up, apps people connect and the plan gate, saved and read back; errors by field', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const created = await newApi('Weather API');
  const apiId = created.id;
  const read = async () => (await owner.client.get(`/apis/${apiId}/signin`)).body;
  const path = `/apis/${apiId}/signin`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin`, 'GET /api/me']);
  await page.getByRole('heading', { level: 1, name: 'Sign-in of Weather API', exact: true }).waitFor();
  // The navigation has the page, marked as the current one.
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Sign-in', exact: true }).and(page.locator('[aria-current=page]')).waitFor();
  const initial = await read();
  assert.equal(await page.getByLabel('Access token lifetime (seconds)').inputValue(), String(initial.access_token_ttl_s));
  // The plan's gate, said where it applies (the API's platform plan decides).
  assert.equal(await page.getByTestId('plan-gate').count(), created.plan.connected_apps ? 0 : 1);
  await shotAndCheck(f, page, '1-signin-settings');

  // Not a number: refused before sending, on its field. Out of bounds: the API's 422 on its field.
  await page.getByLabel('Access token lifetime (seconds)').fill('an hour');
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  assert.equal(await fieldError(page, 'Access token lifetime (seconds)'), 'Enter a whole number.');
  await page.getByLabel('Access token lifetime (seconds)').fill('59');
  await page.getByLabel('Refresh token lifetime (seconds)').fill('3599');
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  assert.match(await fieldError(page, 'Access token lifetime (seconds)'), /60/);
  await page.getByRole('alert').getByText('Check the fields marked in red.').waitFor();
  await shotAndCheck(f, page, '2-errors-by-field');
  assert.deepEqual(await read(), initial, 'nothing saved');

  // Both bounds accepted: the lowest access token lifetime, the highest refresh lifetime.
  await page.getByLabel('Access token lifetime (seconds)').fill('60');
  await page.getByLabel('Refresh token lifetime (seconds)').fill('31,536,000');
  await page.getByLabel('Sign-in session lifetime (seconds)').fill('7200');
  await page.getByText('2 hours.', { exact: false }).first().waitFor();
  await page.getByRole('radio', { name: /Closed/ }).check();
  await page.getByRole('switch', { name: 'Apps people connect' }).click();
  await page.getByRole('switch', { name: 'Stop advertising client ID metadata documents' }).click();
  // Keyboard: the sensitive switch toggled with Space.
  await page.getByRole('switch', { name: 'End-user keys may carry sensitive permissions' }).focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  await page.getByRole('status').getByText(/^Saved at /).waitFor();
  const saved = await read();
  assert.equal(saved.access_token_ttl_s, 60);
  assert.equal(saved.refresh_token_ttl_s, 31_536_000);
  assert.equal(saved.session_ttl_s, 7200);
  assert.equal(saved.signups, 'closed');
  assert.equal(saved.connected_apps, initial.connected_apps === 'on' ? 'off' : 'on');
  assert.equal(saved.metadata_documents_unadvertised, !initial.metadata_documents_unadvertised);
  assert.equal(saved.sensitive_permissions_allowed, !initial.sensitive_permissions_allowed);
  await shotAndCheck(f, page, '3-saved');

  // One past each upper bound is refused.
  await page.getByLabel('Access token lifetime (seconds)').fill('86401');
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  assert.match(await fieldError(page, 'Access token lifetime (seconds)'), /86400/);
  // A reload shows what was saved.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Sign-in of Weather API' }).waitFor();
  assert.equal(await page.getByLabel('Access token lifetime (seconds)').inputValue(), '60');
  assert.equal(await page.getByRole('switch', { name: 'Apps people connect' }).getAttribute('aria-checked'), saved.connected_apps === 'on' ? 'true' : 'false');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('sign-in settings for a viewer: shown, not changed', { skip: skipWithoutChromium }, async () => {
  const created = await newApi('Viewed API');
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${created.id}/signin`);
  await page.getByRole('heading', { level: 1, name: 'Sign-in of Viewed API' }).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Save sign-in settings' }).count(), 0);
  assert.ok(await page.getByLabel('Access token lifetime (seconds)').isDisabled());
  await shotAndCheck(f, page, '4-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
