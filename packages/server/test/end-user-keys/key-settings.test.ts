// End-user key settings in the owner console (DESIGN 8 key-settings, spec 4.4 and 5.8): defaults,
// every bound on both sides, the platform plan's gate, audit events, another workspace's API, and
// the OpenAPI document.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { apiAuditEvents, assertRefusedAt } from '../support/money.js';
import { catalogueWithoutFreeKeys, setPlatformPlan } from '../support/end-user-keys.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { expectStatus } from '../support/signin.js';
import { signUp } from '../support/flows.js';

let f: IssuerFixture;
before(async () => {
  // Free lacks keys in this catalogue; growth has them.
  f = await startIssuer('Key Settings API', { PLATFORM_PLANS_FILE: catalogueWithoutFreeKeys() });
});
after(() => f.t.close());

const path = () => `/apis/${f.apiId}/signin/key-settings`;
const read = async () => expectStatus(await f.owner.client.get(path()), 200);
const patch = (body: unknown) => f.owner.client.patch(path(), body);

test('a new API has keys off, prefix key, a longest lifetime of 365 days, no sensitive permissions', async () => {
  const settings = await read();
  assert.deepEqual(Object.keys(settings).sort(), ['enabled', 'max_lifetime_days', 'plan_includes_keys', 'prefix', 'sensitive_permissions_allowed', 'updated_at']);
  assert.deepEqual({ ...settings, updated_at: undefined }, { enabled: false, prefix: 'key', max_lifetime_days: 365, sensitive_permissions_allowed: false, plan_includes_keys: false, updated_at: undefined });
});

test('keys cannot be turned on while the platform plan lacks them (402); other settings can change', async () => {
  await setPlatformPlan(f, 'free');
  const refused = await patch({ enabled: true });
  assert.equal(refused.status, 402, refused.text);
  assert.equal(refused.headers.get('content-type'), 'application/problem+json; charset=utf-8');
  assert.equal(refused.body.errors[0].location, 'body.enabled');
  assert.equal((await read()).enabled, false, 'nothing changed');
  assert.equal(expectStatus(await patch({ prefix: 'wx' }), 200).prefix, 'wx');
  // Turning them off is always allowed, and the plan that includes them lets them on.
  await setPlatformPlan(f, 'growth');
  const on = expectStatus(await patch({ enabled: true }), 200);
  assert.deepEqual([on.enabled, on.plan_includes_keys], [true, true]);
  await setPlatformPlan(f, 'free');
  const shown = await read();
  assert.deepEqual([shown.enabled, shown.plan_includes_keys], [true, false], 'a lapsed plan leaves the setting, and says keys are not included');
  assert.equal(expectStatus(await patch({ enabled: false }), 200).enabled, false);
  await setPlatformPlan(f, 'growth');
});

const bounds: { field: string; accepted: unknown[]; refused: unknown[] }[] = [
  // 2..10 lowercase letters or digits, starting with a letter (spec 4.4).
  { field: 'prefix', accepted: ['ab', 'a123456789', 'k9', 'weather'], refused: ['a', 'a1234567890', '9ab', 'Ab', 'a_b', 'a-b', '', 'ab ', 'äb', null, 12] },
  // Up to 3650 days, or null for no limit (spec 5.8).
  { field: 'max_lifetime_days', accepted: [1, 3650, null, 365], refused: [0, 3651, -1, 1.5, '365'] },
  { field: 'enabled', accepted: [true, false], refused: ['true', 1, null] },
  { field: 'sensitive_permissions_allowed', accepted: [true, false], refused: ['false', 0, null] },
];

for (const { field, accepted, refused } of bounds) {
  test(`key setting ${field}: bounds accepted, values past them refused at body.${field} and nothing changes`, async () => {
    for (const value of accepted) {
      const changed = expectStatus(await patch({ [field]: value }), 200, `${field}=${JSON.stringify(value)}`);
      assert.deepEqual(changed[field], value);
      assert.deepEqual((await read())[field], value);
    }
    const kept = await read();
    for (const value of refused) {
      assertRefusedAt(await patch({ [field]: value }), `body.${field}`);
      assert.deepEqual(await read(), kept, `${field}=${JSON.stringify(value)} changed nothing`);
    }
  });
}

test('sensitive_permissions_allowed is the same setting in /signin and /signin/key-settings', async () => {
  expectStatus(await patch({ sensitive_permissions_allowed: true }), 200);
  assert.equal(expectStatus(await f.owner.client.get(`/apis/${f.apiId}/signin`), 200).sensitive_permissions_allowed, true);
  expectStatus(await f.owner.client.patch(`/apis/${f.apiId}/signin`, { sensitive_permissions_allowed: false }), 200);
  assert.equal((await read()).sensitive_permissions_allowed, false);
});

test('undeclared fields are refused; an empty or unchanged change writes no audit event', async () => {
  assertRefusedAt(await patch({ plan_includes_keys: true }), 'body.plan_includes_keys');
  assertRefusedAt(await patch({ default_lifetime_days: 30 }), 'body.default_lifetime_days');
  const before = (await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId)).length;
  expectStatus(await patch({}), 200);
  expectStatus(await patch({ prefix: (await read()).prefix }), 200);
  assert.equal((await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId)).length, before);
});

test('a change is audited with what changed from what', async () => {
  const was = await read();
  expectStatus(await patch({ enabled: !was.enabled, prefix: 'gw', max_lifetime_days: 90 }), 200);
  const [event] = await apiAuditEvents(f.owner.client, f.owner.workspaceId, f.apiId);
  assert.equal(event!.action, 'signin.key_settings_update');
  assert.match(event!.summary, /enabled, prefix, max_lifetime_days of the end-user API keys of Key Settings API/);
  assert.deepEqual(event!.details, { changes: { enabled: { from: was.enabled, to: !was.enabled }, prefix: { from: was.prefix, to: 'gw' }, max_lifetime_days: { from: was.max_lifetime_days, to: 90 } } });
});

test('another workspace gets 404 (each role: test/console/security.test.ts)', async () => {
  const stranger = await signUp(f.t);
  assert.equal((await stranger.client.get(path())).status, 404);
  assert.equal((await stranger.client.patch(path(), { enabled: false })).status, 404);
});

test('the OpenAPI document describes both operations with the one schema', async () => {
  const doc = expectStatus(await f.t.client().get('/openapi.json'), 200);
  const item = doc.paths['/api/apis/{api}/signin/key-settings'];
  assert.ok(item?.get && item?.patch, 'both operations are documented');
  const body = item.patch.requestBody.content['application/json'].schema;
  assert.deepEqual(Object.keys(body.properties).sort(), ['enabled', 'max_lifetime_days', 'prefix', 'sensitive_permissions_allowed']);
  assert.equal(body.additionalProperties, false);
  assert.equal(body.properties.prefix.pattern, '^[a-z][a-z0-9]{1,9}$');
  assert.ok(item.patch.responses['402'], 'the plan gate is documented');
  const plans = expectStatus(await f.owner.client.get('/platform/plans'), 200).plans as { code: string; end_user_keys: boolean }[];
  assert.deepEqual(plans.map((p) => [p.code, p.end_user_keys]), [['free', false], ['starter', true], ['growth', true], ['scale', true]]);
});
