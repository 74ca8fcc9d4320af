// The workspace pages in Chromium: making and switching workspaces, renaming and deleting one,
// workspace keys shown once, and the loading, error and not-found states (members and roles are in
// members.test.ts). Set-up goes through the API; the flow under test goes through the pages.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp } from '../../server/test/support/flows.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { heading, newConsolePage, shotAndCheck, signedInOwner, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { assertRequestsOnOpen, eventually, holdRequests, memberPage, switcher, switcherState } from './support/workspace-pages.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

const skip = skipWithoutChromium;
const rowOf = (page: import('playwright-core').Page, text: string) => page.locator('tbody tr').filter({ hasText: text });

test('a new workspace is made from its page, lands the owner in it, and the switcher lists and switches every workspace', { skip }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const owner = await signedInOwner(f, cp, { name: 'Wanda Owner' });
  await assertRequestsOnOpen(page, '/workspaces/new', 'new workspace');
  assert.equal(await heading(page), 'New workspace');
  await shotAndCheck(f, page, '01-new-workspace');

  // A blank name: the API's 422 lands on the field.
  await page.getByLabel('Workspace name').fill('   ');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.locator('.field-error').waitFor();
  assert.equal(await page.getByLabel('Workspace name').getAttribute('aria-invalid'), 'true');
  await shotAndCheck(f, page, '02-new-workspace-refused');

  await page.getByLabel('Workspace name').fill('Second Shop');
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.waitForURL(/\/workspaces\/ws_[A-Za-z0-9]+\/apis$/);
  const created = /\/workspaces\/(ws_[A-Za-z0-9]+)\//.exec(page.url())![1]!;
  assert.notEqual(created, owner.workspaceId);
  const me = (await owner.client.get('/me')).body;
  assert.deepEqual(me.workspaces.map((w: { name: string; role: string }) => [w.name, w.role]), [['Wanda Owner', 'owner'], ['Second Shop', 'owner']]);
  assert.deepEqual(await switcherState(page), { names: ['Wanda Owner', 'Second Shop', 'New workspace…'], selected: created });

  // Switching: the first workspace, then by address the second, each selected where it shows.
  await switcher(page).selectOption(owner.workspaceId);
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  assert.equal((await switcherState(page)).selected, owner.workspaceId);
  await page.goto(`/workspaces/${created}/members`);
  await page.getByRole('heading', { name: 'Members' }).waitFor();
  assert.equal((await switcherState(page)).selected, created);
  assert.equal(await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Members' }).getAttribute('href'), `/workspaces/${created}/members`);
  // The workspace's own address is its APIs.
  await page.goto(`/workspaces/${owner.workspaceId}`);
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  // "New workspace…" in the switcher opens the page.
  await switcher(page).selectOption('+new');
  await page.waitForURL('**/workspaces/new');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('settings: rename, a refused rename, delete confirmed by typing the name, then the last workspace', { skip }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const owner = await signedInOwner(f, cp, { name: 'Sam Owner' });
  const spare = (await owner.client.post('/workspaces', { name: 'Spare' })).body.id as string;
  await assertRequestsOnOpen(page, `/workspaces/${owner.workspaceId}/settings`, 'settings');
  assert.equal(await page.getByLabel('Workspace name').inputValue(), 'Sam Owner');
  await shotAndCheck(f, page, '03-settings');

  await page.getByLabel('Workspace name').fill('Renamed Co');
  await page.getByRole('button', { name: 'Rename workspace' }).click();
  await page.getByText('Renamed to Renamed Co.').waitFor();
  assert.equal((await owner.client.get(`/workspaces/${owner.workspaceId}`)).body.name, 'Renamed Co');
  await eventually('the switcher shows the new name', () => switcherState(page), (s) => s.names[0] === 'Renamed Co');

  await page.getByLabel('Workspace name').fill(' ');
  await page.getByRole('button', { name: 'Rename workspace' }).click();
  await page.locator('.field-error').waitFor();
  await shotAndCheck(f, page, '04-settings-rename-refused');
  assert.equal((await owner.client.get(`/workspaces/${owner.workspaceId}`)).body.name, 'Renamed Co');

  // Deleting Spare: the dialog's button stays off until the name is typed exactly.
  await page.goto(`/workspaces/${spare}/settings`);
  await page.getByRole('button', { name: 'Delete workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Spare?' });
  await dialog.waitFor();
  const confirm = dialog.getByRole('button', { name: 'Delete workspace' });
  assert.equal(await confirm.isDisabled(), true);
  await dialog.getByLabel('Type Spare to confirm').fill('spare');
  assert.equal(await confirm.isDisabled(), true);
  await shotAndCheck(f, page, '05-delete-workspace-confirm');
  await dialog.getByLabel('Type Spare to confirm').fill('Spare');
  await confirm.click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);
  assert.equal((await owner.client.get(`/workspaces/${spare}`)).status, 404);
  await eventually('the switcher forgets Spare', () => switcherState(page), (s) => !s.names.includes('Spare'));

  // The last workspace: after deleting it the owner is asked to make one.
  await page.goto(`/workspaces/${owner.workspaceId}/settings`);
  await page.getByRole('button', { name: 'Delete workspace' }).click();
  await page.getByLabel('Type Renamed Co to confirm').fill('Renamed Co');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete workspace' }).click();
  await page.waitForURL('**/workspaces/new');
  assert.deepEqual((await owner.client.get('/me')).body.workspaces, []);
  await page.getByRole('heading', { name: 'New workspace' }).waitFor();
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('workspace keys: empty, created and shown once with copy, working, then deleted and refused', { skip }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await cp.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.t.url });
  const owner = await signedInOwner(f, cp, { name: 'Kim Owner' });
  const ws = owner.workspaceId;
  await assertRequestsOnOpen(page, `/workspaces/${ws}/keys`, 'workspace keys');
  await page.getByRole('heading', { name: 'No workspace keys' }).waitFor();
  await shotAndCheck(f, page, '14-keys-empty');

  await page.getByLabel('Key name').fill('  ');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.locator('.field-error').waitFor();
  assert.equal(await page.getByLabel('Key name').getAttribute('aria-invalid'), 'true');

  await page.getByLabel('Key name').fill('Deploy bot');
  await page.getByLabel('Role').selectOption('viewer');
  await page.getByRole('button', { name: 'Create key' }).click();
  const shown = page.getByTestId('new-workspace-key');
  await shown.waitFor();
  const key = (await shown.textContent()) ?? '';
  assert.match(key, /^ghw_[0-9A-Za-z]{46}$/);
  await page.getByRole('button', { name: 'Copy' }).click();
  await page.getByRole('button', { name: /^Copied/ }).waitFor();
  assert.equal(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), key);
  await shotAndCheck(f, page, '15-key-shown-once');

  // The key works as a viewer of this workspace, and the list shows its start, never all of it.
  const bot = f.t.client();
  bot.bearer = key;
  assert.equal((await bot.get(`/workspaces/${ws}/keys`)).status, 200);
  assert.equal((await bot.post('/workspaces/' + ws + '/keys', { name: 'No' })).status, 403);
  await page.getByRole('button', { name: 'I have copied the key' }).click();
  await page.reload();
  const row = rowOf(page, 'Deploy bot');
  await row.waitFor();
  assert.match((await row.textContent()) ?? '', new RegExp(`${key.slice(0, 12)}….*viewer`));
  assert.doesNotMatch((await row.textContent()) ?? '', /never/, 'last used when the bot called');
  assert.ok(!(await page.content()).includes(key), 'the key is not on the page again');
  await shotAndCheck(f, page, '16-keys-list');

  await row.getByRole('button', { name: 'Delete the key Deploy bot' }).click();
  await page.getByRole('dialog', { name: 'Delete the key Deploy bot?' }).waitFor();
  await shotAndCheck(f, page, '17-delete-key-confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete key' }).click();
  await page.getByRole('heading', { name: 'No workspace keys' }).waitFor();
  assert.equal((await bot.get(`/workspaces/${ws}/keys`)).status, 401);

  const held = await holdRequests(page, '**/api/workspaces/*/keys');
  await page.reload();
  await page.getByText('Loading keys…').waitFor();
  await shotAndCheck(f, page, '18-keys-loading');
  await held.release();
  await page.getByRole('heading', { name: 'No workspace keys' }).waitFor();
  assert.deepEqual((await owner.client.get(`/workspaces/${ws}/keys`)).body.keys, []);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('loading, a refusal on the way and an unknown workspace: each page says what happened', { skip }, async () => {
  const owner = await signUp(f.t, { name: 'Lou Owner' });
  const ws = owner.workspaceId;
  const viewer = await addMember(f.t, owner.client, ws, 'viewer', 'lee');
  const cp = await memberPage(f, viewer);
  const { page } = cp;

  const held = await holdRequests(page, '**/api/workspaces/*/members');
  await page.goto(`/workspaces/${ws}/members`);
  await page.getByText('Loading members…').waitFor();
  await shotAndCheck(f, page, '21-members-loading');
  await held.release();
  await rowOf(page, viewer.email).waitFor();

  // Removed while the page is open: the next page's read is refused, and the page says so.
  assert.equal((await owner.client.delete(`/workspaces/${ws}/members/${viewer.userId}`)).status, 204);
  await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Workspace keys' }).click();
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /No such workspace/);
  await shotAndCheck(f, page, '22-keys-error');
  await cp.context.close();

  // A workspace that is not the person's: no request beyond the session, and a clear page.
  const other = await newConsolePage(f);
  await signedInOwner(f, other, { name: 'Nia Owner' });
  const requests = await assertRequestsOnOpen(other.page, `/workspaces/${ws}/members`, "another's workspace");
  assert.deepEqual(requests, ['GET /api/me']);
  await other.page.getByRole('heading', { name: 'Workspace not found' }).waitFor();
  await shotAndCheck(f, other.page, '23-workspace-not-found');
  await other.context.close();
});
