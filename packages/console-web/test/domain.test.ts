// The custom domain page in Chromium (issue 29): a free API sees the plan's gate and no form; on a
// plan with domains a bad name is refused on its field, a good one is pending with its CNAME and
// TXT records to copy; "Check now" without the records shows the error, with them (served by a
// local DNS server) the domain goes active; removing it is confirmed. A viewer reads only.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { putOnPlan, startDns, type TestDns } from '../../server/test/support/domains.js';
import { createApi, type ApiFixture } from '../../server/test/support/money.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';
import { assertRequestsOnOpen } from './support/workspace-pages.js';
import { fieldError } from './support/page-fields.js';

let f: ConsoleFixture;
let owner: SignedUp;
let dns: TestDns;
before(async () => {
  if (skipWithoutChromium) return;
  dns = await startDns();
  f = await startConsole(import.meta.url, { DNS_SERVERS: dns.address });
  owner = await fileOwner(f);
});
after(async () => {
  await f?.close();
  await dns?.close();
});

const clipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();

test('custom domain: the plan gate, a name refused then set, its records copied, checked to active, removed', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page, context } = cp;
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.t.url });
  await shareSession(f, cp, owner.client);
  const free = (await createApi(f.t, { name: 'Free API', preset: 'payg' }, owner)) as ApiFixture;
  await page.goto(`/apis/${free.apiId}/domain`);
  await page.getByText('platform plan has no custom domains').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Set domain' }).count(), 0);
  await page.getByRole('link', { name: 'Change the platform plan' }).waitFor();
  await shotAndCheck(f, page, '1-plan-gate');

  const api = (await createApi(f.t, { name: 'Branded API', preset: 'payg' }, owner)) as ApiFixture;
  await putOnPlan(f.t, api.apiId, 'starter');
  const path = `/apis/${api.apiId}/domain`;
  const requests = await assertRequestsOnOpen(page, path, path.split('/').at(-1)!);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${api.apiId}`, `GET /api/apis/${api.apiId}/domain`, 'GET /api/me']);
  await page.getByTestId('domain-state').getByText('none').waitFor();
  const form = page.getByRole('form', { name: 'Set a domain' });
  // Refused by the API on the field: a single label, and a name under the portal's domain.
  for (const bad of ['localhost', 'x.localhost']) {
    await form.getByLabel('Domain').fill(bad);
    await form.getByRole('button', { name: 'Set domain' }).click();
    assert.ok((await fieldError(form, 'Domain')).length > 0, bad);
  }
  await shotAndCheck(f, page, '2-refused');
  await form.getByLabel('Domain').fill('Login.Acme-Example.com');
  await form.getByRole('button', { name: 'Set domain' }).click();
  await page.getByTestId('domain-state').getByText('pending').waitFor();
  const set = (await owner.client.get(`/apis/${api.apiId}/domain`)).body as { domain: string; txt_name: string; txt_value: string; cname_target: string };
  assert.equal(set.domain, 'login.acme-example.com', 'stored lower case');
  const cname = page.getByTestId('cname-record');
  const txt = page.getByTestId('txt-record');
  await cname.getByText(set.cname_target, { exact: true }).waitFor();
  await txt.getByText(set.txt_name, { exact: true }).waitFor();
  await txt.getByText(set.txt_value, { exact: true }).waitFor();
  await txt.getByRole('button', { name: 'Copy TXT value' }).click();
  await txt.getByRole('button', { name: /^Copied/ }).waitFor();
  assert.equal(await page.evaluate(clipboard), set.txt_value);
  await cname.getByRole('button', { name: 'Copy CNAME target' }).click();
  assert.equal(await page.evaluate(clipboard), set.cname_target);
  await shotAndCheck(f, page, '3-pending-records');

  // Checked before the records exist: still pending, with what is missing.
  await page.getByRole('button', { name: 'Check now' }).click();
  await page.getByTestId('domain-error').waitFor();
  assert.match((await page.getByTestId('domain-error').textContent())!, /TXT|CNAME/);
  await page.getByText('Last checked').waitFor();
  await shotAndCheck(f, page, '4-check-error');

  dns.set(set.domain, 'CNAME', [set.cname_target]);
  dns.set(set.txt_name, 'TXT', [set.txt_value]);
  await page.getByRole('button', { name: 'Check now' }).click();
  await page.getByTestId('domain-state').getByText('active').waitFor();
  assert.equal(await page.getByTestId('domain-error').count(), 0);
  await shotAndCheck(f, page, '5-active');

  await page.getByRole('button', { name: 'Remove domain' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove login.acme-example.com' });
  await dialog.getByText('is served no more').waitFor();
  await shotAndCheck(f, page, '6-remove-dialog');
  await dialog.getByRole('button', { name: 'Remove domain' }).click();
  await page.getByTestId('domain-state').getByText('none').waitFor();
  assert.equal((await owner.client.get(`/apis/${api.apiId}/domain`)).body.status, 'none');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('custom domain for a viewer: the state and records, no controls', { skip: skipWithoutChromium }, async () => {
  const api = (await createApi(f.t, { name: 'Read API', preset: 'payg' }, owner)) as ApiFixture;
  await putOnPlan(f.t, api.apiId, 'starter');
  assert.equal((await owner.client.put(`/apis/${api.apiId}/domain`, { domain: 'portal.read-example.com' })).status, 200);
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${api.apiId}/domain`);
  await page.getByTestId('txt-record').waitFor();
  for (const name of ['Check now', 'Remove domain', 'Change domain']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
  await page.getByText('An admin of the workspace sets, checks and removes the domain.').waitFor();
  await shotAndCheck(f, page, '7-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
