// An API's Connect page in Chromium: the secret revealed and copied, the SDK's code per framework
// with the API's values and no secret in it, a test key with a curl line that works against the
// owner's API, the status turning to connected by itself when the SDK syncs, and a rotation.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { addMember } from '../../server/test/support/workspaces.js';
import { meteredHello } from './support/metered-hello.js';
import type { SignedUp } from '../../server/test/support/flows.js';
import { apiRequestsOnOpen, newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  owner = await fileOwner(f);
});
after(() => f?.close());

const status = (page: Page) => page.getByTestId('connection-status');
const codeOf = (page: Page, label: string) => page.getByRole('region', { name: label }).textContent();

test('Connect: reveal and copy the secret, the SDK code, a test key and its curl line, connected by itself, rotation', { skip: skipWithoutChromium }, async (t) => {
  const hello = await meteredHello(f.t);
  t.after(() => hello.close());
  const cp = await newConsolePage(f);
  const { page, context } = cp;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.t.url });
  await shareSession(f, cp, owner.client);
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name: 'Hello API', preset: 'payg', api_base_url: hello.url });
  assert.equal(created.status, 200, created.text);
  const apiId: string = created.body.api.id;
  const secret: string = created.body.secret;
  const path = `/apis/${apiId}/connect`;

  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/connection`, 'GET /api/me']);
  await page.getByRole('heading', { level: 1, name: 'Connect Hello API', exact: true }).waitFor();
  await status(page).getByText('waiting for the SDK').waitFor();
  assert.equal(await page.getByTestId('sdk-secret').count(), 0, 'the secret is hidden until asked for');
  await shotAndCheck(f, page, '1-waiting');

  // Reveal and copy.
  await page.getByRole('button', { name: 'Reveal secret' }).click();
  assert.equal(await page.getByTestId('sdk-secret').textContent(), secret);
  await page.getByRole('button', { name: 'Copy secret' }).click();
  await page.getByRole('button', { name: 'Copied' }).waitFor();
  assert.equal(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()), secret);
  await shotAndCheck(f, page, '2-secret-revealed');

  // The code of every framework: the console's address and the API's key header, the secret only
  // by the name of its environment variable.
  for (const [tab, install] of [['node:http', 'npm install @gatehouse/sdk'], ['Express', 'express'], ['Fastify', 'fastify'], ['Hono', 'hono @hono/node-server'], ['MCP', '@modelcontextprotocol/sdk']] as const) {
    await page.getByRole('tab', { name: tab }).click();
    await page.getByRole('tab', { name: tab, selected: true }).waitFor();
    assert.ok((await codeOf(page, 'Install'))?.includes(install), tab);
    const code = (await codeOf(page, 'Code')) ?? '';
    assert.ok(code.includes(`baseUrl: '${f.t.url}'`), `${tab}: ${code}`);
    assert.ok(code.includes(`keyHeader: '${created.body.api.key_header}'`), tab);
    assert.ok(code.includes('secret: process.env.GATEHOUSE_SECRET_KEY'), tab);
    assert.ok(!code.includes('mas_'), `${tab} holds no secret`);
  }
  await shotAndCheck(f, page, '3-mcp-code');
  // The tabs by keyboard: arrows move between frameworks.
  await page.getByRole('tab', { name: 'node:http' }).click();
  await page.keyboard.press('ArrowRight');
  await page.getByRole('tab', { name: 'Express', selected: true }).waitFor();
  await page.keyboard.press('ArrowLeft');
  await page.getByRole('tab', { name: 'node:http', selected: true }).waitFor();

  // A test key and the curl line, which works against the owner's API once the SDK runs.
  await page.getByRole('button', { name: 'Make a test key' }).click();
  const testKey = (await page.getByTestId('test-key').textContent()) ?? '';
  assert.match(testKey, /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/);
  const curl = (await page.getByTestId('curl-line').textContent()) ?? '';
  assert.equal(curl, `curl -i -H 'X-API-Key: ${testKey}' '${hello.url}'`);
  await shotAndCheck(f, page, '4-test-key');

  // The SDK starts in this process: the page turns to connected without a reload.
  const meter = hello.meter((await page.getByTestId('sdk-secret').textContent())!);
  await status(page).getByText('connected', { exact: true }).waitFor({ timeout: 30_000 });
  const facts = (await page.locator('.connection-facts').textContent()) ?? '';
  assert.match(facts, /SDK agent[^n]*gatehouse/i);
  await shotAndCheck(f, page, '5-connected');
  await meter.ready;
  // The line as shown, run by a shell (asynchronously: the owner's API answers in this process).
  const { stdout: answer } = await promisify(execFile)('sh', ['-c', `${curl} --silent --show-error`], { encoding: 'utf8' });
  assert.match(answer, /^HTTP\/1\.1 200/);
  const testCustomer = (await owner.client.get(`/apis/${apiId}/customers?limit=5`)).body.customers.find((c: { is_test: boolean }) => c.is_test);
  assert.ok(answer.includes(`"customer":"${testCustomer.id}"`), answer);

  // Rotation: a grace over a week is refused before asking; a week is the most.
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the SDK secret' });
  await dialog.getByLabel('Hours the old secret keeps working').fill('169');
  await dialog.getByText('A whole number of hours from 0 to 168').waitFor();
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();
  assert.ok(await dialog.isVisible(), 'refused: the dialog stays open');
  assert.equal((await owner.client.get(`/apis/${apiId}/secret`)).body.secret, secret, 'nothing rotated');
  await dialog.getByLabel('Hours the old secret keeps working').fill('168');
  await shotAndCheck(f, page, '6-rotate-dialog');
  const rotatedFrom = f.t.clock.now().getTime();
  await dialog.getByRole('button', { name: 'Rotate secret' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByTestId('sdk-secret').filter({ hasNotText: secret }).waitFor();
  const rotated = (await page.getByTestId('sdk-secret').textContent())!;
  assert.equal((await owner.client.get(`/apis/${apiId}/secret`)).body.secret, rotated);
  const apiNow = (await owner.client.get(`/apis/${apiId}`)).body;
  const graceEnds = new Date(apiNow.previous_secret_valid_until).getTime() - 168 * 3600_000;
  assert.ok(graceEnds >= rotatedFrom && graceEnds <= f.t.clock.now().getTime(), 'the old secret works 168 hours from the rotation');
  await page.getByTestId('previous-secret').getByText(apiNow.previous_secret_valid_until.slice(0, 16).replace('T', ' ')).waitFor();
  // Within the grace the old secret still opens the snapshot.
  const sdk = f.t.sdkClient();
  sdk.bearer = secret;
  assert.equal((await sdk.get('/sdk/v1/snapshot')).status, 200);
  await shotAndCheck(f, page, '7-rotated');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('Connect for a viewer: no reveal, rotation or test key', { skip: skipWithoutChromium }, async () => {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name: 'Viewed API', preset: 'free' });
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${created.body.api.id}/connect`);
  await status(page).waitFor();
  for (const name of ['Reveal secret', 'Rotate secret', 'Make a test key']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  await page.getByText('Only admins can reveal it.').waitFor();
  await shotAndCheck(f, page, '8-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
