// Two-factor on the account page in Chromium, from set-up (the QR code is the set-up link's, drawn
// as inline SVG) through signing out and in with the authenticator and with a recovery code, new
// recovery codes, to turning it off. Screenshots of every state go to
// test-output/account-two-factor/.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { encode } from 'uqr';
import { PASSWORD, totpNow } from '../../server/test/support/flows.js';
import { newConsolePage, shotAndCheck, signedInOwner, skipWithoutChromium, startConsole, type ConsoleFixture } from './support/console-browser.js';
import { fieldError, meOf } from './support/page-fields.js';

let f: ConsoleFixture;
before(async () => {
  if (!skipWithoutChromium) f = await startConsole(import.meta.url);
});
after(() => f?.close());

const button = (scope: Page | ReturnType<Page['locator']>, name: string) => scope.getByRole('button', { name, exact: true });
const region = (page: Page, name: string) => page.getByRole('region', { name, exact: true });



async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(/\/login$/);
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('E-mail', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await button(page, 'Sign in').click();
}

/** The modules a QR code's path draws (its `M x y h1v1h-1z` squares), as "x,y" strings. */
function drawnModules(path: string): Set<string> {
  return new Set([...path.matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map((m) => `${m[1]},${m[2]}`));
}

test('two-factor: set up from the QR code, recovery codes once, sign in with the app and with a recovery code, new codes, turn off', { skip: skipWithoutChromium }, async () => {
  const cp = await newConsolePage(f);
  const { page } = cp;
  await cp.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: f.t.url });
  const owner = await signedInOwner(f, cp, { name: 'Grace Owner' });
  await page.goto('/account');
  const card = region(page, 'Two-factor sign-in');
  await button(card, 'Set up two-factor').click();

  // The QR code: inline SVG (a rect and a path), the modules of the otpauth URI the link carries.
  const qr = card.getByRole('img', { name: 'QR code for your authenticator app' });
  await qr.waitFor();
  assert.equal(await qr.evaluate((svg) => svg.tagName.toLowerCase()), 'svg');
  assert.equal(await card.locator('img, canvas').count(), 0, 'no image or canvas: nothing for the CSP to allow');
  const uri = (await card.getByRole('link', { name: 'Open the set-up link in your authenticator app' }).getAttribute('href')) ?? '';
  assert.match(uri, /^otpauth:\/\/totp\//);
  const secret = new URL(uri).searchParams.get('secret') ?? '';
  assert.equal((await page.getByTestId('totp-secret').textContent())?.replace(/\s/g, ''), secret, 'the key shown is the one in the link');
  const expected = encode(uri, { ecc: 'M', border: 4 });
  const cells = new Set(expected.data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`${x},${y}`] : []))));
  assert.deepEqual(drawnModules((await qr.locator('path').getAttribute('d')) ?? ''), cells);
  assert.equal(await qr.getAttribute('viewBox'), `0 0 ${expected.size} ${expected.size}`);
  await shotAndCheck(f, page, '05-two-factor-setup');

  await card.getByLabel('Authenticator code', { exact: true }).fill(totpNow(f.t, secret, 5));
  await button(card, 'Turn on two-factor').click();
  assert.match(await fieldError(card, 'Authenticator code'), /Wrong authenticator or recovery code/);
  await shotAndCheck(f, page, '06-two-factor-wrong-code');
  assert.equal((await meOf(f, cp))?.user.two_factor, false);

  await card.getByLabel('Authenticator code', { exact: true }).fill(totpNow(f.t, secret));
  await button(card, 'Turn on two-factor').click();
  const list = card.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.locator('code').allTextContents()).map((code) => code.trim());
  assert.equal(codes.length, 10);
  assert.equal((await meOf(f, cp))?.user.two_factor, true);
  await shotAndCheck(f, page, '07-recovery-codes');

  await button(card, 'Copy codes').click();
  const clipboard = () => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText();
  assert.equal(await page.evaluate(clipboard), codes.join('\n'));
  const link = card.getByRole('link', { name: 'Download as a text file' });
  assert.match((await link.getAttribute('href')) ?? '', /^blob:/);
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  assert.equal(download.suggestedFilename(), 'gatehouse-recovery-codes.txt');
  const file = readFileSync((await download.path())!, 'utf8');
  for (const code of codes) assert.ok(file.includes(`${code}\n`), `the file holds ${code}`);
  assert.ok(file.startsWith(`Gatehouse recovery codes for ${owner.email}`));

  await button(card, 'I have saved my recovery codes').click();
  await card.getByText('Signing in asks for a code').waitFor();
  assert.equal(await list.count(), 0, 'shown once');
  await shotAndCheck(f, page, '08-two-factor-on');
  assert.deepEqual(cp.problems, []);

  // Sign out, sign in with the authenticator (the code that turned it on is spent: the next step's).
  await signOut(page);
  await signIn(page, owner.email);
  f.t.clock.advance(30_000);
  await page.getByLabel('Authenticator code', { exact: true }).fill(totpNow(f.t, secret));
  await button(page, 'Verify and sign in').click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);

  // And with a recovery code.
  await signOut(page);
  await signIn(page, owner.email);
  await button(page, 'Use a recovery code instead').click();
  await page.getByLabel('Recovery code', { exact: true }).fill(codes[0]!);
  await button(page, 'Verify and sign in').click();
  await page.waitForURL(`**/workspaces/${owner.workspaceId}/apis`);

  // New recovery codes: confirmed, shown once; the old ones stop working.
  await page.goto('/account');
  const regenerate = region(page, 'New recovery codes');
  f.t.clock.advance(30_000);
  await regenerate.getByLabel('Authenticator code', { exact: true }).fill(totpNow(f.t, secret));
  await button(regenerate, 'Replace recovery codes').click();
  const confirm = page.getByRole('dialog', { name: 'Replace your recovery codes?' });
  await confirm.waitFor();
  await shotAndCheck(f, page, '09-replace-codes-confirm');
  await button(confirm, 'Replace recovery codes').click();
  await list.waitFor();
  const fresh = (await list.locator('code').allTextContents()).map((code) => code.trim());
  assert.equal(fresh.length, 10);
  assert.ok(!fresh.includes(codes[1]!));
  const login = await f.t.client().post('/auth/login', { email: owner.email, password: PASSWORD });
  assert.equal((await f.t.client().post('/auth/login/2fa', { challenge: login.body.challenge, code: codes[1] })).status, 401, 'an old code no longer signs in');
  await button(card, 'I have saved my recovery codes').click();

  // Turning it off: password and code, confirmed; a wrong password lands on its field.
  const off = region(page, 'Turn off two-factor');
  f.t.clock.advance(30_000);
  await off.getByLabel('Password', { exact: true }).fill('not my password');
  await off.getByLabel('Authenticator code', { exact: true }).fill(totpNow(f.t, secret));
  await button(off, 'Turn off two-factor').click();
  await button(page.getByRole('dialog', { name: 'Turn off two-factor?' }), 'Turn off two-factor').click();
  assert.match(await fieldError(off, 'Password'), /current password is wrong/i);
  await shotAndCheck(f, page, '10-turn-off-wrong-password');
  assert.equal((await meOf(f, cp))?.user.two_factor, true, 'still on');

  await off.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await button(off, 'Turn off two-factor').click();
  await button(page.getByRole('dialog', { name: 'Turn off two-factor?' }), 'Turn off two-factor').click();
  await button(card, 'Set up two-factor').waitFor();
  assert.equal((await meOf(f, cp))?.user.two_factor, false);
  await shotAndCheck(f, page, '11-two-factor-off');
  const plain = await f.t.client().post('/auth/login', { email: owner.email, password: PASSWORD });
  assert.equal(plain.body.two_factor_required, false, 'the password alone signs in again');
  assert.deepEqual(cp.problems, []);
  await cp.context.close();
});
