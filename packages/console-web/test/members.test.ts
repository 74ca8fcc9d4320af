// The members page in Chromium: members and their roles, invitations, the last owner refused in
// the API's words, and what an admin, an editor and a viewer are offered on the members, keys and
// settings pages. Set-up goes through the API; the flow under test goes through the pages.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { enableTwoFactor, signUp } from '../../server/test/support/flows.js';
import { addMember, createKey, sendInvite } from '../../server/test/support/workspaces.js';
import { newConsolePage, shotAndCheck, signedInOwner, signInContext, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { assertRequestsOnOpen, buttonCount, eventually, memberPage } from './support/workspace-pages.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

const skip = skipWithoutChromium;
const rowOf = (page: import('playwright-core').Page, text: string) => page.locator('tbody tr').filter({ hasText: text });

test('members: invite and revoke, change a role, remove, and the last owner refused in the API\'s words', { skip }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  const owner = await signedInOwner(f, cp, { name: 'Olga Owner' });
  const ws = owner.workspaceId;
  const eddie = await addMember(f.t, owner.client, ws, 'editor', 'eddie');
  await enableTwoFactor(f.t, eddie.client);

  await assertRequestsOnOpen(page, `/workspaces/${ws}/members`, 'members');
  const own = rowOf(page, owner.email);
  assert.match((await own.textContent()) ?? '', /Olga Owner \(you\).*owner.*off/);
  assert.match((await rowOf(page, eddie.email).textContent()) ?? '', /Member eddie.*editor.*on/);
  await shotAndCheck(f, page, '06-members');

  // Invite by e-mail with a role: the open invitation shows with its expiry, and the mail goes.
  const invitee = `invitee-${Date.now()}@example.com`;
  const inviteForm = page.getByRole('form', { name: 'Invite someone' });
  await inviteForm.getByLabel('E-mail').fill(invitee);
  await inviteForm.getByLabel('Role').selectOption('viewer');
  await inviteForm.getByRole('button', { name: 'Send invitation' }).click();
  await page.getByText(`Invitation sent to ${invitee}`).waitFor();
  await f.t.mail.waitFor(invitee, /^You are invited to a workspace on Gatehouse$/);
  const [invite] = (await owner.client.get(`/workspaces/${ws}/members`)).body.invites;
  assert.equal(invite.email, invitee);
  const inviteRow = rowOf(page, invitee);
  await inviteRow.waitFor();
  assert.match((await inviteRow.textContent()) ?? '', new RegExp(`viewer.*${invite.expires_at.slice(0, 10)}`));
  await shotAndCheck(f, page, '07-members-invited');

  await inviteRow.getByRole('button', { name: `Revoke the invitation of ${invitee}` }).click();
  await page.getByRole('dialog', { name: `Revoke the invitation of ${invitee}?` }).waitFor();
  await shotAndCheck(f, page, '08-revoke-invitation-confirm');
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke invitation' }).click();
  await page.getByText('No open invitations.').waitFor();
  assert.deepEqual((await owner.client.get(`/workspaces/${ws}/members`)).body.invites, []);

  // An owner may grant every role, owner included.
  await page.getByRole('button', { name: 'Change role of Member eddie' }).click();
  const roleDialog = page.getByRole('dialog', { name: 'Change the role of Member eddie' });
  const offered = await roleDialog.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as { value: string }).value));
  assert.deepEqual(offered, ['owner', 'admin', 'editor', 'viewer']);
  assert.equal(await roleDialog.getByRole('radio', { name: /^editor/ }).isChecked(), true, 'the current role is chosen');
  await roleDialog.getByRole('radio', { name: /^admin/ }).check();
  await shotAndCheck(f, page, '09-change-role');
  await roleDialog.getByRole('button', { name: 'Change role' }).click();
  const roles = async () => Object.fromEntries((await owner.client.get(`/workspaces/${ws}/members`)).body.members.map((m: { email: string; role: string }) => [m.email, m.role]));
  // The change is stored (the dialog closes as the request leaves, so the API is asked until it
  // answers), then the table shows it.
  await eventually('the API answers the new role', async () => (await roles())[eddie.email], (role) => role === 'admin');
  await eventually('the table shows the new role', async () => (await rowOf(page, eddie.email).textContent()) ?? '', (text) => /admin/.test(text));

  // The last owner: demoting and leaving are refused, and the dialog says why.
  await page.getByRole('button', { name: 'Change role of Olga Owner' }).click();
  const ownDialog = page.getByRole('dialog', { name: 'Change the role of Olga Owner' });
  await ownDialog.getByRole('radio', { name: /^editor/ }).check();
  await ownDialog.getByRole('button', { name: 'Change role' }).click();
  await ownDialog.getByRole('alert').waitFor();
  assert.match((await ownDialog.getByRole('alert').textContent()) ?? '', /A workspace keeps at least one owner/);
  await ownDialog.getByText('Make another member an owner first').waitFor();
  await shotAndCheck(f, page, '10-last-owner-demotion-refused');
  await ownDialog.getByRole('button', { name: 'Cancel' }).click();
  assert.equal((await roles())[owner.email], 'owner');

  await page.getByRole('button', { name: 'Leave workspace' }).click();
  const leave = page.getByRole('dialog', { name: /^Leave / });
  await leave.getByRole('button', { name: 'Leave workspace' }).click();
  await leave.getByRole('alert').waitFor();
  assert.match((await leave.getByRole('alert').textContent()) ?? '', /A workspace keeps at least one owner/);
  await shotAndCheck(f, page, '11-last-owner-leave-refused');
  await leave.getByRole('button', { name: 'Cancel' }).click();

  // Removing a member, confirmed.
  await rowOf(page, eddie.email).getByRole('button', { name: 'Remove Member eddie' }).click();
  const removeDialog = page.getByRole('dialog', { name: 'Remove Member eddie?' });
  await shotAndCheck(f, page, '12-remove-member-confirm');
  await removeDialog.getByRole('button', { name: 'Remove member' }).click();
  await rowOf(page, eddie.email).waitFor({ state: 'detached' });
  assert.equal((await roles())[eddie.email], undefined);
  assert.equal((await eddie.client.get(`/workspaces/${ws}/members`)).status, 404);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('an admin is offered admin, editor and viewer, nothing on owners, and leaves to make a workspace', { skip }, async () => {
  const owner = await signUp(f.t, { name: 'Oscar Owner' });
  const ws = owner.workspaceId;
  const admin = await addMember(f.t, owner.client, ws, 'admin', 'ada');
  const viewer = await addMember(f.t, owner.client, ws, 'viewer', 'vic');
  const cp = await memberPage(f, admin);
  const { page } = cp;
  await page.goto(`/workspaces/${ws}/members`);
  await rowOf(page, viewer.email).waitFor();
  assert.equal(await rowOf(page, owner.email).getByRole('button').count(), 0, 'no control on the owner');
  await rowOf(page, viewer.email).getByRole('button', { name: 'Change role of Member vic' }).click();
  const dialog = page.getByRole('dialog', { name: 'Change the role of Member vic' });
  const offered = await dialog.getByRole('radio').evaluateAll((radios) => radios.map((r) => (r as { value: string }).value));
  assert.deepEqual(offered, ['admin', 'editor', 'viewer']);
  await dialog.getByRole('radio', { name: /^editor/ }).check();
  await dialog.getByRole('button', { name: 'Change role' }).click();
  await eventually('the viewer is an editor', async () => (await rowOf(page, viewer.email).textContent()) ?? '', (text) => /editor/.test(text));
  await shotAndCheck(f, page, '13-members-as-admin');

  await page.getByRole('button', { name: 'Leave workspace' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Leave workspace' }).click();
  await page.waitForURL('**/workspaces/new');
  assert.equal((await admin.client.get(`/workspaces/${ws}/members`)).status, 404);
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});

test('a viewer and an editor see no member, key or settings control they cannot use; the owner sees them', { skip }, async () => {
  const owner = await signUp(f.t, { name: 'Rita Owner' });
  const ws = owner.workspaceId;
  await createKey(f.t, owner.client, ws, 'editor', 'CI');
  const pending = `pending-${Date.now()}@example.com`;
  await sendInvite(f.t, owner.client, ws, pending, 'viewer');
  const viewer = await addMember(f.t, owner.client, ws, 'viewer', 'val');
  const editor = await addMember(f.t, owner.client, ws, 'editor', 'ed');

  const controls = async (page: import('playwright-core').Page) => {
    await page.goto(`/workspaces/${ws}/members`);
    await rowOf(page, pending).waitFor();
    const members = {
      changeRole: await buttonCount(page, 'Change role'),
      remove: await buttonCount(page, 'Remove'),
      invite: await buttonCount(page, 'Send invitation'),
      revoke: await buttonCount(page, 'Revoke'),
      leave: await buttonCount(page, 'Leave workspace'),
    };
    return { page, members };
  };
  const keysAndSettings = async (page: import('playwright-core').Page) => {
    await page.goto(`/workspaces/${ws}/keys`);
    await rowOf(page, 'CI').waitFor();
    const keys = { create: await buttonCount(page, 'Create key'), remove: await buttonCount(page, 'Delete') };
    await page.goto(`/workspaces/${ws}/settings`);
    await page.getByRole('heading', { name: 'Workspace settings' }).waitFor();
    const settings = { rename: await buttonCount(page, 'Rename workspace'), remove: await buttonCount(page, 'Delete workspace'), nameField: await page.getByLabel('Workspace name').count() };
    return { keys, settings };
  };

  const ownerPage = await newConsolePage(f);
  await signInContext(f, ownerPage, owner.email);
  const seenByOwner = await controls(ownerPage.page);
  assert.deepEqual(seenByOwner.members, { changeRole: 3, remove: 2, invite: 1, revoke: 1, leave: 1 });
  assert.deepEqual(await keysAndSettings(ownerPage.page), { keys: { create: 1, remove: 1 }, settings: { rename: 1, remove: 1, nameField: 1 } });
  await ownerPage.context.close();

  for (const [label, member] of [['viewer', viewer], ['editor', editor]] as const) {
    const cp = await memberPage(f, member);
    const { page, members } = await controls(cp.page);
    // Anyone may leave; nothing else on members is theirs to use.
    assert.deepEqual(members, { changeRole: 0, remove: 0, invite: 0, revoke: 0, leave: 1 }, label);
    assert.equal(await page.getByLabel('E-mail').count(), 0, `${label}: no invitation form`);
    await shotAndCheck(f, page, `18-members-as-${label}`);
    const seen = await keysAndSettings(page);
    assert.deepEqual(seen, { keys: { create: 0, remove: 0 }, settings: { rename: 0, remove: 0, nameField: 0 } }, label);
    await page.getByText('Admins and owners rename the workspace.').waitFor();
    await shotAndCheck(f, page, `19-settings-as-${label}`);
    await page.goto(`/workspaces/${ws}/keys`);
    await rowOf(page, 'CI').waitFor();
    await shotAndCheck(f, page, `20-keys-as-${label}`);
    assert.deepEqual(cp.problems, []);
    await cp.context.close();
  }
});
