// The roles of an API's sign-in service in Chromium: a role added with permissions of a server (a
// sensitive one marked), its name refused on its field when empty, the servers read only once the
// form is opened, and the role deleted, confirmed; what a viewer sees.
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

async function apiWithServer(name: string) {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  const apiId = created.body.api.id as string;
  const server = await owner.client.post(`/apis/${apiId}/signin/servers`, {
    name: 'Forecasts MCP',
    resource_url: 'https://mcp.example.com/mcp',
    permissions: [{ name: 'read:forecasts' }, { name: 'admin:all', sensitive: true }],
  });
  assert.equal(server.status, 200, server.text);
  return { apiId, serverId: server.body.id as string };
}

test('roles: add with permissions (sensitive marked), the name refused on its field, delete confirmed', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const { apiId, serverId } = await apiWithServer('Weather API');
  const list = async () => (await owner.client.get(`/apis/${apiId}/signin/roles`)).body.roles as { name: string; description: string; permissions: { server_id: string; permission: string }[] }[];
  const path = `/apis/${apiId}/signin/roles`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin/roles`, 'GET /api/me']);
  await page.getByRole('heading', { level: 1, name: 'Roles of Weather API', exact: true }).waitFor();
  await page.getByRole('heading', { name: 'No roles yet' }).waitFor();
  await shotAndCheck(f, page, '1-no-roles');

  await page.getByRole('button', { name: 'New role' }).click();
  const form = page.getByRole('form', { name: 'Add a role' });
  await form.getByRole('checkbox', { name: /admin:all/ }).waitFor();
  await form.getByText('sensitive').waitFor();
  await form.getByRole('button', { name: 'Add role' }).click();
  assert.ok((await fieldError(form, 'Name')).length > 0, 'an empty name is refused');
  await shotAndCheck(f, page, '2-name-refused');
  await form.getByLabel('Name', { exact: true }).fill('Forecaster');
  await form.getByLabel('Description', { exact: true }).fill('Reads forecasts');
  await form.getByRole('checkbox', { name: /read:forecasts/ }).check();
  await form.getByRole('checkbox', { name: /admin:all/ }).check();
  await form.getByRole('button', { name: 'Add role' }).click();
  const row = page.locator('tr', { hasText: 'Forecaster' });
  await row.waitFor();
  const [role] = await list();
  assert.equal(role!.name, 'Forecaster');
  assert.equal(role!.description, 'Reads forecasts');
  assert.deepEqual(role!.permissions.map((p) => `${p.server_id} ${p.permission}`).sort(), [`${serverId} admin:all`, `${serverId} read:forecasts`]);
  await row.getByText('admin:all').waitFor();
  await shotAndCheck(f, page, '3-role-added');

  await page.getByRole('button', { name: 'Delete Forecaster' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Forecaster' });
  await dialog.getByRole('button', { name: 'Delete role' }).click();
  await page.getByRole('heading', { name: 'No roles yet' }).waitFor();
  assert.deepEqual(await list(), []);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('roles for a viewer: the list, no form or delete', { skip: skipWithoutChromium }, async () => {
  const { apiId } = await apiWithServer('Viewed API');
  const made = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'Reader' });
  assert.equal(made.status, 200, made.text);
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/roles`);
  await page.locator('tr', { hasText: 'Reader' }).waitFor();
  for (const name of ['New role', 'Delete Reader']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  await shotAndCheck(f, page, '4-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('roles: edit name and permissions in a dialog; a taken name is refused in it', { skip: skipWithoutChromium }, async () => {
  const { apiId, serverId } = await apiWithServer('Edited API');
  const reader = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'Reader', permissions: [{ server_id: serverId, permission: 'read:forecasts' }] });
  assert.equal(reader.status, 200, reader.text);
  assert.equal((await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'Admin' })).status, 200);
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/roles`);
  await page.getByRole('button', { name: 'Edit Reader' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Reader' });
  const form = dialog.getByRole('form', { name: 'Edit Reader' });
  assert.ok(await form.getByRole('checkbox', { name: /read:forecasts/ }).isChecked());
  await form.getByLabel('Name', { exact: true }).fill('Admin');
  await form.getByRole('button', { name: 'Save role' }).click();
  await form.getByRole('alert').waitFor();
  await shotAndCheck(f, page, '5-edit-name-taken');
  await form.getByLabel('Name', { exact: true }).fill('Power reader');
  await form.getByRole('checkbox', { name: /read:forecasts/ }).uncheck();
  await form.getByRole('checkbox', { name: /admin:all/ }).check();
  await form.getByRole('button', { name: 'Save role' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const roles = (await owner.client.get(`/apis/${apiId}/signin/roles`)).body.roles as { id: string; name: string; permissions: { permission: string }[] }[];
  const changed = roles.find((r) => r.id === reader.body.id)!;
  assert.equal(changed.name, 'Power reader');
  assert.deepEqual(changed.permissions.map((p) => p.permission), ['admin:all']);
  await page.locator('tr', { hasText: 'Power reader' }).getByText('admin:all').waitFor();
  await shotAndCheck(f, page, '6-edited');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
