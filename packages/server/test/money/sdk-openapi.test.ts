// The SDK sync records in the OpenAPI document (issue 23 item 6; spec 2.5): the `sdk` operations
// name SnapshotBody, SdkCustomer, SdkKey, SdkAllowance, the verify answer, the usage report and its
// acknowledgement, all from src/sdk-sync/wire-schemas.ts. Every record the server serves here is
// validated against the document as served, and records that break the wire protocol fail it, so
// the description is neither vacuous nor wrong. The wire itself is unchanged: its own tests
// (sdk-snapshot, sdk-verify, sdk-usage) check every answer with test/support/wire-validator.ts.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { startTestApp, type TestApp } from '../support/harness.js';
import { createApi, createCustomer, createKey, sha256, usageItem, type ApiFixture } from '../support/money.js';

let t: TestApp;
let api: ApiFixture;
let doc: any;
let validate: (name: string, value: unknown) => string[];
before(async () => {
  t = await startTestApp();
  api = await createApi(t);
  doc = (await t.client().get('/openapi.json')).body;
  const ajv = new Ajv.default({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // The document as one schema, so its `#/components/schemas/…` references resolve as they read.
  ajv.addSchema({ $id: 'openapi', components: doc.components }, 'openapi');
  validate = (name, value) => {
    const check = ajv.getSchema(`openapi#/components/schemas/${name}`);
    assert.ok(check, `the document has ${name}`);
    return check(value) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
  };
});
after(() => t.close());

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

test('the sdk operations are tagged sdk and name their records; every record of spec 2.5 is a component', () => {
  for (const name of ['SnapshotBody', 'SdkCustomer', 'SdkKey', 'SdkBalance', 'SdkAllowance', 'SdkEffective', 'SdkVerifyBody', 'SdkUsageItem', 'SdkUsageReport', 'SdkUsageResult', 'SdkUsageAnswer', 'SdkError']) {
    assert.ok(doc.components.schemas[name], `${name} is described`);
  }
  const snapshot = doc.paths['/sdk/v1/snapshot'].get;
  const verify = doc.paths['/sdk/v1/keys/verify'].get;
  const usage = doc.paths['/sdk/v1/usage'].post;
  for (const op of [snapshot, verify, usage]) {
    assert.deepEqual(op.tags, ['sdk']);
    assert.deepEqual(op.security, [{ sdkSecret: [] }]);
    assert.deepEqual(op.responses['401'].content['application/json'].schema, ref('SdkError'));
  }
  assert.deepEqual(snapshot.responses['200'].content['application/json'].schema, ref('SnapshotBody'));
  assert.deepEqual(verify.responses['200'].content['application/json'].schema, ref('SdkVerifyBody'));
  assert.deepEqual(usage.responses['200'].content['application/json'].schema, ref('SdkUsageAnswer'));
  assert.deepEqual(usage.requestBody.content['application/json'].schema, ref('SdkUsageReport'));
  assert.deepEqual(doc.components.schemas.SdkUsageReport.properties.items.items, ref('SdkUsageItem'));
  assert.deepEqual(doc.components.schemas.SnapshotBody.properties.customers.items, ref('SdkCustomer'));
  assert.deepEqual(doc.components.schemas.SnapshotBody.properties.keys.items, ref('SdkKey'));
});

test('what the SDK routes serve validates against the document: snapshots of both shapes, verify answers, usage acknowledgements', async () => {
  const customer = await createCustomer(t, api);
  const key = await createKey(api, customer.id);
  const wire = await api.sdk.get('/sdk/v1/snapshot');
  const full = await api.sdk.get('/sdk/v1/snapshot?shape=full');
  for (const answer of [wire, full]) {
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(validate('SnapshotBody', answer.body), []);
    assert.equal(answer.body.customers.length, 1);
    assert.equal(answer.body.keys.length, 1);
  }
  assert.ok(full.body.signin, 'the full shape carries what only it has');
  const valid = await api.sdk.get(`/sdk/v1/keys/verify?key_hash=${sha256(key.key)}`);
  assert.equal(valid.body.valid, true);
  assert.deepEqual(validate('SdkVerifyBody', valid.body), []);
  const invalid = await api.sdk.get(`/sdk/v1/keys/verify?key_hash=${'0'.repeat(64)}`);
  assert.deepEqual(invalid.body, { valid: false });
  assert.deepEqual(validate('SdkVerifyBody', invalid.body), []);

  const policy = wire.body.customers[0].usage_policy_id;
  const report = { items: [usageItem(key.id, policy, 200, 3, t.clock.now()), { ...usageItem(key.id, policy, 200, 0, t.clock.now()), extra: 'ignored' }] };
  assert.deepEqual(validate('SdkUsageReport', { items: [report.items[0]] }), [], 'a good report is what the document describes');
  assert.notDeepEqual(validate('SdkUsageItem', report.items[1]), [], 'a count of 0 is outside the item schema');
  const answered = await api.sdk.post('/sdk/v1/usage', report);
  assert.equal(answered.status, 200, answered.text);
  assert.deepEqual(answered.body.results.map((r: { status: string }) => r.status), ['accepted', 'rejected']);
  // The rejection's detail is the item schema's own description of the property.
  assert.equal(answered.body.results[1].detail, `count must be ${doc.components.schemas.SdkUsageItem.properties.count.description}`);
  assert.deepEqual(validate('SdkUsageAnswer', answered.body), []);
  const refused = await t.sdkClient().get('/sdk/v1/snapshot');
  assert.equal(refused.status, 401);
  assert.deepEqual(validate('SdkError', refused.body), []);
});

test('records that break the wire protocol do not validate', async () => {
  const snapshot = (await api.sdk.get('/sdk/v1/snapshot')).body;
  const broken: [string, unknown][] = [
    ['customers null', { ...snapshot, customers: null }],
    ['keys missing', { ...snapshot, keys: undefined }],
    ['a status unknown to SDKs', { ...snapshot, customers: [{ ...snapshot.customers[0], status: 'gone' }] }],
    ['a key hash in upper case', { ...snapshot, keys: [{ ...snapshot.keys[0], key_hash: snapshot.keys[0].key_hash.toUpperCase() }] }],
    ['a count past 2^53 - 1', { ...snapshot, platform_monthly_used: 2 ** 53 }],
    ['a negative count', { ...snapshot, customers: [{ ...snapshot.customers[0], month_requests: -1 }] }],
    ['hard_cap 1', { ...snapshot, platform_hard_cap: 1 }],
  ];
  for (const [what, value] of broken) assert.notDeepEqual(validate('SnapshotBody', JSON.parse(JSON.stringify(value))), [], what);
  assert.notDeepEqual(validate('SdkVerifyBody', { valid: true }), [], 'a valid answer without its key and customer');
  assert.notDeepEqual(validate('SdkUsageAnswer', { results: [{ idempotency_key: randomUUID(), status: 'queued' }] }), []);
  assert.deepEqual(validate('SdkBalance', { id: 'cus_1', credit_balance_micro: -5, balance_seq: 3 }), []);
  assert.notDeepEqual(validate('SdkBalance', { id: 'cus_1', credit_balance_micro: 5 }), [], 'balance_seq is required');
});
