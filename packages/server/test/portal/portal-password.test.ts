// The portal's password change (issue 26 item 6): the current password is checked as typed in its
// own field. It was read from the new password's field, so a real change was refused and "wrong
// current password, new = old" was accepted and signed the person's other sessions out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hashPassword, verifyPassword } from '../../src/platform/crypto.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectPage } from '../support/pages.js';
import { portalVisitor } from '../support/portal.js';
import { startPersonSession } from '../support/signin.js';
import { headingOf, TenantBrowser } from '../support/tenant-client.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Password API');
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' })).status, 200);
});
after(() => f.t.close());

const OLD = 'the old password 1';
const NEW = 'a brand new password 2';

/** A signed-in person whose password is OLD, with a second session elsewhere. */
async function personWithOldPassword() {
  const visitor = await portalVisitor(f);
  await f.t.services.db.updateTable('people').set({ password_hash: await hashPassword(OLD) }).where('id', '=', visitor.person.id).execute();
  const elsewhere = new TenantBrowser(f.issuer);
  elsewhere.cookies.set('gh_ps', (await startPersonSession(f.t, f.apiId, visitor.person.id)).token);
  expectPage(await elsewhere.get('/account'), /^Your account$/);
  return { ...visitor, elsewhere };
}

const storedHash = async (personId: string) => (await f.t.services.db.selectFrom('people').select('password_hash').where('id', '=', personId).executeTakeFirstOrThrow()).password_hash!;
const changePassword = async (browser: TenantBrowser, current: string, password: string) =>
  browser.submit(expectPage(await browser.get('/account'), /^Your account$/), 'change-password', { current, password });

test('the right current password changes it and ends the other sessions', async () => {
  const { person, browser, elsewhere } = await personWithOldPassword();
  const changed = await changePassword(browser, OLD, NEW);
  assert.equal(changed.status, 200, changed.html.slice(0, 300));
  assert.match(changed.html, /Your password is changed\./);
  assert.ok(await verifyPassword(await storedHash(person.id), NEW), 'the new password is stored');
  assert.doesNotMatch(headingOf((await elsewhere.get('/account')).html), /^Your account$/, 'the other session ended');
});

test('a wrong current password is refused, even when the new one is the old one, and changes nothing', async () => {
  const { person, browser, elsewhere } = await personWithOldPassword();
  const hash = await storedHash(person.id);
  for (const [current, password] of [['not my password', OLD], ['not my password', NEW], [NEW, NEW]]) {
    const refused = await changePassword(browser, current!, password!);
    assert.equal(refused.status, 401, `${current} -> ${password}`);
    assert.match(refused.html, /The current password is wrong\./);
  }
  assert.equal(await storedHash(person.id), hash, 'the password is unchanged');
  expectPage(await elsewhere.get('/account'), /^Your account$/);
});
