// Changing an API's settings: every bound of UpdateAPIInBody on both sides, undeclared
// properties, the logo (https only), who may change what, and new usage policies when a price
// or limit changes (spec 2.1 UpdateAPIInBody, LogoBody; DESIGN 6 and 7).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { SignedUp } from '../support/flows.js';
import type { TestApp } from '../support/harness.js';
import { apiAuditEvents, assertRefusedAt, createCustomer, snapshotCustomer, type ApiFixture, startWithApi } from '../support/money.js';
import { emailOfLength, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let api: ApiFixture;
let editor: Member;
let viewer: Member;
before(async () => {
  ({ t, owner, api, editor, viewer } = await startWithApi('Sia Owner', { name: 'Settings API' }));
});
after(() => t.close());

const patch = (body: Record<string, unknown>, client = owner.client) => client.patch(`/apis/${api.apiId}`, body);
const read = async () => (await owner.client.get(`/apis/${api.apiId}`)).body;

/** An https address of exactly `length` characters. */
const urlOf = (length: number) => {
  const start = 'https://example.com/';
  return start + 'p'.repeat(length - start.length);
};
const statusCodes = (n: number) => Array.from({ length: n }, (_, i) => 100 + i);
const amounts = (n: number) => Array.from({ length: n }, (_, i) => 100 * (i + 1));

// Each field of UpdateAPIInBody with values just inside and just outside its bounds; `first` is set
// before, where another field's value would refuse a bound (offered top-ups below the minimum).
const bounds: { field: string; accepted: unknown[]; refused: unknown[]; first?: Record<string, unknown> }[] = [
  { field: 'accent_color', accepted: ['#a1B2c3', '#000000'], refused: ['#12345', '#1234567', 'red', '#12345g', ''] },
  { field: 'billable_status_codes', accepted: [statusCodes(40), [100, 599], []], refused: [statusCodes(41), [99], [600], [200, 200], [200.5], ['200']] },
  { field: 'min_topup_cents', accepted: [100, 100_000], refused: [99, 100_001, 250.5], first: { topup_amounts_cents: [] } },
  { field: 'price_per_request_micro', accepted: [0, 100_000_000], refused: [-1, 100_000_001] },
  { field: 'rps', accepted: [0, 100_000], refused: [-1, 100_001, '5'] },
  { field: 'monthly_quota', accepted: [0, 9_000_000_000], refused: [-1, null] },
  { field: 'low_balance_micro', accepted: [0, 5_000_000], refused: [-1] },
  { field: 'welcome_credit_micro', accepted: [0, 100_000_000_000], refused: [-1, 100_000_000_001] },
  { field: 'name', accepted: ['N', 'n'.repeat(80)], refused: ['', '   ', 'n'.repeat(81)] },
  { field: 'key_header', accepted: ['A', 'h'.repeat(40), 'Authorization'], refused: ['', 'h'.repeat(41), 'X Key', 'X:Key'] },
  { field: 'api_base_url', accepted: [urlOf(300), ''], refused: [urlOf(301)] },
  { field: 'docs_url', accepted: [urlOf(300), ''], refused: [urlOf(301), 'ftp://example.com/x', 'not a url'] },
  { field: 'privacy_url', accepted: [urlOf(300), ''], refused: [urlOf(301), 'javascript:alert(1)'] },
  { field: 'terms_url', accepted: [urlOf(300), ''], refused: [urlOf(301)] },
  { field: 'website_url', accepted: [urlOf(300), 'http://example.com', ''], refused: [urlOf(301)] },
  { field: 'topup_amounts_cents', accepted: [[100, 100_000], amounts(10), []], refused: [[99], [100_001], amounts(11), [500, 500]], first: { min_topup_cents: 100 } },
  { field: 'secret_prefix', accepted: ['ab', 'abcdefghij', 'k2'], refused: ['a', 'abcdefghijk', '1ab', 'Ab', 'a_b'] },
  { field: 'support_email', accepted: [emailOfLength(254), ''], refused: ['nope', emailOfLength(255)] },
  { field: 'tagline', accepted: ['t'.repeat(200)], refused: ['t'.repeat(201)] },
  { field: 'signup_mode', accepted: ['approval', 'invite', 'open'], refused: ['closed'] },
  { field: 'payg_enabled', accepted: [false, true], refused: ['yes', 1] },
  { field: 'plans_enabled', accepted: [true, false], refused: [null] },
  { field: 'auto_recharge_allowed', accepted: [false, true], refused: ['false'] },
];

for (const { field, accepted, refused, first } of bounds) {
  test(`PATCH ${field}: values at the bounds are kept, values past them refused at body.${field}`, async () => {
    if (first) assert.equal((await patch(first)).status, 200);
    for (const value of accepted) {
      const changed = await patch({ [field]: value });
      assert.equal(changed.status, 200, `${field}=${JSON.stringify(value)}: ${changed.text}`);
      assert.deepEqual(changed.body[field], value);
      assert.deepEqual((await read())[field], value, `${field} read back`);
    }
    const kept = (await read())[field];
    for (const value of refused) {
      assertRefusedAt(await patch({ [field]: value }), `body.${field}`);
      assert.deepEqual((await read())[field], kept, `${field} unchanged after ${JSON.stringify(value)}`);
    }
  });
}

test('an undeclared property is refused and nothing of the body is applied', async () => {
  const before = await read();
  const refused = await patch({ rps: 77, colour: 'blue' });
  assertRefusedAt(refused, 'body.colour');
  assert.equal((await read()).rps, before.rps);
  // Fields of ApiOut that are not settings are undeclared too.
  for (const field of ['slug', 'status', 'workspace_id', 'plan_status']) assertRefusedAt(await patch({ [field]: 'x' }), `body.${field}`);
});

test('several fields change in one PATCH; an empty PATCH changes nothing and writes no event', async () => {
  const changed = await patch({ name: '  Trimmed Name  ', rps: 12, tagline: 'Fast weather', signup_mode: 'approval' });
  assert.equal(changed.status, 200, changed.text);
  assert.equal(changed.body.name, 'Trimmed Name');
  assert.equal(changed.body.rps, 12);
  assert.equal(changed.body.tagline, 'Fast weather');
  const eventsBefore = await apiAuditEvents(owner.client, owner.workspaceId, api.apiId);
  const same = await patch({});
  assert.equal(same.status, 200, same.text);
  assert.equal(same.body.name, 'Trimmed Name');
  const unchanged = await patch({ rps: 12 });
  assert.equal(unchanged.status, 200);
  assert.equal((await apiAuditEvents(owner.client, owner.workspaceId, api.apiId)).length, eventsBefore.length);
});

test('a changed price or limit gives customers a new usage policy at the new terms', async () => {
  await patch({ price_per_request_micro: 1_000, rps: 10, monthly_quota: 0, payg_enabled: true });
  const customer = await createCustomer(t, api, 'Policy Co');
  const first = await snapshotCustomer(api, customer.id);
  assert.equal(first.effective.price_per_request_micro, 1_000);
  // A change that does not touch prices or limits keeps the policy.
  assert.equal((await patch({ tagline: 'No price change' })).status, 200);
  assert.equal((await snapshotCustomer(api, customer.id)).usage_policy_id, first.usage_policy_id);
  assert.equal((await patch({ price_per_request_micro: 2_500 })).status, 200);
  const second = await snapshotCustomer(api, customer.id);
  assert.notEqual(second.usage_policy_id, first.usage_policy_id);
  assert.equal(second.effective.price_per_request_micro, 2_500);
  assert.equal((await patch({ monthly_quota: 700, rps: 3 })).status, 200);
  const third = await snapshotCustomer(api, customer.id);
  assert.notEqual(third.usage_policy_id, second.usage_policy_id);
  assert.equal(third.effective.monthly_quota, 700);
  assert.equal(third.effective.rps, 3);
});

test('the logo must be an https address; http and non-addresses are refused', async () => {
  const set = await patchLogo('https://cdn.example.com/weather.png');
  assert.equal(set.status, 200, set.text);
  assert.equal(set.body.logo_url, 'https://cdn.example.com/weather.png');
  assert.equal((await read()).logo_url, 'https://cdn.example.com/weather.png');
  for (const logo_url of ['http://cdn.example.com/weather.png', 'not a url', '', 'ftp://cdn.example.com/x.png']) {
    assertRefusedAt(await patchLogo(logo_url), 'body.logo_url');
  }
  const long = `https://cdn.example.com/${'l'.repeat(2000 - 'https://cdn.example.com/'.length)}`;
  assert.equal((await patchLogo(long)).status, 200);
  assertRefusedAt(await patchLogo(`${long}l`), 'body.logo_url');
  assertRefusedAt(await owner.client.put(`/apis/${api.apiId}/logo`, { logo_url: 'https://cdn.example.com/a.png', alt: 'x' }), 'body.alt');
  assert.equal((await read()).logo_url, long);
});

function patchLogo(logo_url: string, client = owner.client) {
  return client.put(`/apis/${api.apiId}/logo`, { logo_url });
}

test('editors change settings and the logo; viewers read them but get 403 on changes', async () => {
  const byEditor = await patch({ tagline: 'Edited by an editor' }, editor.client);
  assert.equal(byEditor.status, 200, byEditor.text);
  assert.equal(byEditor.body.role, 'editor');
  assert.equal((await patchLogo('https://cdn.example.com/editor.png', editor.client)).status, 200);
  const seen = await viewer.client.get(`/apis/${api.apiId}`);
  assert.equal(seen.status, 200);
  assert.equal(seen.body.tagline, 'Edited by an editor');
  assert.equal((await patch({ tagline: 'Viewer try' }, viewer.client)).status, 403);
  assert.equal((await patchLogo('https://cdn.example.com/viewer.png', viewer.client)).status, 403);
  assert.equal((await read()).tagline, 'Edited by an editor');
  assert.equal((await read()).logo_url, 'https://cdn.example.com/editor.png');
});

test('each change writes an audit event naming the API, with what changed from and to', async () => {
  const events = await apiAuditEvents(viewer.client, owner.workspaceId, api.apiId);
  assert.ok(events.length > 0);
  for (const event of events) assert.equal(event.api_id, api.apiId);
  const actions = new Set(events.map((e) => e.action));
  for (const action of ['api.create', 'api.update', 'api.logo']) assert.ok(actions.has(action), action);
  const priceChange = events.find((e) => e.action === 'api.update' && JSON.stringify(e.details).includes('"price_per_request_micro"'));
  assert.ok(priceChange, 'the price change is in the log');
  assert.deepEqual((priceChange.details as { changes: Record<string, unknown> }).changes.price_per_request_micro, { from: 1_000, to: 2_500 });
  assert.ok(!JSON.stringify(events).includes(api.secret), 'no SDK secret in the log');
});
