// The portal's page of a person's own API keys over HTTP (issue 15 item 7): the page's own rules
// on both sides of their bounds (keys off: 404 and no nav entry; CSRF on every form; the 10-minute
// sign-in for create and roll, sent to sign in again and back), and every refusal of the account
// API's rules (spec 7) as a message on the page. The rules themselves have their tests in
// test/end-user-keys; here they are reached through the page.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MINUTE, SECOND } from '../../src/platform/clock.js';
import { catalogueWithoutFreeKeys, patchKeySettings, seedKeys, setPlatformPlan } from '../support/end-user-keys.js';
import { startIssuer, tenantFetch, type IssuerFixture } from '../support/issuer.js';
import { errorIn, type Field, type Page } from '../support/tenant-client.js';
import { portalVisitor } from '../support/portal.js';
import { assertNoSecretIn, startPersonSession } from '../support/signin.js';
import type { MovableClock } from '../support/clock.js';

let f: IssuerFixture;
before(async () => {
  // The free plan lacks keys here (growth keeps them): the API starts on growth.
  f = await startIssuer('Keys Portal API', { PLATFORM_PLANS_FILE: catalogueWithoutFreeKeys() });
  assert.equal((await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' })).status, 200);
  await setPlatformPlan(f, 'growth');
  await patchKeySettings(f, { enabled: true, prefix: 'kp' });
});
after(() => f.t.close());

const clock = () => f.t.clock as MovableClock;

/** A person with the reader role (read:weather) signed in to the portal a moment ago. */
async function keyPerson() {
  const visitor = await portalVisitor(f, { name: 'Kim Keys' });
  const put = await f.owner.client.put(`/apis/${f.apiId}/signin/people/${visitor.person.id}/roles`, { role_ids: [f.roleId] });
  assert.equal(put.status, 200, put.text);
  return visitor;
}
type Visitor = Awaited<ReturnType<typeof keyPerson>>;

/** A new sign-in of the person on the issuer (its session cookie); the portal follows it on its next sign-in. */
async function signInAgain(v: Visitor) {
  const session = await startPersonSession(f.t, f.apiId, v.person.id);
  v.browser.cookies.set('gh_ps', session.token);
}

const csrfOf = (v: Visitor) => v.browser.cookies.get('gh_csrf')!;

/** Posts a form of the page as the browser would send it (repeated fields for checked boxes). */
function post(v: Visitor, path: string, fields: [string, string][], csrf: string | null = csrfOf(v)): Promise<Page> {
  const sent: Field[] = [...(csrf === null ? [] : [['csrf', csrf] as [string, string]]), ...fields].map(([name, value]) => ({ name, value }));
  return v.browser.request('POST', path, sent);
}

const createFields = (extra: [string, string][] = [], name = 'laptop'): [string, string][] => [['name', name], ['resources', f.server.resource], ['permissions', 'read:weather'], ['lifetime', '30'], ...extra];

function secretOf(page: Page): string {
  assert.equal(page.status, 200, errorIn(page.html) ?? page.html.slice(0, 400));
  const secret = /<code id="new-secret">([^<]+)<\/code>/.exec(page.html)?.[1];
  assert.ok(secret, page.html.slice(0, 600));
  return secret;
}

async function keyIds(v: Visitor): Promise<string[]> {
  return [...(await v.browser.get('/api-keys')).html.matchAll(/<tr id="key-(key_[0-9A-Za-z]+)"/g)].map((m) => m[1]!);
}

test('keys off: every keys path is a 404 and the nav has no entry; on: the page and the entry', async () => {
  const v = await keyPerson();
  await patchKeySettings(f, { enabled: false });
  try {
    for (const path of ['/api-keys', '/api-keys/revoke-all', '/api-keys/key_x/roll', '/api-keys/key_x/rename', '/api-keys/key_x/revoke']) {
      assert.equal((await v.browser.request('GET', path)).status, 404, path);
    }
    assert.equal((await post(v, '/api-keys', createFields())).status, 404);
    assert.equal((await post(v, '/api-keys/revoke-all', [])).status, 404);
    // Not signed in: a 404 too, not a sign-in.
    assert.equal((await tenantFetch(new URL('/api-keys', f.issuer), { redirect: 'manual' })).status, 404);
    assert.doesNotMatch((await v.browser.get('/')).html, /href="\/api-keys"/);
  } finally {
    await patchKeySettings(f, { enabled: true });
  }
  const page = await v.browser.get('/api-keys');
  assert.equal(page.status, 200);
  assert.match(page.html, /<h1>Your API keys<\/h1>/);
  assert.match((await v.browser.get('/')).html, /<a href="\/api-keys">Personal keys<\/a>/);
  // The customer's metering keys keep their own page.
  assert.match((await v.browser.get('/keys')).html, /<h1>API keys<\/h1>/);
});

test('create shows the whole secret once, then the list shows only its start; no secret in a URL', async () => {
  const v = await keyPerson();
  const made = await post(v, '/api-keys', createFields());
  const secret = secretOf(made);
  assert.match(secret, /^kp_[0-9A-Za-z]{46}$/);
  assert.equal(new URL(made.url).pathname + new URL(made.url).search, '/api-keys', 'shown in the answer to the post, not at a URL');
  assert.equal(made.headers.get('cache-control'), 'no-store');
  const list = await v.browser.get('/api-keys');
  assert.match(list.html, new RegExp(`<code>${secret.slice(0, 7)}…</code>`));
  assert.match(list.html, /Weather API server/);
  assert.match(list.html, /<code>read:weather<\/code>/);
  assertNoSecretIn([list.html], [secret.slice(7)]);
  // The audit names the portal as where it was made; the mail links to this page.
  const mail = await f.t.mail.waitFor(v.person.email, /A new API key was created/);
  assert.ok(mail.text.includes(`${f.issuer}/api-keys`), mail.text);
  assert.ok(mail.text.includes('in Customer portal'), mail.text);
});

test('CSRF: every form post without its token is refused and changes nothing', async () => {
  const v = await keyPerson();
  secretOf(await post(v, '/api-keys', createFields()));
  const [id] = await keyIds(v);
  for (const [path, fields] of [
    ['/api-keys', createFields()],
    [`/api-keys/${id}/rename`, [['name', 'renamed']]],
    [`/api-keys/${id}/roll`, [['old_secret_lasts_hours', '0']]],
    [`/api-keys/${id}/revoke`, []],
    ['/api-keys/revoke-all', []],
  ] as [string, [string, string][]][]) {
    assert.equal((await post(v, path, fields, null)).status, 403, `${path} without a token`);
    assert.equal((await post(v, path, fields, 'x'.repeat(43))).status, 403, `${path} with a wrong token`);
  }
  const list = await v.browser.get('/api-keys');
  assert.equal((await keyIds(v)).length, 1);
  assert.match(list.html, /<td class="name">laptop/);
});

test('create and roll need a sign-in within 10 minutes: at 9m50s they work, at 10m10s the person signs in again and comes back', async () => {
  const v = await keyPerson();
  clock().advance(10 * MINUTE - 10 * SECOND);
  const secret = secretOf(await post(v, '/api-keys', createFields()));
  const [id] = await keyIds(v);
  secretOf(await post(v, `/api-keys/${id}/roll`, [['old_secret_lasts_hours', '0']]));
  clock().advance(20 * SECOND);
  // The form says so before it is sent.
  assert.match((await v.browser.get('/api-keys')).html, /id="reauth-note"/);
  for (const [path, fields, back] of [
    ['/api-keys', createFields(), '/api-keys?reauthed=1'],
    [`/api-keys/${id}/roll`, [['old_secret_lasts_hours', '0']], `/api-keys/${id}/roll?reauthed=1`],
  ] as [string, [string, string][], string][]) {
    const sent = await post(v, path, fields);
    assert.equal(sent.status, 303, `${path}: ${sent.html.slice(0, 300)}`);
    const to = new URL(sent.headers.get('location')!, f.issuer);
    assert.equal(to.pathname, '/auth/signin');
    assert.equal(to.searchParams.get('next'), back);
    assert.equal(to.searchParams.get('max_age'), '600');
    // The portal's sign-in asks the issuer with max_age: its sign-in page, not an error.
    const signin = await v.browser.get(to.href);
    assert.equal(signin.status, 200);
    assert.match(signin.html, /<h1>Sign in<\/h1>/);
  }
  assert.equal((await keyIds(v)).length, 1, 'nothing was made');
  // Signing in again (a session started now) brings the person back to the page, where it works.
  await signInAgain(v);
  const back = await v.browser.get(`/auth/signin?${new URLSearchParams({ next: '/api-keys?reauthed=1', max_age: '600' })}`);
  assert.equal(new URL(back.url).pathname + new URL(back.url).search, '/api-keys?reauthed=1');
  assert.match(back.html, /You signed in again/);
  assert.doesNotMatch(back.html, /id="reauth-note"/);
  assertNoSecretIn([back.html], [secret.slice(7)]);
  secretOf(await post(v, '/api-keys', createFields()));
});

test('rename, roll with each grace, revoke one and revoke all', async () => {
  const v = await keyPerson();
  const first = secretOf(await post(v, '/api-keys', createFields([], 'first')));
  secretOf(await post(v, '/api-keys', createFields([], 'second')));
  const [second, firstId] = await keyIds(v);
  assert.equal((await post(v, `/api-keys/${firstId}/rename`, [['name', 'x'.repeat(65)]])).status, 422, '65 characters');
  const renamed = await post(v, `/api-keys/${firstId}/rename`, [['name', 'y'.repeat(64)]]);
  assert.equal(renamed.status, 303, '64 characters');
  assert.equal(renamed.headers.get('location'), '/api-keys?done=renamed');
  assert.match((await v.browser.get('/api-keys?done=renamed')).html, new RegExp(`The key is renamed[\\s\\S]*${'y'.repeat(64)}`));
  for (const hours of ['0', '1', '24']) {
    const rolled = await post(v, `/api-keys/${firstId}/roll`, [['old_secret_lasts_hours', hours]]);
    assert.notEqual(secretOf(rolled), first);
    assert.match(rolled.html, hours === '0' ? /The old secret has ended/ : /The old secret keeps working until/);
  }
  const badGrace = await post(v, `/api-keys/${firstId}/roll`, [['old_secret_lasts_hours', '2']]);
  assert.equal(badGrace.status, 422);
  assert.match(errorIn(badGrace.html) ?? '', /0, 1 or 24 hours/);
  assert.match((await v.browser.get(`/api-keys/${firstId}/revoke`)).html, /<h1>Revoke y+\?<\/h1>/);
  const revoked = await post(v, `/api-keys/${firstId}/revoke`, []);
  assert.equal(revoked.headers.get('location'), '/api-keys?done=revoked');
  assert.deepEqual(await keyIds(v), [second], 'a revoked key leaves the list at once');
  // Another person's key is no key of this one.
  const other = await keyPerson();
  assert.match(errorIn((await other.browser.get(`/api-keys/${second}/roll`)).html) ?? '', /No such key/);
  assert.equal((await post(other, `/api-keys/${second}/revoke`, [])).status, 404);
  assert.match((await v.browser.get('/api-keys/revoke-all')).html, /Revoke all 1 of your keys\?/);
  assert.equal((await post(v, '/api-keys/revoke-all', [])).headers.get('location'), '/api-keys?done=revoked-all');
  assert.deepEqual(await keyIds(v), []);
});

test('every refusal of the account API rules shows as a message on the page', async () => {
  const v = await keyPerson();
  const refusal = async (fields: [string, string][], status: number, message: RegExp) => {
    const page = await post(v, '/api-keys', fields);
    assert.equal(page.status, status, page.html.slice(0, 300));
    assert.match(errorIn(page.html) ?? '', message);
    return page;
  };
  // 422 naming the field, on both sides of the name's 64 characters.
  const long = await refusal(createFields([], 'n'.repeat(65)), 422, /Name the key \(1 to 64 characters\)/);
  assert.match(long.html, /value="n{64}"/, 'what was typed comes back, cut to the bound');
  secretOf(await post(v, '/api-keys', createFields([], 'n'.repeat(64))));
  await refusal([['name', 'a'], ['lifetime', '30']], 422, /Choose 1 to 10 servers/);
  await refusal([['name', 'a'], ['resources', 'https://elsewhere.example/'], ['lifetime', '30']], 422, /^Servers: names https:\/\/elsewhere\.example\/, which is not a server/);
  await refusal(createFields([['permissions', 'write:weather']]), 422, /^Permissions: holds write:weather, which you cannot put on a key/);
  await refusal([['name', 'a'], ['resources', f.server.resource], ['lifetime', '366']], 422, /^Lifetime: must be at most 365 days/);
  await refusal([['name', 'a'], ['resources', f.server.resource], ['lifetime', 'never']], 422, /^Lifetime: keys of this service must expire/);
  // 429 after 20 new keys in a day (19 more are fine, the 21st is not); revoking does not give one back.
  await seedKeys(f, v.person.id, 18);
  secretOf(await post(v, '/api-keys', createFields()));
  await refusal(createFields(), 429, /At most 20 new keys a day\. Try again in \d+ hours/);
  // A day later, 409 at 25 active keys (the 25th is fine), with what to do.
  clock().advance(25 * 60 * MINUTE);
  await signInAgain(v);
  assert.equal((await v.browser.get('/api-keys')).status, 200);
  await seedKeys(f, v.person.id, 4);
  secretOf(await post(v, '/api-keys', createFields()));
  await refusal(createFields(), 409, /You have 25 active keys; revoke one first\. Revoke a key you no longer use/);
  assert.equal((await post(v, '/api-keys/revoke-all', [])).status, 303);
  // 403 while keys are not available (a plan without them): the page says so, and hides the form.
  await setPlatformPlan(f, 'free');
  try {
    await refusal(createFields(), 403, /API keys are not available for this service right now/);
    const page = await v.browser.get('/api-keys');
    assert.match(page.html, /id="keys-paused"/);
    assert.doesNotMatch(page.html, /id="create-form"/);
  } finally {
    await setPlatformPlan(f, 'growth');
  }
});
