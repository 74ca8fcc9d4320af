// The people of an API's sign-in service in Chromium: the list with its search and status filter
// kept in the address, paging, a person's live sessions listed and one ended, a person suspended
// (confirmed; their sessions end at once) and reactivated, their roles set in a dialog; the empty
// states; what a viewer sees (sessions read, nothing changed).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import type { SignedUp } from '../../server/test/support/flows.js';
import { createPerson, findPersonSession, startPersonSession } from '../../server/test/support/signin.js';
import { addMember } from '../../server/test/support/workspaces.js';
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

async function newApi(name: string) {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  return created.body.api.id as string;
}

/** A person's address in the first cell of their row (buttons and dialogs name it too). */
const address = (scope: Page | Locator, email: string) => scope.locator('td > div.small.muted', { hasText: email });
/** A person's name in the first cell of a row. */
const nameCell = (scope: Page | Locator, name: string) => scope.locator('td:first-child', { hasText: name });

interface Person {
  id: string;
  status: string;
  roles: { id: string; name: string }[];
}

test('people: search and status in the address, sessions listed and one ended, suspend (sessions end) and reactivate, roles in a dialog', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Weather API');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  const path = `/apis/${apiId}/signin/people`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin/people`, 'GET /api/me']);
  await page.getByRole('heading', { name: 'Nobody has signed up yet' }).waitFor();
  await shotAndCheck(f, page, '1-nobody');

  const t0 = f.t.clock.now().getTime();
  const ada = await createPerson(f.t, apiId, { email: 'ada@people.test', name: 'Ada Lovelace', createdAt: new Date(t0 - 3000) });
  await createPerson(f.t, apiId, { email: 'grace@people.test', name: 'Grace Hopper', createdAt: new Date(t0 - 2000) });
  await createPerson(f.t, apiId, { email: 'alan@people.test', name: 'Alan Turing', createdAt: new Date(t0 - 1000) });
  const session = await startPersonSession(f.t, apiId, ada.id);
  const reader = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'Reader', description: 'Reads forecasts' });
  const writer = await owner.client.post(`/apis/${apiId}/signin/roles`, { name: 'Writer' });
  assert.equal(reader.status, 200, reader.text);
  assert.equal(writer.status, 200, writer.text);
  const person = async (id: string) => (await owner.client.get(`/apis/${apiId}/signin/people/${id}`)).body as Person;

  await page.reload();
  const table = page.getByRole('table', { name: 'People' });
  await address(table, 'ada@people.test').waitFor();
  assert.equal(await table.locator('tbody tr').count(), 3);
  // Newest first.
  assert.match((await table.locator('tbody tr').first().textContent()) ?? '', /Alan Turing/);

  // Search: kept in the address, and the back button undoes it.
  await page.getByLabel('Search names and e-mails').fill('lovelace');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.waitForURL(/\?q=lovelace$/);
  await nameCell(table.locator('tbody tr').first(), 'Ada Lovelace').waitFor();
  assert.equal(await table.locator('tbody tr').count(), 1);
  await page.getByLabel('Search names and e-mails').fill('nobody-here');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('heading', { name: 'Nobody matches' }).waitFor();
  await shotAndCheck(f, page, '2-no-match');
  await page.goBack();
  await nameCell(table, 'Ada Lovelace').waitFor();
  await page.goto(path);
  await address(table, 'alan@people.test').waitFor();

  // Sessions: Ada's one live session listed, and ended from the dialog.
  const second = await startPersonSession(f.t, apiId, ada.id);
  await page.getByRole('button', { name: 'Sessions of ada@people.test' }).click();
  const sessionsDialog = page.getByRole('dialog', { name: 'Sessions of Ada Lovelace' });
  await sessionsDialog.getByTestId(`session-${second.id}`).waitFor();
  assert.equal(await sessionsDialog.locator('tbody tr').count(), 2);
  await shotAndCheck(f, page, '3-sessions');
  await sessionsDialog.getByTestId(`session-${second.id}`).getByRole('button', { name: /^End/ }).click();
  await sessionsDialog.getByTestId(`session-${second.id}`).waitFor({ state: 'detached' });
  assert.notEqual((await findPersonSession(f.t, apiId, second.id))!.ended_at, null, 'the session ended');
  assert.equal((await findPersonSession(f.t, apiId, session.id))!.ended_at, null, 'the other lives on');
  await sessionsDialog.getByRole('button', { name: 'Close' }).click();
  await sessionsDialog.waitFor({ state: 'hidden' });

  // Suspend, confirmed: Escape first, then for real; the session ends at once.
  await page.getByRole('button', { name: 'Suspend ada@people.test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Suspend Ada Lovelace' });
  await dialog.getByText('every session ends').waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await person(ada.id)).status, 'active');
  await page.getByRole('button', { name: 'Suspend ada@people.test' }).click();
  await shotAndCheck(f, page, '3-suspend-dialog');
  await dialog.getByRole('button', { name: 'Suspend', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('button', { name: 'Reactivate ada@people.test' }).waitFor();
  assert.equal((await person(ada.id)).status, 'suspended');
  assert.notEqual((await findPersonSession(f.t, apiId, session.id))!.ended_at, null, 'the session ended');
  await page.getByRole('button', { name: 'Sessions of ada@people.test' }).click();
  await sessionsDialog.getByTestId('no-sessions').waitFor();
  await page.keyboard.press('Escape');
  await sessionsDialog.waitFor({ state: 'hidden' });

  // The status filter, in the address.
  await page.getByLabel('Status').selectOption('suspended');
  await page.waitForURL(/status=suspended/);
  await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('tbody tr').length === 1);
  await nameCell(table, 'Ada Lovelace').waitFor();
  await shotAndCheck(f, page, '4-suspended-filter');
  await page.getByRole('button', { name: 'Reactivate ada@people.test' }).click();
  await page.getByRole('heading', { name: 'Nobody matches' }).waitFor();
  assert.equal((await person(ada.id)).status, 'active');
  await page.getByLabel('Status').selectOption('');

  // Roles: set in a dialog, the whole list at once.
  await page.getByRole('button', { name: 'Roles of grace@people.test' }).click();
  const rolesDialog = page.getByRole('dialog', { name: 'Roles of Grace Hopper' });
  await rolesDialog.getByRole('checkbox', { name: /Reader/ }).check();
  await rolesDialog.getByRole('checkbox', { name: /Writer/ }).check();
  await shotAndCheck(f, page, '5-roles-dialog');
  await rolesDialog.getByRole('button', { name: 'Save roles' }).click();
  await rolesDialog.waitFor({ state: 'hidden' });
  const graceRow = page.locator('tr', { hasText: 'grace@people.test' });
  await graceRow.getByText('Reader, Writer').waitFor();
  const graceId = (await graceRow.getAttribute('data-testid'))!.replace('person-', '');
  assert.deepEqual((await person(graceId)).roles.map((r) => r.name).sort(), ['Reader', 'Writer']);
  await page.getByRole('button', { name: 'Roles of grace@people.test' }).click();
  assert.ok(await rolesDialog.getByRole('checkbox', { name: /Writer/ }).isChecked(), 'the dialog starts from the roles held');
  await rolesDialog.getByRole('checkbox', { name: /Writer/ }).uncheck();
  await rolesDialog.getByRole('button', { name: 'Save roles' }).click();
  await graceRow.getByText('Reader', { exact: true }).waitFor();
  assert.deepEqual((await person(graceId)).roles.map((r) => r.name), ['Reader']);
  await shotAndCheck(f, page, '6-roles-set');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('people: pages of 50, the next page and back', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Many people API');
  const t0 = f.t.clock.now().getTime();
  // 51 people: one more than a page.
  for (let i = 0; i < 51; i++) await createPerson(f.t, apiId, { email: `p${String(i).padStart(2, '0')}@people.test`, createdAt: new Date(t0 - 100_000 + i * 1000) });
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/people`);
  const rows = page.getByRole('table', { name: 'People' }).locator('tbody tr');
  await address(page, 'p50@people.test').waitFor();
  assert.equal(await rows.count(), 50);
  await page.getByRole('button', { name: 'Next page' }).click();
  await address(page, 'p00@people.test').waitFor();
  assert.equal(await rows.count(), 1);
  await shotAndCheck(f, page, '7-second-page');
  await page.getByRole('button', { name: 'Previous page' }).click();
  await address(page, 'p50@people.test').waitFor();
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('people for a viewer: the list and sessions, no suspend, roles or ending a session', { skip: skipWithoutChromium }, async () => {
  const apiId = await newApi('Viewed API');
  const seen = await createPerson(f.t, apiId, { email: 'seen@people.test', name: 'Seen Person' });
  await startPersonSession(f.t, apiId, seen.id);
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${apiId}/signin/people`);
  await page.locator('tr', { hasText: 'seen@people.test' }).waitFor();
  for (const name of ['Suspend seen@people.test', 'Roles of seen@people.test']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  await page.getByRole('button', { name: 'Sessions of seen@people.test' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sessions of Seen Person' });
  await dialog.locator('tbody tr').first().waitFor();
  assert.equal(await dialog.getByRole('button', { name: /^End/ }).count(), 0, 'viewers read sessions only');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await shotAndCheck(f, page, '8-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
