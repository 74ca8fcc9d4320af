// End-user key settings and signing keys in Chromium. Key settings: turned on, the prefix and the
// longest lifetime judged on their fields at both sides of their bounds, empty lifetime meaning no
// limit. Signing keys: the first one made, then rotated (confirmed), the retired key published
// for the access-token lifetime plus 24 hours; what a viewer sees.
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

test('end-user key settings: on, prefix and longest lifetime refused and accepted on both sides of their bounds', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Weather API');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  const read = async () => (await owner.client.get(`/apis/${apiId}/signin/key-settings`)).body as { enabled: boolean; prefix: string; max_lifetime_days: number | null; sensitive_permissions_allowed: boolean };
  const before = await read();
  const path = `/apis/${apiId}/signin/keys`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin/key-settings`, 'GET /api/me']);
  const form = page.getByRole('form', { name: 'End-user key settings' });
  assert.equal(await form.getByLabel('Prefix of new keys').inputValue(), before.prefix);
  assert.equal(await page.getByTestId('keys-plan-gate').count(), 0, 'every shipped plan includes keys');
  await shotAndCheck(f, page, '1-key-settings');

  const sw = page.getByRole('switch', { name: 'People may make their own API keys' });
  if ((await sw.getAttribute('aria-checked')) === 'false') await sw.click();
  const save = form.getByRole('button', { name: 'Save key settings' });
  const prefix = form.getByLabel('Prefix of new keys');
  const days = form.getByLabel('Longest lifetime of a new key (days)');
  // One character, and a capital: refused by the API on the field.
  for (const bad of ['w', 'Wx']) {
    await prefix.fill(bad);
    await save.click();
    assert.ok((await fieldError(form, 'Prefix of new keys')).length > 0, bad);
  }
  // Not a number: refused before sending; 0 and 3651 by the API.
  await prefix.fill('wx');
  await days.fill('a year');
  await save.click();
  assert.equal(await fieldError(form, 'Longest lifetime of a new key (days)'), 'Enter a whole number.');
  for (const out of ['0', '3651']) {
    await days.fill(out);
    await save.click();
    assert.ok((await fieldError(form, 'Longest lifetime of a new key (days)')).length > 0, out);
  }
  await shotAndCheck(f, page, '2-refused');
  assert.deepEqual(await read(), before, 'nothing changed');

  // The shortest prefix and the longest lifetime.
  await days.fill('3650');
  await save.click();
  await page.getByRole('status').getByText(/^Saved at /).waitFor();
  let saved = await read();
  assert.equal(saved.enabled, true);
  assert.equal(saved.prefix, 'wx');
  assert.equal(saved.max_lifetime_days, 3650);
  // The longest prefix, a lifetime of one day, then none.
  await prefix.fill('weather123');
  await days.fill('1');
  await save.click();
  await page.getByRole('status').getByText(/^Saved at /).waitFor();
  saved = await read();
  assert.equal(saved.prefix, 'weather123');
  assert.equal(saved.max_lifetime_days, 1);
  await days.fill('');
  await page.getByRole('switch', { name: 'Keys may carry sensitive permissions' }).click();
  await save.click();
  await page.getByRole('status').getByText(/^Saved at /).waitFor();
  saved = await read();
  assert.equal(saved.max_lifetime_days, null, 'empty: no limit');
  assert.equal(saved.sensitive_permissions_allowed, !before.sensitive_permissions_allowed);
  // The sign-in settings show the same switch.
  assert.equal((await owner.client.get(`/apis/${apiId}/signin`)).body.sensitive_permissions_allowed, saved.sensitive_permissions_allowed);
  await shotAndCheck(f, page, '3-saved');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

interface SigningKey {
  kid: string;
  active: boolean;
  retired_at?: string;
  published_until?: string;
}

test('signing keys: the first made, then rotated (confirmed), the old one published for the token lifetime plus 24 hours', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Keyed API');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  const list = async () => (await owner.client.get(`/apis/${apiId}/signin/signing-keys`)).body.keys as SigningKey[];
  const path = `/apis/${apiId}/signin/signing-keys`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin/signing-keys`, 'GET /api/me']);
  await page.getByRole('heading', { name: 'No signing key yet' }).waitFor();
  await shotAndCheck(f, page, '4-no-key');

  await page.getByRole('button', { name: 'Make the signing key' }).click();
  const first = page.getByRole('dialog', { name: 'Rotate the signing key' });
  await first.getByRole('button', { name: 'Make the signing key' }).click();
  await first.waitFor({ state: 'hidden' });
  const [made] = await list();
  assert.ok(made?.active);
  await page.getByTestId(`signing-key-${made.kid}`).getByText('signing').waitFor();

  await page.getByRole('button', { name: 'Rotate signing key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Rotate the signing key' });
  await dialog.getByText('access-token lifetime plus 24 hours').waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await list()).length, 1, 'Escape rotates nothing');
  await page.getByRole('button', { name: 'Rotate signing key' }).click();
  await shotAndCheck(f, page, '5-rotate-dialog');
  await dialog.getByRole('button', { name: 'Rotate signing key' }).click();
  await dialog.waitFor({ state: 'hidden' });
  const keys = await list();
  assert.equal(keys.length, 2);
  assert.ok(keys[0]!.active && !keys[1]!.active, 'the new key signs, newest first');
  assert.equal(keys[1]!.kid, made.kid);
  const ttl = (await owner.client.get(`/apis/${apiId}/signin`)).body.access_token_ttl_s as number;
  assert.equal(new Date(keys[1]!.published_until!).getTime() - new Date(keys[1]!.retired_at!).getTime(), (ttl + 24 * 3600) * 1000);
  const retiredRow = page.getByTestId(`signing-key-${made.kid}`);
  await retiredRow.getByText('retired').waitFor();
  await retiredRow.getByText(`${keys[1]!.published_until!.slice(0, 16).replace('T', ' ')} UTC`).waitFor();
  await shotAndCheck(f, page, '6-rotated');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('keys for a viewer: settings read-only, no rotation', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Viewed API');
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/keys`);
  await page.getByText('You are a viewer of this workspace').waitFor();
  assert.ok(await page.getByLabel('Prefix of new keys').isDisabled());
  assert.equal(await page.getByRole('button', { name: 'Save key settings' }).count(), 0);
  await shotAndCheck(f, page, '7-viewer-settings');
  await page.goto(`/apis/${apiId}/signin/signing-keys`);
  await page.getByText('Admins rotate the signing key.').waitFor();
  assert.equal(await page.getByRole('button', { name: /signing key/ }).count(), 0);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
