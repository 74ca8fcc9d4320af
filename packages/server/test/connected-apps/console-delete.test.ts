// Deleting an app people connect from the owner console: its grants go with it (its tokens answer
// inactive, its refresh token is refused), it leaves the list, a registered app's client ID is
// unknown afterwards; the owner's own apps and unknown ids are 404; viewers may not; audited.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { connectedCode, exchangePublic, probeClient, publicTokenRequest, registerApp, startConnected } from '../support/connected-apps.js';
import { introspect } from '../support/issuer-flows.js';
import { signedInPerson, type IssuerFixture } from '../support/issuer.js';
import { apiAuditEvents } from '../support/money.js';
import { addMember, type Member } from '../support/workspaces.js';

let f: IssuerFixture;
let viewer: Member;
before(async () => {
  f = await startConnected('Deleting API');
  viewer = await addMember(f.t, f.owner.client, f.owner.workspaceId, 'viewer');
});
after(() => f.t.close());

test('delete: the app and its grants go, its tokens answer inactive, its client ID is unknown; audited once', async () => {
  const person = await signedInPerson(f);
  const app = await registerApp(f, { client_name: 'Deletable', grant_types: ['authorization_code', 'refresh_token'] });
  const tokens = await exchangePublic(f, app.client_id, await connectedCode(f, person.cookie, person.person.id, app.client_id, { scope: 'openid offline_access read:weather' }));
  assert.equal(tokens.status, 200, tokens.text);
  assert.equal((await introspect(f, tokens.body.access_token)).body.active, true);
  const path = `/apis/${f.apiId}/signin/connected-apps`;

  assert.equal((await viewer.client.post(`${path}/delete`, { client_id: app.client_id })).status, 403);
  assert.equal((await f.owner.client.post(`${path}/delete`, { client_id: 'app_nosuchapp' })).status, 404);
  assert.equal((await f.owner.client.post(`${path}/delete`, { client_id: f.spa.clientId })).status, 404, "the owner's apps are not connected apps");
  assert.equal((await f.owner.client.get(`/apis/${f.apiId}/signin/apps/${f.spa.clientId}`)).status, 200, 'and stay');

  const deleted = await f.owner.client.post(`${path}/delete`, { client_id: app.client_id });
  assert.equal(deleted.status, 204, deleted.text);
  assert.deepEqual((await introspect(f, tokens.body.access_token)).body, { active: false });
  const refreshed = await publicTokenRequest(f, app.client_id, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token });
  assert.equal(refreshed.status, 401, refreshed.text);
  assert.equal((await probeClient(f, app.client_id)).found, false, 'the client ID is unknown');
  const listed = (await f.owner.client.get(path)).body.apps as { client_id: string }[];
  assert.ok(!listed.some((a) => a.client_id === app.client_id));
  const [event] = await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId);
  assert.equal(event!.action, 'signin_connected_app.delete');
  assert.equal(event!.target_id, app.client_id);
  assert.deepEqual(event!.details, { kind: 'registered', people: 1 });
  assert.match(event!.summary, /Deleted the connected app Deletable \(127\.0\.0\.1\)/);

  assert.equal((await f.owner.client.post(`${path}/delete`, { client_id: app.client_id })).status, 404, 'deleted already');
  assert.equal((await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId))[0]!.id, event!.id);
});

test('delete: the client ID is 1..2000 characters', async () => {
  const path = `/apis/${f.apiId}/signin/connected-apps/delete`;
  for (const client_id of ['', 'x'.repeat(2001)]) assert.equal((await f.owner.client.post(path, { client_id })).status, 422, `length ${client_id.length}`);
  for (const client_id of ['x', 'x'.repeat(2000)]) assert.equal((await f.owner.client.post(path, { client_id })).status, 404, `length ${client_id.length}`);
});
