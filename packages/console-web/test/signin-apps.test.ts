// The owner's apps of an API's sign-in service in Chromium: a web app added with redirect and
// sign-out URIs and its client secret shown once (gone after a reload), a bad redirect URI refused
// on its field, a single-page app without a secret, a secret rotated (the old one working 24 hours
// more) and an app deleted, each confirmed in a dialog; what a viewer sees.
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
  return created.body.api.id as string;
}

interface App {
  id: string;
  name: string;
  kind: string;
  redirect_uris: string[];
  post_logout_redirect_uris: string[];
  has_secret: boolean;
  previous_secret_valid_until?: string;
}

test('apps: add a web app (secret shown once), a refused URI on its field, a single-page app, rotate, delete', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page, context } = cp;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.t.url });
  await shareSession(f, cp, owner.client);
  const apiId = await newApi('Weather API');
  const list = async () => (await owner.client.get(`/apis/${apiId}/signin/apps`)).body.apps as App[];
  const path = `/apis/${apiId}/signin/apps`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin/apps`, 'GET /api/me']);
  await page.getByRole('heading', { level: 1, name: 'Apps of Weather API', exact: true }).waitFor();
  await page.getByRole('heading', { name: 'No apps yet' }).waitFor();
  await shotAndCheck(f, page, '1-no-apps');

  // A redirect URI that is not absolute: the API's 422 lands on the field, naming the line.
  const form = page.getByRole('form', { name: 'Add an app' });
  await form.getByLabel('Name', { exact: true }).fill('Dashboard');
  await form.getByLabel('Redirect URIs').fill('https://app.example.com/callback\nnot a url');
  await form.getByLabel('Sign-out URIs').fill('https://app.example.com/');
  await form.getByRole('button', { name: 'Add app' }).click();
  assert.match(await fieldError(form, 'Redirect URIs'), /^Line 2: /);
  await shotAndCheck(f, page, '2-refused-uri');
  assert.deepEqual(await list(), [], 'nothing added');

  // Corrected: added, its secret shown once and copied.
  await form.getByLabel('Redirect URIs').fill('https://app.example.com/callback\nhttp://localhost:3000/callback');
  await form.getByRole('button', { name: 'Add app' }).click();
  const secretShown = page.getByTestId('client-secret');
  await secretShown.waitFor();
  const secret = (await secretShown.textContent())!;
  assert.ok(secret.length >= 20, secret);
  const [web] = await list();
  assert.equal(web!.name, 'Dashboard');
  assert.equal(web!.kind, 'web');
  assert.deepEqual(web!.redirect_uris, ['https://app.example.com/callback', 'http://localhost:3000/callback']);
  assert.deepEqual(web!.post_logout_redirect_uris, ['https://app.example.com/']);
  assert.ok(web!.has_secret);
  await page.getByTestId(`app-${web!.id}`).getByText(web!.id).waitFor();
  await page.getByRole('button', { name: 'Copy', exact: true }).click();
  assert.equal(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), secret);
  // The form is empty again, ready for the next app.
  assert.equal(await form.getByLabel('Name', { exact: true }).inputValue(), '');
  await shotAndCheck(f, page, '3-web-app-secret');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  assert.equal(await secretShown.count(), 0);

  // A single-page app: no secret, nothing to rotate.
  await form.getByLabel('Name', { exact: true }).fill('Browser app');
  await form.getByRole('radio', { name: /Single-page app/ }).check();
  await form.getByLabel('Redirect URIs').fill('https://spa.example.com/cb');
  await form.getByRole('button', { name: 'Add app' }).click();
  const spaRow = page.locator('tr', { hasText: 'Browser app' });
  await spaRow.waitFor();
  assert.equal(await secretShown.count(), 0, 'a single-page app has no secret to show');
  assert.equal(await spaRow.getByRole('button', { name: /Rotate secret/ }).count(), 0);
  assert.equal((await list()).find((a) => a.name === 'Browser app')!.kind, 'spa');

  // A reload: the secret is not shown again.
  await page.reload();
  await page.locator('tr', { hasText: 'Browser app' }).waitFor();
  assert.equal(await page.getByText(secret).count(), 0);

  // Rotate the web app's secret: confirmed in a dialog (Escape cancels), the new one shown once.
  await page.getByRole('button', { name: 'Rotate secret of Dashboard' }).click();
  const rotateDialog = page.getByRole('dialog', { name: 'Rotate the secret of Dashboard' });
  await rotateDialog.waitFor();
  await page.keyboard.press('Escape');
  await rotateDialog.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Rotate secret of Dashboard' }).click();
  await rotateDialog.getByText('keeps working for 24 hours').waitFor();
  await shotAndCheck(f, page, '4-rotate-dialog');
  const rotatedFrom = f.t.clock.now().getTime();
  await rotateDialog.getByRole('button', { name: 'Rotate secret' }).click();
  await rotateDialog.waitFor({ state: 'hidden' });
  const rotated = (await secretShown.textContent())!;
  assert.notEqual(rotated, secret);
  const after = (await list()).find((a) => a.id === web!.id)!;
  const graceStarts = new Date(after.previous_secret_valid_until!).getTime() - 24 * 3600_000;
  assert.ok(graceStarts >= rotatedFrom - 1000 && graceStarts <= f.t.clock.now().getTime(), 'the old secret works 24 hours more');
  await page.getByTestId('previous-app-secret').waitFor();
  await shotAndCheck(f, page, '5-rotated');

  // Delete the single-page app, confirmed.
  await page.getByRole('button', { name: 'Delete Browser app' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete Browser app' });
  await deleteDialog.getByRole('button', { name: 'Delete app' }).click();
  await deleteDialog.waitFor({ state: 'hidden' });
  await page.locator('tr', { hasText: 'Browser app' }).waitFor({ state: 'detached' });
  assert.deepEqual((await list()).map((a) => a.name), ['Dashboard']);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('apps for a viewer: the list, no form, rotation or delete', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Viewed API');
  const made = await owner.client.post(`/apis/${apiId}/signin/apps`, { name: 'Phone app', kind: 'native', redirect_uris: ['com.example.phone:/callback'] });
  assert.equal(made.status, 200, made.text);
  assert.equal(made.body.client_secret, undefined, 'a native app has no secret');
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/apps`);
  await page.locator('tr', { hasText: 'Phone app' }).waitFor();
  for (const name of ['Add app', 'Rotate secret of Phone app', 'Delete Phone app']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  await shotAndCheck(f, page, '6-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('apps: edit the name, redirect and sign-out URIs in a dialog; a refused URI keeps it open; Escape changes nothing', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Edited API');
  const made = await owner.client.post(`/apis/${apiId}/signin/apps`, { name: 'Dashboard', kind: 'web', redirect_uris: ['https://app.example.com/callback'] });
  assert.equal(made.status, 200, made.text);
  const appId = made.body.id as string;
  const read = async () => (await owner.client.get(`/apis/${apiId}/signin/apps/${appId}`)).body as App & { refresh_tokens: boolean };
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/apps`);
  await page.getByRole('navigation', { name: 'Sign-in service' }).getByRole('link', { name: 'Apps', exact: true }).waitFor();

  // Escape: nothing sent, nothing changed.
  await page.getByRole('button', { name: 'Edit Dashboard' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Dashboard' });
  const form = dialog.getByRole('form', { name: 'Edit Dashboard' });
  await form.getByLabel('Name', { exact: true }).fill('Changed by mistake');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await read()).name, 'Dashboard');

  // Opened again: the form starts from the app as it is, its kind fixed.
  await page.getByRole('button', { name: 'Edit Dashboard' }).click();
  assert.equal(await form.getByLabel('Name', { exact: true }).inputValue(), 'Dashboard');
  await form.getByText('the kind is fixed').waitFor();
  assert.equal(await form.getByRole('radio').count(), 0);
  await form.getByLabel('Name', { exact: true }).fill('Dashboard v2');
  await form.getByLabel('Redirect URIs').fill('https://app.example.com/callback\nhttps://app.example.com/cb#frag');
  await form.getByLabel('Sign-out URIs').fill('https://app.example.com/bye');
  await form.getByRole('button', { name: 'Save app' }).click();
  assert.match(await fieldError(form, 'Redirect URIs'), /^Line 2: /);
  await shotAndCheck(f, page, '7-edit-refused');
  assert.equal((await read()).name, 'Dashboard', 'nothing changed');

  await form.getByLabel('Redirect URIs').fill('https://app.example.com/callback\nhttps://app.example.com/cb2');
  await form.getByLabel('Refresh tokens (the app may ask for offline_access)').uncheck();
  await form.getByRole('button', { name: 'Save app' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const changed = await read();
  assert.equal(changed.name, 'Dashboard v2');
  assert.deepEqual(changed.redirect_uris, ['https://app.example.com/callback', 'https://app.example.com/cb2']);
  assert.deepEqual(changed.post_logout_redirect_uris, ['https://app.example.com/bye']);
  assert.equal(changed.refresh_tokens, false);
  assert.equal(changed.kind, 'web');
  const row = page.getByTestId(`app-${appId}`);
  await row.getByText('https://app.example.com/cb2').waitFor();
  await row.getByRole('cell', { name: `Dashboard v2 ${appId}` }).waitFor();
  // Focus went back to the button that opened the dialog.
  assert.equal(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent), 'Edit Dashboard v2');
  await shotAndCheck(f, page, '8-edited');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
