// Events to owners in Chromium (issue 29): a webhook endpoint added with its event types and its
// whsec_ secret shown once; a bad address refused on its field; deliveries that failed with the
// receiver's status, answer and next attempt; one retried; a test event; disable and enable, each
// confirmed or undone; the secret rotated; a replay since a time (the future refused on its field);
// the endpoint deleted. A viewer reads without controls.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { createApi, createCustomer, type ApiFixture } from '../../server/test/support/money.js';
import { startReceiver, type Receiver } from '../../server/test/support/webhooks.js';
import { addMember } from '../../server/test/support/workspaces.js';
import { newConsolePage, shotAndCheck, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fileOwner, shareSession } from './support/metered-api.js';
import { fieldError } from './support/page-fields.js';
import { localInput } from '../src/routes/events/local-time.js';
import { assertRequestsOnOpen, eventually } from './support/workspace-pages.js';

let f: ConsoleFixture;
let owner: SignedUp;
let receiver: Receiver;
before(async () => {
  if (skipWithoutChromium) return;
  f = await startConsole(import.meta.url, { UNSAFE_OUTBOUND_PRIVATE: 'true' });
  owner = await fileOwner(f);
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
  await f?.close();
});

const deliver = () => f.t.services.webhookDelivery.deliverDue();

test('webhooks: add (secret once), failed deliveries with the answer and next attempt, retry, test, disable/enable, rotate, replay, delete', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await shareSession(f, cp, owner.client);
  const api = (await createApi(f.t, { name: 'Hooked API', preset: 'payg' }, owner)) as ApiFixture;
  const path = `/apis/${api.apiId}/webhooks`;
  const requests = await assertRequestsOnOpen(page, path, path.split('/').at(-1)!);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${api.apiId}`, `GET /api/apis/${api.apiId}/webhooks`, 'GET /api/me']);
  await page.getByRole('heading', { level: 1, name: 'Webhooks of Hooked API' }).waitFor();
  await page.getByRole('heading', { name: 'No endpoints yet' }).waitFor();
  await shotAndCheck(f, page, '1-no-endpoints');

  const form = page.getByRole('form', { name: 'Add an endpoint' });
  await form.getByLabel('Endpoint URL').fill('not an address');
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  assert.ok((await fieldError(form, 'Endpoint URL')).length > 0);
  await shotAndCheck(f, page, '2-bad-url');
  await form.getByLabel('Endpoint URL').fill(receiver.url);
  await form.getByLabel('Description').fill('Billing system');
  await form.getByLabel('customer.created').check();
  await form.getByLabel('credit.added').check();
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  const secretShown = page.getByTestId('webhook-secret');
  await secretShown.waitFor();
  const secret = (await secretShown.textContent())!;
  assert.match(secret, /^whsec_/);
  const listed = (await owner.client.get(`/apis/${api.apiId}/webhooks`)).body.webhooks as { id: string; event_types: string[]; description: string }[];
  assert.equal(listed.length, 1);
  assert.deepEqual(listed[0]!.event_types, ['customer.created', 'credit.added']);
  assert.equal(listed[0]!.description, 'Billing system');
  const endpointId = listed[0]!.id;
  await page.getByTestId(`endpoint-${endpointId}`).getByText('customer.created, credit.added').waitFor();
  await shotAndCheck(f, page, '3-secret-once');
  await page.getByRole('button', { name: 'I have copied it' }).click();
  assert.equal(await secretShown.count(), 0);

  // Two events; the receiver is down for both.
  receiver.answer = () => ({ status: 503, body: 'receiver down for maintenance' });
  await createCustomer(f.t, api, 'Globex');
  await deliver();
  await receiver.waitFor(2);
  await page.getByRole('link', { name: receiver.url }).click();
  await page.getByRole('heading', { level: 1, name: 'Webhook endpoint of Hooked API' }).waitFor();
  const failed = page.locator('tbody tr', { hasText: 'customer.created' });
  await failed.getByText('HTTP 503').waitFor();
  assert.equal(await failed.locator('td').nth(3).textContent().then((text) => text === 'none'), false, 'a next attempt is due');
  await failed.getByText('Response').click();
  await failed.getByTestId('response-excerpt').getByText('receiver down for maintenance').waitFor();
  await shotAndCheck(f, page, '4-failed-deliveries');

  // Retry one now: a new delivery that succeeds.
  receiver.answer = () => ({ status: 200, body: 'ok' });
  await failed.getByRole('button', { name: /^Retry customer\.created/ }).click();
  await page.locator('tbody tr').nth(2).waitFor();
  await deliver();
  await page.reload();
  await page.locator('tbody tr', { hasText: 'customer.created' }).getByText('succeeded').first().waitFor();

  // A test event.
  await page.getByRole('button', { name: 'Send a test event' }).click();
  await page.locator('tbody tr', { hasText: 'webhook.test' }).waitFor();
  await deliver();
  await eventually('the test event arrived', async () => receiver.received.some((r) => r.body.type === 'webhook.test'), Boolean);
  await shotAndCheck(f, page, '5-retried-and-test');

  // Disable, confirmed; the test button is off while disabled; enable again.
  await page.getByRole('button', { name: 'Disable', exact: true }).click();
  const disableDialog = page.getByRole('dialog', { name: `Disable ${receiver.url}` });
  await disableDialog.getByText('resume when you enable it again').waitFor();
  await shotAndCheck(f, page, '6-disable-dialog');
  await disableDialog.getByRole('button', { name: 'Disable endpoint' }).click();
  await page.getByTestId('endpoint-state').getByText('disabled').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Send a test event' }).isDisabled(), true);
  assert.equal((await owner.client.get(`/apis/${api.apiId}/webhooks/${endpointId}`)).body.enabled, false);
  await page.getByRole('button', { name: 'Enable', exact: true }).click();
  await page.getByTestId('endpoint-state').getByText('enabled').waitFor();
  assert.equal((await owner.client.get(`/apis/${api.apiId}/webhooks/${endpointId}`)).body.enabled, true);

  // Rotate, confirmed: a new secret once, the old one signing for 24 hours.
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('dialog', { name: `Rotate the secret of ${receiver.url}` }).getByRole('button', { name: 'Rotate secret' }).click();
  await secretShown.waitFor();
  assert.notEqual(await secretShown.textContent(), secret);
  await page.getByText('signs beside the new one until').waitFor();
  await shotAndCheck(f, page, '7-rotated');
  await page.getByRole('button', { name: 'I have copied it' }).click();

  // Replay: a time in the future is refused on its field; a day back sends both events again.
  const replay = page.getByRole('form', { name: 'Replay events' });
  await replay.getByLabel('Send every event since').fill(localInput(new Date(Date.now() + 2 * 3600_000)));
  await replay.getByRole('button', { name: 'Replay' }).click();
  assert.match(await fieldError(replay, 'Send every event since'), /future/);
  await replay.getByLabel('Send every event since').fill(localInput(new Date(Date.now() - 3600_000)));
  await replay.getByRole('button', { name: 'Replay' }).click();
  assert.equal(await page.getByTestId('replayed').textContent(), '2 events are being sent again.');
  await shotAndCheck(f, page, '8-replayed');

  // Delete, confirmed: back to the list, which is empty.
  await page.getByRole('button', { name: 'Delete endpoint' }).click();
  await page.getByRole('dialog', { name: `Delete ${receiver.url}` }).getByRole('button', { name: 'Delete endpoint' }).click();
  await page.getByRole('heading', { name: 'No endpoints yet' }).waitFor();
  assert.deepEqual((await owner.client.get(`/apis/${api.apiId}/webhooks`)).body.webhooks, []);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('webhooks for a viewer: endpoints and deliveries without any control', { skip: skipWithoutChromium }, async () => {
  const api = (await createApi(f.t, { name: 'Watched API', preset: 'payg' }, owner)) as ApiFixture;
  const made = await owner.client.post(`/apis/${api.apiId}/webhooks`, { url: receiver.url, description: 'Audit log' });
  assert.equal(made.status, 200, made.text);
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${api.apiId}/webhooks`);
  await page.getByText('every event type').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Add endpoint' }).count(), 0);
  await shotAndCheck(f, page, '9-viewer-list');
  await page.getByRole('link', { name: receiver.url }).click();
  await page.getByRole('heading', { name: 'No deliveries yet' }).waitFor();
  for (const name of ['Send a test event', 'Disable', 'Rotate secret', 'Delete endpoint', 'Replay']) assert.equal(await page.getByRole('button', { name, exact: true }).count(), 0, name);
  await shotAndCheck(f, page, '10-viewer-endpoint');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
