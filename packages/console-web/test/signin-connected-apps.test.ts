// Apps people connect in Chromium: two apps registered over real HTTP at the API's issuer, one
// used by a person (a code exchanged, so it shows one person and its last use), blocked from the
// page (confirmed; the block then refuses it at the issuer) and unblocked, the other deleted
// (confirmed); the empty state; what a viewer sees.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../../server/test/support/flows.js';
import { connectedCode, exchangePublic, probeClient, registerApp } from '../../server/test/support/connected-apps.js';
import type { IssuerFixture } from '../../server/test/support/issuer.js';
import { createPerson, startPersonSession } from '../../server/test/support/signin.js';
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

/** An API with apps people connect on, as the issuer helpers know it. */
async function connectedApi(name: string) {
  const created = await owner.client.post(`/workspaces/${owner.workspaceId}/apis`, { name, preset: 'payg' });
  assert.equal(created.status, 200, created.text);
  const apiId = created.body.api.id as string;
  const on = await owner.client.patch(`/apis/${apiId}/signin`, { connected_apps: 'on' });
  assert.equal(on.status, 200, on.text);
  const issuer = `http://${created.body.api.slug}.localhost:${f.t.port}`;
  // Only what the registration and sign-in helpers read.
  return { t: f.t, apiId, issuer, server: { resource: '' } } as unknown as IssuerFixture;
}

interface Connected {
  client_id: string;
  name: string;
  blocked: boolean;
  people: number;
  last_used_at?: string;
}

test('apps people connect: the list with people and last use, block (confirmed, refused at the issuer), unblock and delete', { skip: skipWithoutChromium }, async () => {
  const fx = await connectedApi('Weather API');
  const apiId = fx.apiId;
  const cp = await newConsolePage(f);
  await shareSession(f, cp, owner.client);
  const { page } = cp;
  const path = `/apis/${apiId}/signin/connected-apps`;
  const requests = await apiRequestsOnOpen(page, path);
  console.log(`requests on open, ${path}: ${requests.length}: ${requests.join(', ')}`);
  assert.deepEqual([...requests].sort(), [`GET /api/apis/${apiId}`, `GET /api/apis/${apiId}/signin/connected-apps`, 'GET /api/me']);
  await page.getByRole('heading', { name: 'No app connected yet' }).waitFor();
  await shotAndCheck(f, page, '1-none');

  const agent = await registerApp(fx, { client_name: 'Forecast Agent' });
  const idle = await registerApp(fx, { client_name: 'Idle Agent' });
  // A person connects the agent: a code exchanged at the token endpoint marks its use.
  const person = await createPerson(f.t, apiId);
  const session = await startPersonSession(f.t, apiId, person.id);
  const got = await connectedCode(fx, `gh_ps=${session.token}`, person.id, agent.client_id, { scope: 'openid', resource: null });
  const tokens = await exchangePublic(fx, agent.client_id, got);
  assert.equal(tokens.status, 200, tokens.text);
  const list = async () => (await owner.client.get(`/apis/${apiId}/signin/connected-apps`)).body.apps as Connected[];
  const usedAt = (await list()).find((a) => a.client_id === agent.client_id)!.last_used_at;
  assert.ok(usedAt, 'the agent was used');

  await page.reload();
  const agentRow = page.getByTestId(`connected-${agent.client_id}`);
  await agentRow.getByRole('cell', { name: /^Forecast Agent \(unverified\)/ }).waitFor();
  await agentRow.getByText(`${usedAt.slice(0, 16).replace('T', ' ')} UTC`).waitFor();
  assert.match((await agentRow.locator('td').nth(2).textContent()) ?? '', /^1$/);
  const idleRow = page.getByTestId(`connected-${idle.client_id}`);
  await idleRow.getByText('never').waitFor();
  await shotAndCheck(f, page, '2-listed');

  // Block, confirmed (Escape first).
  await page.getByRole('button', { name: 'Block Forecast Agent' }).click();
  const dialog = page.getByRole('dialog', { name: 'Block Forecast Agent' });
  await dialog.getByText('the one person').waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await list()).find((a) => a.client_id === agent.client_id)!.blocked, false);
  await page.getByRole('button', { name: 'Block Forecast Agent' }).click();
  await shotAndCheck(f, page, '3-block-dialog');
  await dialog.getByRole('button', { name: 'Block app' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await agentRow.getByText('blocked').waitFor();
  assert.equal((await list()).find((a) => a.client_id === agent.client_id)!.blocked, true);
  assert.equal((await probeClient(fx, agent.client_id)).found, false, 'the issuer no longer knows a blocked app');
  await shotAndCheck(f, page, '4-blocked');

  await page.getByRole('button', { name: 'Unblock Forecast Agent' }).click();
  await agentRow.getByText('allowed').waitFor();
  assert.equal((await list()).find((a) => a.client_id === agent.client_id)!.blocked, false);

  // Delete the idle agent, confirmed: it leaves the list and the issuer.
  await page.getByRole('button', { name: 'Delete Idle Agent' }).click();
  const deleteDialog = page.getByRole('dialog', { name: 'Delete Idle Agent' });
  await deleteDialog.getByText('gone for good').waitFor();
  await shotAndCheck(f, page, '5-delete-dialog');
  await deleteDialog.getByRole('button', { name: 'Delete app' }).click();
  await idleRow.waitFor({ state: 'detached' });
  assert.deepEqual((await list()).map((a) => a.client_id), [agent.client_id]);
  assert.equal((await probeClient(fx, idle.client_id)).found, false, 'the issuer no longer knows a deleted app');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('apps people connect for a viewer: the list, no block or delete', { skip: skipWithoutChromium }, async () => {
  const fx = await connectedApi('Viewed API');
  await registerApp(fx, { client_name: 'Seen Agent' });
  const viewer = await addMember(f.t, owner.client, owner.workspaceId, 'viewer');
  const cp = await newConsolePage(f);
  await shareSession(f, cp, viewer.client);
  const { page } = cp;
  await page.goto(`/apis/${fx.apiId}/signin/connected-apps`);
  await page.locator('tr', { hasText: 'Seen Agent' }).waitFor();
  for (const name of ['Block Seen Agent', 'Delete Seen Agent']) assert.equal(await page.getByRole('button', { name }).count(), 0, name);
  await shotAndCheck(f, page, '6-viewer');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
