// End-user API keys end to end against a running server (`npm start`), as a new owner and one of
// their API's people would try them: `node --import tsx scripts/keys-walkthrough.ts`
// (GATEHOUSE=http://localhost:8080; CHROMIUM=/usr/bin/chromium). The owner signs up through the
// console API, registers an API, turns end-user keys on, registers a server (this script's Express
// app) with credentials and the permission forecast:read, and a role holding it. In Chromium a
// person signs up on the API's portal, is given the role, and creates a key on the portal's
// "Personal keys" page (/api-keys). The Express route, protected by @gatehouse/sdk's verifier,
// answers 200 with the person's id and scope for that key; the person revokes the key on the page,
// and the script polls until the route answers 401, which must come within 30 seconds (the
// verifier caches introspection answers 30 s). Exits 1 on any mismatch.
import express from 'express';
import type { AddressInfo } from 'node:net';
import { createVerifier } from '@gatehouse/sdk';
import { verify } from '@gatehouse/sdk/express';
import { consoleCall, expect, finish, launchChromium, signUpOnPortal, signUpOwner, sleep, step, tag, textOf } from './walkthrough-kit.js';

// The owner's API: an Express app on a free port, its address known before the server is registered.
const app = express();
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const resource = `http://localhost:${(server.address() as AddressInfo).port}`;

const owner = `owner-${tag}@example.com`;
const ws = await signUpOwner(owner);
const { api } = await consoleCall('POST', `/workspaces/${ws}/apis`, { name: `Weather ${tag}` });
const issuer = new URL(api.portal_url).origin;
const settings = await consoleCall('PATCH', `/apis/${api.id}/signin/key-settings`, { enabled: true });
expect('keys are on', settings.enabled, true);
const registered = await consoleCall('POST', `/apis/${api.id}/signin/servers`, {
  name: 'Forecast server', resource_url: resource, permissions: [{ name: 'forecast:read', description: 'Read forecasts' }],
});
const role = await consoleCall('POST', `/apis/${api.id}/signin/roles`, { name: 'reader', permissions: [{ server_id: registered.id, permission: 'forecast:read' }] });
step(`owner ${owner} registered ${api.name}, turned end-user keys on (prefix ${settings.prefix}), registered ${registered.resource_url} as a server (${registered.client_id}) with forecast:read`);

// The SDK's verifier with the server's credentials; the route needs forecast:read.
const verifier = createVerifier({ issuer, resource: registered.resource_url, clientId: registered.client_id, clientSecret: registered.client_secret });
app.get('/whoami', verify(verifier, { scopes: ['forecast:read'] }), (req, res) => res.json((req as unknown as { principal: unknown }).principal));
const whoami = async (key?: string) => {
  const answer = await fetch(`${resource}/whoami`, { headers: key ? { authorization: `Bearer ${key}` } : {} });
  return { status: answer.status, body: (await answer.json().catch(() => null)) as any, challenge: answer.headers.get('www-authenticate') };
};

const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const email = `person-${tag}@example.com`;
  await signUpOnPortal(page, api.portal_url, email, 'Pia Person');
  const { people } = await consoleCall('GET', `/apis/${api.id}/signin/people`);
  const person = (people as { id: string; email: string }[]).find((p) => p.email === email);
  if (!person) throw new Error(`${email} is not among the API's people`);
  await consoleCall('PUT', `/apis/${api.id}/signin/people/${person.id}/roles`, { role_ids: [role.id] });
  step(`${email} signed up on ${api.portal_url} (${person.id}); the owner gave them the role reader`);

  await page.click('nav.portal a[href="/api-keys"]');
  await page.fill('#key-name', 'laptop');
  await page.check('#server-0');
  await page.check('input[name=permissions][value="forecast:read"]');
  await page.click('#create-key');
  const key = await textOf(page, '#new-secret');
  expect('the key has the spec 4.4 shape', /^[a-z][a-z0-9]{1,9}_[0-9A-Za-z]{46}$/.test(key), true);
  step(`created key ${key.slice(0, 12)}… on ${issuer}/api-keys`);

  const none = await whoami();
  expect('no credential', none.status, 401);
  const admitted = await whoami(key);
  // The verifier cached this answer now, for up to 30 s: the revocation shows once it runs out.
  const cachedAt = Date.now();
  expect('GET /whoami with the key', admitted.status, 200);
  expect('the principal is the person', admitted.body?.sub, person.id);
  expect('the principal has the scope', JSON.stringify(admitted.body?.scope), JSON.stringify(['forecast:read']));
  expect('admitted by', admitted.body?.via, 'api_key');
  step(`GET /whoami without a key: ${none.status}; with the key: ${admitted.status} ${JSON.stringify(admitted.body)}`);

  await page.click('nav.portal a[href="/api-keys"]');
  await page.locator('#api-keys a[id^="revoke-key_"]').first().click();
  await page.click('#confirm-revoke');
  const revokedAt = Date.now();
  expect('the page says', await textOf(page, 'p.ok'), 'The key is revoked: servers refuse it within 30 seconds.');
  step('revoked the key on the page');

  let last = await whoami(key);
  while (last.status !== 401 && Date.now() - revokedAt < 40_000) {
    await sleep(250);
    last = await whoami(key);
  }
  const seconds = (Date.now() - revokedAt) / 1000;
  expect('GET /whoami with the revoked key', last.status, 401);
  expect('401 within 30 seconds', seconds <= 30, true);
  step(`GET /whoami with the revoked key: ${last.status} (${last.challenge}) ${seconds.toFixed(1)} s after revoking (${((Date.now() - cachedAt) / 1000).toFixed(1)} s after the verifier cached the key's answer)`);
} finally {
  await browser.close();
  await verifier.close();
  server.close();
}
finish();
console.log('OK');
