// The audit log page in Chromium: what the API answers, 50 events a page with "Older events",
// filters by action (or its family), actor and customer kept in the address, details that expand,
// the API's refusal of a bad filter on its field, and the empty, loading and error states.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { signUp, type SignedUp } from '../../server/test/support/flows.js';
import { createApi, createCustomer } from '../../server/test/support/money.js';
import { addMember, auditEvents, createKey, type AuditEvent } from '../../server/test/support/workspaces.js';
import { newConsolePage, shotAndCheck, signInContext, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { assertRequestsOnOpen, eventually, holdRequests, memberPage } from './support/workspace-pages.js';

let f: ConsoleFixture;
let owner: SignedUp;
let robotId: string;
let acmeId: string;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url);
  // A log worth reading: an API with two customers and credit, a workspace key that acts, and
  // enough renames for a second page.
  owner = await signUp(f.t, { name: 'Otto Owner' });
  const api = await createApi(f.t, { name: 'Weather API' }, owner);
  const acme = await createCustomer(f.t, api, 'Acme');
  acmeId = acme.id;
  await createCustomer(f.t, api, 'Globex');
  assert.equal((await owner.client.post(`/apis/${api.apiId}/customers/${acme.id}/credit`, { amount_micro: 5_000_000, note: 'Goodwill' })).status, 200);
  const robot = await createKey(f.t, owner.client, owner.workspaceId, 'admin', 'Robot');
  robotId = robot.id;
  assert.equal((await robot.client.patch(`/workspaces/${owner.workspaceId}`, { name: 'Renamed by Robot' })).status, 200);
  for (let i = 0; i < 50; i++) assert.equal((await owner.client.patch(`/workspaces/${owner.workspaceId}`, { name: `Otto's ${i}` })).status, 200);
});
after(() => f?.close());

const skip = skipWithoutChromium;
const rows = (page: Page) => page.locator('table.audit-log tbody > tr');
/** The action of every row shown, top to bottom. */
const shownActions = (page: Page) => page.locator('table.audit-log tbody > tr td:nth-child(3) code').allTextContents();

/** Every event of the owner's log through the API, newest first, following next_before. */
async function wholeLog(query = ''): Promise<AuditEvent[]> {
  const events: AuditEvent[] = [];
  let cursor: string | undefined;
  do {
    const page = await owner.client.get(`/workspaces/${owner.workspaceId}/audit?limit=200${query}${cursor ? `&before=${encodeURIComponent(cursor)}` : ''}`);
    assert.equal(page.status, 200, page.text);
    events.push(...page.body.events);
    cursor = page.body.next_before;
  } while (cursor);
  return events;
}

async function ownerPage() {
  const cp = await newConsolePage(f);
  await signInContext(f, cp, owner.email);
  return cp;
}

test('the log shows what the API answers, 50 at a time, and "Older events" reaches its beginning', { skip }, async () => {
  const cp = await ownerPage();
  const { page } = cp;
  const requests = await assertRequestsOnOpen(page, `/workspaces/${owner.workspaceId}/audit`, 'audit log');
  assert.ok(requests.some((r) => r.startsWith(`GET /api/workspaces/${owner.workspaceId}/audit?`) && r.includes('limit=50')));
  const all = await wholeLog();
  assert.ok(all.length > 50 && all.length <= 100, `${all.length} events`);
  await eventually('the first page', () => rows(page).count(), (n) => n === 50);
  assert.deepEqual(await shownActions(page), all.slice(0, 50).map((e) => e.action));
  assert.equal(await page.locator('table.audit-log tbody > tr').first().locator('summary').textContent(), all[0]!.summary);
  await shotAndCheck(f, page, '1-audit-log');

  await page.getByRole('button', { name: 'Older events' }).click();
  await page.getByText('The beginning of the log.').waitFor();
  assert.deepEqual(await shownActions(page), all.map((e) => e.action));
  assert.equal(await page.getByRole('button', { name: 'Older events' }).count(), 0);

  // Details expand: the credit to Acme shows its API, customer, address and amount.
  const credit = rows(page).filter({ has: page.locator('code', { hasText: /^customer\.credit$/ }) });
  const details = credit.locator('details');
  assert.equal(await details.evaluate((d) => (d as unknown as { open: boolean }).open), false);
  await credit.locator('summary').click();
  assert.equal(await details.evaluate((d) => (d as unknown as { open: boolean }).open), true);
  const text = (await details.textContent()) ?? '';
  for (const part of ['Weather API', 'Acme', acmeId, '127.0.0.1', '"amount_micro": 5000000']) assert.ok(text.includes(part), `details show ${part}`);
  // A full-page shot from the top, so the sticky bar is drawn where it belongs.
  await page.evaluate(() => (globalThis as unknown as { scrollTo(x: number, y: number): void }).scrollTo(0, 0));
  await shotAndCheck(f, page, '2-audit-details-open');
  // The keyboard opens and closes it too.
  await credit.locator('summary').focus();
  await page.keyboard.press('Enter');
  assert.equal(await details.evaluate((d) => (d as unknown as { open: boolean }).open), false);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('filters: an action family typed, an actor and a customer from an event, kept in the address, then cleared', { skip }, async () => {
  const cp = await ownerPage();
  const { page } = cp;
  await page.goto(`/workspaces/${owner.workspaceId}/audit`);
  await eventually('the first page', () => rows(page).count(), (n) => n === 50);

  // A family: every customer.… event, as the API answers the same filter.
  await page.getByLabel('Action').fill('customer');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.waitForURL(/\?action=customer$/);
  const customerEvents = (await wholeLog('&action=customer')).map((e) => e.action);
  assert.deepEqual(customerEvents.sort(), ['customer.create', 'customer.create', 'customer.credit']);
  await eventually('only customer events', () => shownActions(page), (shown) => shown.length === 3 && shown.every((a) => a.startsWith('customer.')));
  await page.getByText('The beginning of the log.').waitFor();
  await shotAndCheck(f, page, '3-audit-filtered-by-action');

  // From an event's details: only the events about Acme, added to the action filter.
  const credit = rows(page).filter({ has: page.locator('code', { hasText: /^customer\.credit$/ }) });
  await credit.locator('summary').click();
  await credit.getByRole('button', { name: 'Only events about Acme' }).click();
  await page.waitForURL(new RegExp(`action=customer&customer_id=${acmeId}$`));
  await eventually('Acme\'s events', () => shownActions(page), (shown) => shown.join() === 'customer.credit,customer.create');
  assert.equal(await page.getByLabel('Customer').inputValue(), acmeId);

  // Cleared, then narrowed to what the workspace key did, from one of its events.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.waitForURL(/\/audit$/);
  await eventually('the whole first page', () => rows(page).count(), (n) => n === 50);
  const byRobot = rows(page).filter({ has: page.locator('td:nth-child(2)', { hasText: /^Robot/ }) });
  await page.getByRole('button', { name: 'Older events' }).click();
  await page.getByText('The beginning of the log.').waitFor();
  await byRobot.locator('summary').click();
  await byRobot.getByRole('button', { name: 'Only events by Robot' }).click();
  await page.waitForURL(new RegExp(`actor_id=${robotId}$`));
  const robotEvents = await wholeLog(`&actor_id=${robotId}`);
  assert.deepEqual(robotEvents.map((e) => e.action), ['workspace.rename']);
  await eventually('Robot\'s events', () => shownActions(page), (shown) => shown.join() === 'workspace.rename');
  await shotAndCheck(f, page, '4-audit-filtered-by-actor');

  // Typed by hand and opened by address: the same filter gives the same page.
  await page.goto(`/workspaces/${owner.workspaceId}/audit?customer_id=${acmeId}`);
  await eventually('Acme\'s events by address', () => shownActions(page), (shown) => shown.join() === 'customer.credit,customer.create');
  assert.equal(await page.getByLabel('Customer').inputValue(), acmeId);
  await page.goBack();
  await page.waitForURL(new RegExp(`actor_id=${robotId}$`));
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('a filter the API refuses is shown on its field; no match is an empty state', { skip }, async () => {
  const cp = await ownerPage();
  const { page } = cp;
  await page.goto(`/workspaces/${owner.workspaceId}/audit`);
  await eventually('the first page', () => rows(page).count(), (n) => n === 50);
  await page.getByLabel('Action').fill('Member!');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('Check the filters marked above.').waitFor();
  assert.equal(await page.getByLabel('Action').getAttribute('aria-invalid'), 'true');
  assert.match((await page.locator('.field-error').textContent()) ?? '', /pattern/);
  await shotAndCheck(f, page, '5-audit-filter-refused');

  await page.getByLabel('Action').fill('no_such');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('heading', { name: 'No events match these filters' }).waitFor();
  assert.equal(await rows(page).count(), 0);
  await shotAndCheck(f, page, '6-audit-no-match');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('a viewer reads the log; loading shows while the page waits, and a refusal on the way is said', { skip }, async () => {
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer', 'auditor');
  const cp = await memberPage(f, viewer);
  const { page } = cp;
  const held = await holdRequests(page, /\/api\/workspaces\/[^/]+\/audit/);
  await page.goto(`/workspaces/${owner.workspaceId}/audit`);
  await page.getByText('Loading events…').waitFor();
  await shotAndCheck(f, page, '7-audit-loading');
  await held.release();
  await eventually('the first page', () => rows(page).count(), (n) => n === 50);
  assert.equal((await shownActions(page))[0], 'invite.accept');

  // Removed while reading: the next read is refused, and the page says so.
  assert.equal((await owner.client.delete(`/workspaces/${owner.workspaceId}/members/${viewer.userId}`)).status, 204);
  await page.getByLabel('Action').fill('workspace');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  assert.match((await page.getByRole('alert').textContent()) ?? '', /No such workspace/);
  await shotAndCheck(f, page, '8-audit-error');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
  // Nothing on the way changed the log but the viewer's own coming and going.
  const actions = (await auditEvents(owner.client, owner.workspaceId)).slice(0, 3).map((e) => e.action);
  assert.deepEqual(actions, ['member.remove', 'invite.accept', 'member.invite']);
});
