// The sign-in settings where the platform plan lacks apps people connect (an operator's catalogue
// whose free plan leaves them out; every shipped plan includes them): the page says why they stay
// off and links to the platform plan; the switch still saves, and reads "off in effect". End-user
// keys, left out of the same plan: the key settings say so, and turning keys on is refused (402).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { SHIPPED_PLATFORM_PLANS } from '../../server/test/support/platform-plans.js';
import type { SignedUp } from '../../server/test/support/flows.js';
import { newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';

let f: ConsoleFixture;
let owner: SignedUp;
before(async () => {
  if (skipWithoutChromium) return;
  const catalogue = JSON.parse(readFileSync(SHIPPED_PLATFORM_PLANS, 'utf8')) as { plans: { code: string; connected_apps: boolean; end_user_keys: boolean }[] };
  for (const plan of catalogue.plans) {
    if (plan.code !== 'free') continue;
    plan.connected_apps = false;
    plan.end_user_keys = false;
  }
  const file = join(mkdtempSync(join(tmpdir(), 'gh-plans-')), 'platform-plans.json');
  writeFileSync(file, JSON.stringify(catalogue));
  f = await startConsole(import.meta.url, { PLATFORM_PLANS_FILE: file });
  owner = await fileOwner(f);
});
after(() => f?.close());

test('the plan gate of apps people connect is explained, and the switch still saves', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name: 'Weather API', preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  assert.equal(created.body.api.plan.connected_apps, false);
  const apiId = created.body.api.id as string;
  await page.goto(`/apis/${apiId}/signin`);
  const gate = page.getByTestId('plan-gate');
  await gate.waitFor();
  assert.match((await gate.textContent()) ?? '', /does not include apps people connect/);
  assert.equal(await gate.getByRole('link', { name: 'See the platform plan' }).getAttribute('href'), `/apis/${apiId}/plan`);
  const sw = page.getByRole('switch', { name: 'Apps people connect' });
  if ((await sw.getAttribute('aria-checked')) === 'false') await sw.click();
  await page.getByText('On, but off in effect until the plan includes them.').waitFor();
  await page.getByRole('button', { name: 'Save sign-in settings' }).click();
  await page.getByRole('status').getByText(/^Saved at /).waitFor();
  assert.equal((await owner.client.get(`/apis/${apiId}/signin`)).body.connected_apps, 'on');
  await shotAndCheck(f, page, '1-plan-gate');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('the plan gate of end-user keys is explained, and turning them on is refused with a link to the plan', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name: 'Keyless API', preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  const apiId = created.body.api.id as string;
  await page.goto(`/apis/${apiId}/signin/keys`);
  const gate = page.getByTestId('keys-plan-gate');
  await gate.waitFor();
  assert.match((await gate.textContent()) ?? '', /does not include end-user keys/);
  const sw = page.getByRole('switch', { name: 'People may make their own API keys' });
  assert.equal(await sw.getAttribute('aria-checked'), 'false');
  await sw.click();
  await page.getByRole('button', { name: 'Save key settings' }).click();
  await page.getByRole('alert').waitFor();
  assert.equal(await page.locator('form').getByRole('link', { name: 'See the platform plan' }).last().getAttribute('href'), `/apis/${apiId}/plan`);
  assert.equal((await owner.client.get(`/apis/${apiId}/signin/key-settings`)).body.enabled, false);
  await shotAndCheck(f, page, '2-keys-plan-gate');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
