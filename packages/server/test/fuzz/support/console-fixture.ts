// One workspace holding one of everything the console manages, so that hostile requests carry
// real ids (and, signed in, get past the 401s and 404s into the service code).
import assert from 'node:assert/strict';
import { signUp, uniqueEmail } from '../../support/flows.js';
import type { TestApp } from '../../support/harness.js';
import { operationsOf, type OpenApiDocument, type Operation } from '../../support/openapi.js';
import { createPerson } from '../../support/signin.js';
import { addMember, createKey, sendInvite } from '../../support/workspaces.js';
import type { ConsoleIds, Credential } from './console-plans.js';

export interface ConsoleFixture {
  ids: ConsoleIds;
  doc: OpenApiDocument;
  /** The owner's cookie session (with X-Requested-With), an admin workspace key, the API's SDK secret. */
  session: Credential;
  key: Credential;
  sdk: Credential;
}

export async function consoleFixture(t: TestApp): Promise<ConsoleFixture> {
  const owner = await signUp(t, { name: 'Fuzz Owner' });
  const ws = owner.workspaceId;
  const target = await addMember(t, owner.client, ws, 'viewer', 'target');
  const invite = await sendInvite(t, owner.client, ws, uniqueEmail('pending'), 'viewer');
  const adminKey = await createKey(t, owner.client, ws, 'admin');
  const spare = await createKey(t, owner.client, ws, 'viewer', 'spare');
  const created = await owner.client.post(`/workspaces/${ws}/apis`, { name: 'Fuzzed API' });
  assert.equal(created.status, 200, created.text);
  const api = created.body.api;
  const ok = async (answer: Promise<{ status: number; text: string; body: any }>) => {
    const got = await answer;
    assert.equal(got.status, 200, got.text);
    return got.body;
  };
  const customer = await ok(owner.client.post(`/apis/${api.id}/customers`, { name: 'Fuzzed customer', email: 'fuzzed@example.com' }));
  const customerKey = await ok(owner.client.post(`/apis/${api.id}/customers/${customer.id}/keys`, { name: 'fuzzed' }));
  const plan = await ok(owner.client.post(`/apis/${api.id}/plans`, { name: 'Fuzzed plan', price_monthly_cents: 900 }));
  const app = await ok(owner.client.post(`/apis/${api.id}/signin/apps`, { name: 'Fuzzed app', kind: 'web', redirect_uris: ['https://app.example.com/cb'] }));
  const server = await ok(owner.client.post(`/apis/${api.id}/signin/servers`, { name: 'Fuzzed server', resource_url: 'https://fuzzed.example.com/', permissions: [{ name: 'read' }] }));
  const role = await ok(owner.client.post(`/apis/${api.id}/signin/roles`, { name: 'Fuzzed role', permissions: [{ server_id: server.id, permission: 'read' }] }));
  const person = await createPerson(t, api.id, { email: 'fuzzed-person@example.com' });
  await ok(owner.client.put(`/apis/${api.id}/signin/people/${person.id}/roles`, { role_ids: [role.id] }));
  const endpoint = await ok(owner.client.post(`/apis/${api.id}/webhooks`, { url: 'https://hooks.example.com/fuzzed' }));
  const delivery = await ok(owner.client.post(`/apis/${api.id}/webhooks/${endpoint.id}/test`));
  // Rows some reads make on first use (sign-in settings; the SDK's first snapshot marks it
  // connected and raises sdk.connected), made before the "nothing changed" baseline.
  await ok(owner.client.get(`/apis/${api.id}/signin`));
  const sdk = t.sdkClient();
  sdk.bearer = created.body.secret;
  assert.equal((await sdk.get('/sdk/v1/snapshot')).status, 200);
  const doc = (await ok(t.client().get('/openapi.json'))) as OpenApiDocument;
  const cookie = [...owner.client.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  return {
    ids: {
      ws, targetUserId: target.userId, inviteId: invite.id, inviteToken: invite.token, spareKeyId: spare.id, apiId: api.id, customerId: customer.id,
      customerKeyId: customerKey.id, planId: plan.id, appId: app.id, serverId: server.id, roleId: role.id, personId: person.id,
      endpointId: endpoint.id, deliveryId: delivery.id,
    },
    doc,
    session: { name: 'owner session', headers: { cookie, 'x-requested-with': 'fuzz' } },
    key: { name: 'admin key', headers: { authorization: `Bearer ${adminKey.key}` } },
    sdk: { name: 'sdk secret', headers: { authorization: `Bearer ${created.body.secret}` } },
  };
}

/** Every operation, deletions last: should one wrongly succeed, the others still had real ids. */
export function operationsInOrder(doc: OpenApiDocument): Operation[] {
  const ops = operationsOf(doc);
  return [...ops.filter((op) => op.method !== 'DELETE'), ...ops.filter((op) => op.method === 'DELETE')];
}
