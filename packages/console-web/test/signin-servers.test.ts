// The servers of an API's sign-in service in Chromium: a server added with its permissions (one
// sensitive) and a per-person limit, its rs_ client ID and secret shown once; a bad limit refused
// before sending and an out-of-bounds one on its field (the API's 422), a bad permission name on
// its row; the secret rotated with 24 hours of overlap and the server deleted, each confirmed.
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

interface Server {
  id: string;
  name: string;
  resource_url: string;
  client_id: string;
  permissions: { name: string; description: string; sensitive: boolean }[];
  requests_per_minute: number | null;
  previous_secret_valid_until?: string;
}

test('servers: add with permissions and a limit (rs_ credentials shown once), errors by field, rotate with overlap, delete', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const apiId = await newApi('Weather API');
  const list = async () => (await owner.client.get(`/apis/${apiId}/signin/servers`)).body.servers as Server[];
  const path = `/apis/${apiId}/signin/servers`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin/servers`, 'GET /api/me']);
  await page.getByRole('heading', { level: 1, name: 'Servers of Weather API', exact: true }).waitFor();
  await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
  await shotAndCheck(f, page, '1-no-servers');

  const form = page.getByRole('form', { name: 'Add a server' });
  await form.getByLabel('Name', { exact: true }).fill('Forecasts MCP');
  await form.getByLabel('Resource URL').fill('https://mcp.example.com/mcp');
  // Not a number: refused before sending.
  await form.getByLabel('Requests a minute, per person').fill('many');
  await form.getByRole('button', { name: 'Add server' }).click();
  assert.equal(await fieldError(form, 'Requests a minute, per person'), 'Enter a whole number.');
  // Bounds: 0 and 1,000,001 refused by the API on the field.
  for (const out of ['0', '1000001']) {
    await form.getByLabel('Requests a minute, per person').fill(out);
    await form.getByRole('button', { name: 'Add server' }).click();
    assert.match(await fieldError(form, 'Requests a minute, per person'), /1000000|1/, out);
  }
  // A permission name with a space: refused on its row.
  await form.getByRole('button', { name: 'Add a permission' }).click();
  await form.getByLabel('Permission 1 name').fill('read forecasts');
  await form.getByLabel('Requests a minute, per person').fill('1,000,000');
  await form.getByRole('button', { name: 'Add server' }).click();
  assert.ok((await fieldError(form, 'Permission 1 name')).length > 0);
  await shotAndCheck(f, page, '2-errors');
  assert.deepEqual(await list(), [], 'nothing added');

  await form.getByLabel('Permission 1 name').fill('read:forecasts');
  await form.getByLabel('Permission 1 description').fill('Read forecasts');
  await form.getByRole('button', { name: 'Add a permission' }).click();
  await form.getByLabel('Permission 2 name').fill('write:alerts');
  await form.getByLabel('Permission 2 is sensitive').check();
  // A third row added and removed again, by keyboard.
  await form.getByRole('button', { name: 'Add a permission' }).click();
  await form.getByRole('button', { name: 'Remove permission 3' }).focus();
  await page.keyboard.press('Enter');
  assert.equal(await form.getByLabel('Permission 3 name').count(), 0);
  await form.getByRole('button', { name: 'Add server' }).click();
  const secretShown = page.getByTestId('server-secret');
  await secretShown.waitFor();
  const secret = (await secretShown.textContent())!;
  const [server] = await list();
  assert.equal(server!.name, 'Forecasts MCP');
  assert.equal(server!.resource_url, 'https://mcp.example.com/mcp');
  assert.equal(server!.requests_per_minute, 1_000_000, 'the highest limit accepted');
  assert.match(server!.client_id, /^rs_/);
  assert.equal(await page.getByTestId('server-client-id').textContent(), server!.client_id);
  assert.deepEqual(server!.permissions, [
    { name: 'read:forecasts', description: 'Read forecasts', sensitive: false },
    { name: 'write:alerts', description: '', sensitive: true },
  ]);
  const row = page.getByTestId(`server-${server!.id}`);
  await row.getByText('sensitive').waitFor();
  await row.getByText('1,000,000').waitFor();
  await shotAndCheck(f, page, '3-server-secret');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  assert.equal(await secretShown.count(), 0);
  await page.reload();
  await row.waitFor();
  assert.equal(await page.getByText(secret).count(), 0, 'not shown again');

  // Rotation: confirmed, the new secret shown once, the old one working 24 hours more.
  await page.getByRole('button', { name: 'Rotate secret of Forecasts MCP' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the secret of Forecasts MCP' });
  await dialog.getByText('keeps working for 24 hours').waitFor();
  await shotAndCheck(f, page, '4-rotate-dialog');
  const rotatedFrom = f.t.clock.now().getTime();
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.notEqual(await secretShown.textContent(), secret);
  const rotated = (await list())[0]!;
  const graceStarts = new Date(rotated.previous_secret_valid_until!).getTime() - 24 * 3600_000;
  assert.ok(graceStarts >= rotatedFrom - 1000 && graceStarts <= f.t.clock.now().getTime(), 'the old secret works 24 hours more');
  await page.getByTestId('previous-server-secret').waitFor();
  await shotAndCheck(f, page, '5-rotated');

  // Delete, confirmed.
  await page.getByRole('button', { name: 'Delete Forecasts MCP' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete Forecasts MCP' });
  await deleteDialog.getByRole('button', { name: 'Delete server' }).click();
  await page.getByRole('heading', { name: 'No servers yet' }).waitFor();
  assert.deepEqual(await list(), []);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('servers for a viewer: the list, no form, rotation or delete', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Viewed API');
  const made = await owner.client.post(`/apis/${apiId}/signin/servers`, { name: 'Billing API', resource_url: 'https://billing.example.com/' });
  assert.equal(made.status, 200, made.text);
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/servers`);
  await page.locator('tr', { hasText: 'Billing API' }).getByText('no limit').waitFor();
  for (const name of ['Add server', 'Rotate secret of Billing API', 'Delete Billing API']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  await shotAndCheck(f, page, '6-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('servers: edit the limit and permissions in a dialog; a removed permission leaves its role; bounds refused on the field', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Edited API');
  const made = await owner.client.post(`/apis/${apiId}/signin/servers`, {
    name: 'Forecasts MCP', resource_url: 'https://mcp.example.com/mcp', requests_per_minute: 60,
    permissions: [{ name: 'read:forecasts' }, { name: 'write:alerts', sensitive: true }],
  });
  assert.equal(made.status, 200, made.text);
  const serverId = made.body.id as string;
  const role = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'Alerter', permissions: [{ server_id: serverId, permission: 'write:alerts' }, { server_id: serverId, permission: 'read:forecasts' }] });
  assert.equal(role.status, 200, role.text);
  const read = async () => (await owner.client.get(`/apis/${apiId}/signin/servers/${serverId}`)).body as Server;
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/servers`);
  await page.getByRole('button', { name: 'Edit Forecasts MCP' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Forecasts MCP' });
  const form = dialog.getByRole('form', { name: 'Edit Forecasts MCP' });
  assert.equal(await form.getByLabel('Requests a minute, per person').inputValue(), '60');
  assert.equal(await form.getByLabel('Permission 2 name').inputValue(), 'write:alerts');
  assert.ok(await form.getByLabel('Permission 2 is sensitive').isChecked());
  // Both sides of the limit's bounds, on the field: 0 refused, 1 accepted below.
  await form.getByLabel('Requests a minute, per person').fill('0');
  await form.getByRole('button', { name: 'Save server' }).click();
  assert.ok((await fieldError(form, 'Requests a minute, per person')).length > 0);
  await shotAndCheck(f, page, '7-edit-refused');
  assert.equal((await read()).requests_per_minute, 60);

  await form.getByLabel('Requests a minute, per person').fill('1');
  await form.getByRole('button', { name: 'Remove permission 2' }).click();
  await form.getByLabel('Permission 1 description').fill('Read forecasts');
  await form.getByLabel('Permission 1 is sensitive').check();
  await form.getByRole('button', { name: 'Save server' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const changed = await read();
  assert.equal(changed.requests_per_minute, 1);
  assert.deepEqual(changed.permissions, [{ name: 'read:forecasts', description: 'Read forecasts', sensitive: true }]);
  const roles = (await owner.client.get(`/apis/${apiId}/signin/roles`)).body.roles as { permissions: { permission: string }[] }[];
  assert.deepEqual(roles[0]!.permissions.map((p) => p.permission), ['read:forecasts'], 'the removed permission left the role');
  await page.getByTestId(`server-${serverId}`).getByText('Read forecasts').waitFor();

  // No limit: the field emptied sends null.
  await page.getByRole('button', { name: 'Edit Forecasts MCP' }).click();
  await form.getByLabel('Requests a minute, per person').fill('');
  await form.getByRole('button', { name: 'Save server' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await read()).requests_per_minute, null);
  await page.getByTestId(`server-${serverId}`).getByText('no limit').waitFor();
  await shotAndCheck(f, page, '8-edited');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
