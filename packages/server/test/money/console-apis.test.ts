// Registering APIs: presets, name and address bounds, slugs (rules, reserved, taken, generated),
// the slug check, workspace summaries and the platform's plans (spec 2.1 ApiOut, ApiSummary,
// CreateAPIInBody, SlugBody, PlatformPlanOut; DESIGN 6).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { signUp, type SignedUp } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertRefusedAt, createApi, createCustomer, fetchSnapshot } from '../support/money.js';
import { addMember, type Member } from '../support/workspaces.js';

let t: TestApp;
let owner: SignedUp;
let ws: string;
let editor: Member;
let viewer: Member;
before(async () => {
  t = await startTestApp();
  owner = await signUp(t, { name: 'Ari Owner' });
  ws = owner.workspaceId;
  editor = await addMember(t, owner.client, ws, 'editor');
  viewer = await addMember(t, owner.client, ws, 'viewer');
});
after(() => t.close());

// Spec 2.1: the fields every ApiOut carries.
const API_OUT_REQUIRED = [
  'id', 'workspace_id', 'slug', 'name', 'status', 'portal_url', 'tagline', 'accent_color', 'support_email', 'website_url', 'docs_url',
  'terms_url', 'privacy_url', 'signup_mode', 'api_base_url', 'key_header', 'payg_enabled', 'plans_enabled', 'price_per_request_micro',
  'rps', 'monthly_quota', 'welcome_credit_micro', 'billable_status_codes', 'topup_amounts_cents', 'min_topup_cents', 'low_balance_micro',
  'auto_recharge_allowed', 'secret_prefix', 'domain', 'plan', 'plan_status', 'payments', 'role', 'created_at',
];

const create = (body: Record<string, unknown>, client = owner.client) => client.post(`/workspaces/${ws}/apis`, body);

test('each preset starts the API with its own money settings; payg is the default', async () => {
  const expected = {
    payg: { payg_enabled: true, plans_enabled: false, price_per_request_micro: 1_000, rps: 10, monthly_quota: 0, welcome_credit_micro: 1_000_000, billable_status_codes: [200, 201, 202, 204], topup_amounts_cents: [1_000, 2_500, 5_000, 10_000], min_topup_cents: 500, low_balance_micro: 1_000_000, auto_recharge_allowed: true },
    free: { payg_enabled: false, plans_enabled: false, price_per_request_micro: 0, rps: 5, monthly_quota: 10_000, welcome_credit_micro: 0, billable_status_codes: [], topup_amounts_cents: [], min_topup_cents: 500, low_balance_micro: 0, auto_recharge_allowed: false },
    subscriptions: { payg_enabled: false, plans_enabled: true, price_per_request_micro: 0, rps: 20, monthly_quota: 1_000, welcome_credit_micro: 0, billable_status_codes: [200, 201, 202, 204], topup_amounts_cents: [], min_topup_cents: 500, low_balance_micro: 0, auto_recharge_allowed: false },
  };
  for (const [preset, values] of Object.entries(expected)) {
    const created = await create({ name: `Preset ${preset}`, preset });
    assert.equal(created.status, 200, created.text);
    for (const [field, value] of Object.entries(values)) assert.deepEqual(created.body.api[field], value, `${preset}.${field}`);
    // What was answered at creation is what is stored.
    const read = await owner.client.get(`/apis/${created.body.api.id}`);
    for (const [field, value] of Object.entries(values)) assert.deepEqual(read.body[field], value, `${preset}.${field} read back`);
  }
  const byDefault = await create({ name: 'No preset named' });
  assert.equal(byDefault.status, 200, byDefault.text);
  for (const [field, value] of Object.entries(expected.payg)) assert.deepEqual(byDefault.body.api[field], value, `default ${field}`);
  assertRefusedAt(await create({ name: 'Odd preset', preset: 'enterprise' }), 'body.preset');
});

test('a created API answers every ApiOut field and an SDK secret that starts with mas_', async () => {
  const created = await create({ name: 'Field Check', api_base_url: 'https://api.example.com/v1' });
  assert.equal(created.status, 200, created.text);
  assert.deepEqual(Object.keys(created.body).sort(), ['api', 'secret']);
  const { api, secret } = created.body;
  for (const field of API_OUT_REQUIRED) assert.ok(field in api, `ApiOut.${field} is present`);
  assert.match(secret, /^mas_[0-9A-Za-z]{43}$/);
  assert.match(api.id, /^api_/);
  assert.equal(api.workspace_id, ws);
  assert.equal(api.slug, 'field-check');
  assert.equal(api.portal_url, `http://field-check.localhost:${t.port}`);
  assert.equal(api.status, 'active');
  assert.equal(api.role, 'owner');
  assert.equal(api.api_base_url, 'https://api.example.com/v1');
  assert.equal(api.key_header, 'X-API-Key');
  assert.equal(api.signup_mode, 'open');
  assert.match(api.secret_prefix, /^[a-z][a-z0-9]{1,9}$/);
  assert.equal(api.plan.code, 'free');
  assert.equal(api.plan_status, 'active');
  assert.deepEqual(Object.keys(api.domain).sort(), ['allowed', 'cname_target', 'status']);
  assert.deepEqual(Object.keys(api.payments).sort(), ['charges_enabled', 'configured', 'connected', 'livemode']);
  assert.ok(!JSON.stringify(api).includes(secret), 'the API record does not carry the secret');
  assert.ok(!Number.isNaN(Date.parse(api.created_at)));
  // The secret opens the SDK API at once.
  const sdk = t.sdkClient();
  sdk.bearer = secret;
  assert.equal((await sdk.get('/sdk/v1/snapshot')).status, 200);
  // The reader's own role is reported.
  assert.equal((await viewer.client.get(`/apis/${api.id}`)).body.role, 'viewer');
  assert.equal((await editor.client.get(`/apis/${api.id}`)).body.role, 'editor');
});

test('an API name is 1 to 80 characters: empty, blank and 81 are refused', async () => {
  for (const name of ['N', 'n'.repeat(80)]) {
    const accepted = await create({ name });
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(accepted.body.api.name, name);
  }
  for (const name of ['', '   ', 'n'.repeat(81)]) assertRefusedAt(await create({ name }), 'body.name');
  assertRefusedAt(await create({ preset: 'free' }), 'body.name');
  assertRefusedAt(await create({ name: 42 }), 'body.name');
});

test('api_base_url takes up to 300 characters; 301 is refused', async () => {
  const at300 = `https://example.com/${'p'.repeat(300 - 'https://example.com/'.length)}`;
  assert.equal(at300.length, 300);
  const accepted = await create({ name: 'Long base', api_base_url: at300 });
  assert.equal(accepted.status, 200, accepted.text);
  assert.equal(accepted.body.api.api_base_url, at300);
  assertRefusedAt(await create({ name: 'Too long base', api_base_url: `${at300}p` }), 'body.api_base_url');
});

test('an undeclared property in the create body is refused', async () => {
  assertRefusedAt(await create({ name: 'Extra', price: 5 }), 'body.price');
});

test('a chosen slug is 3 to 40 lowercase letters, digits and single hyphens', async () => {
  const accepted = ['abc', 'a-1', `s${'x'.repeat(38)}9`, 'my-api-2'];
  for (const slug of accepted) {
    const created = await create({ name: `Slug ${slug}`, slug });
    assert.equal(created.status, 200, `${slug}: ${created.text}`);
    assert.equal(created.body.api.slug, slug);
    assert.equal(created.body.api.portal_url, `http://${slug}.localhost:${t.port}`);
  }
  assert.equal(accepted[2]!.length, 40);
  const refused = ['ab', `s${'x'.repeat(39)}9`, 'my_api', '-abc', 'abc-', 'ab--cd', 'has space', 'dot.ted', 'ünï'];
  for (const slug of refused) assertRefusedAt(await create({ name: `Bad slug ${slug}`, slug }), 'body.slug');
});

test('reserved slugs are refused with 422; a taken slug answers 409', async () => {
  for (const slug of ['www', 'api', 'console', 'admin', 'auth']) {
    const refused = await create({ name: `Reserved ${slug}`, slug });
    assertRefusedAt(refused, 'body.slug');
    assert.match(refused.body.errors[0].message, /reserved/);
  }
  assert.equal((await create({ name: 'First taker', slug: 'taken-name' })).status, 200);
  const taken = await create({ name: 'Second taker', slug: 'taken-name' });
  assert.equal(taken.status, 409, taken.text);
  assert.equal(taken.body.type, 'urn:gatehouse:problem:slug_taken');
  assert.equal(taken.body.errors[0].location, 'body.slug');
  // Another workspace cannot take it either: slugs are one namespace (they are host names).
  const stranger = await signUp(t, { name: 'Sam Stranger' });
  assert.equal((await stranger.client.post(`/workspaces/${stranger.workspaceId}/apis`, { name: 'Copycat', slug: 'taken-name' })).status, 409);
});

test('an empty slug is made from the name, with -2, -3 when taken', async () => {
  const slugs = [];
  for (let i = 0; i < 3; i++) {
    const created = await create({ name: 'Weather Service', slug: '' });
    assert.equal(created.status, 200, created.text);
    slugs.push(created.body.api.slug);
  }
  assert.deepEqual(slugs, ['weather-service', 'weather-service-2', 'weather-service-3']);
  // Accents dropped, punctuation folded into single hyphens, a reserved or short name made usable.
  const cases: [string, string][] = [['Café  Böse!! API', 'cafe-bose-api'], ['Admin', 'admin-api'], ['X', 'x-api']];
  for (const [name, slug] of cases) assert.equal((await create({ name })).body.api.slug, slug, name);
  // A long name keeps the slug within 40 characters, suffix included.
  const long = 'Very long name '.repeat(5);
  const first = (await create({ name: long })).body.api.slug as string;
  const second = (await create({ name: long })).body.api.slug as string;
  assert.ok(first.length <= 40 && second.length <= 40, `${first} ${second}`);
  assert.ok(second.endsWith('-2'), second);
  assert.ok(!second.includes('--'), second);
});

test('creating APIs with one slug at the same time: one is made, the others answer 409', async () => {
  const answers = await Promise.all([1, 2, 3, 4].map((n) => create({ name: `Racer ${n}`, slug: 'race-slug' })));
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409, 409], answers.map((a) => a.text).join('\n'));
  // Names that make the same slug all get an API, each with its own slug.
  const generated = await Promise.all([1, 2, 3, 4].map(() => create({ name: 'Same Name Race' })));
  assert.deepEqual(generated.map((a) => a.status), [200, 200, 200, 200], generated.map((a) => a.text).join('\n'));
  assert.equal(new Set(generated.map((a) => a.body.api.slug)).size, 4);
});

test('GET /slugs/{slug} tells whether a slug is available and why not', async () => {
  assert.equal((await create({ name: 'Slug Owner', slug: 'owned-slug' })).status, 200);
  const cases: [string, boolean, RegExp | null][] = [
    ['free-slug-here', true, null],
    ['owned-slug', false, /another API/],
    ['admin', false, /reserved/],
    ['www', false, /reserved/],
    ['ab', false, /3 to 40/],
    ['a'.repeat(41), false, /3 to 40/],
    ['bad_slug', false, /3 to 40/],
  ];
  for (const [slug, available, reason] of cases) {
    const answer = await viewer.client.get(`/slugs/${slug}`);
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.body.slug, slug);
    assert.equal(answer.body.available, available, slug);
    if (reason) assert.match(answer.body.reason, reason, slug);
    else assert.equal(answer.body.reason, undefined);
  }
  // The check is for signed-in owners only.
  assert.equal((await t.client().get('/slugs/free-slug-here')).status, 401);
});

test('GET /workspaces/{ws}/apis lists summaries with customer and request counts', async () => {
  const fresh = await signUp(t, { name: 'Summary Owner' });
  const first = await createApi(t, { name: 'Summary One', preset: 'payg' }, fresh);
  const second = await createApi(t, { name: 'Summary Two', preset: 'free' }, fresh);
  await createCustomer(t, first);
  await createCustomer(t, first);
  // The test customer is not a customer of the count.
  assert.equal((await fresh.client.post(`/apis/${first.apiId}/test-key`)).status, 200);
  await fetchSnapshot(first);
  assert.equal((await fresh.client.put(`/apis/${second.apiId}/logo`, { logo_url: 'https://cdn.example.com/logo.png' })).status, 200);

  const listed = await fresh.client.get(`/workspaces/${fresh.workspaceId}/apis`);
  assert.equal(listed.status, 200, listed.text);
  assert.deepEqual(listed.body.apis.map((a: { id: string }) => a.id), [first.apiId, second.apiId]);
  const [one, two] = listed.body.apis;
  for (const summary of [one, two]) {
    for (const field of ['id', 'name', 'slug', 'status', 'portal_url', 'plan_code', 'customers', 'month_requests', 'created_at']) assert.ok(field in summary, field);
    assert.equal(summary.plan_code, 'free');
    assert.equal(summary.month_requests, 0);
  }
  assert.equal(one.customers, 2);
  assert.equal(two.customers, 0);
  assert.ok(one.sdk_last_seen_at, 'the SDK visit shows');
  assert.equal(two.sdk_last_seen_at, undefined);
  assert.equal(two.logo_url, 'https://cdn.example.com/logo.png');
  assert.equal(one.logo_url, undefined);
  assert.equal(one.portal_url, `http://summary-one.localhost:${t.port}`);
  // Only members see a workspace's list.
  assert.equal((await owner.client.get(`/workspaces/${fresh.workspaceId}/apis`)).status, 404);
  assert.equal((await t.client().get(`/workspaces/${fresh.workspaceId}/apis`)).status, 401);
});

test('GET /platform/plans lists free, starter, growth and scale', async () => {
  const answer = await viewer.client.get('/platform/plans');
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body.plans.map((p: { code: string }) => p.code), ['free', 'starter', 'growth', 'scale']);
  for (const plan of answer.body.plans) {
    assert.deepEqual(Object.keys(plan).sort(), ['code', 'connected_apps', 'custom_domain', 'end_user_keys', 'max_customers', 'monthly_requests', 'name', 'price_monthly_cents', 'purchasable', 'remove_branding', 'teams']);
    // Tests run with the development provider, which sells every paid plan (test/payments covers Stripe).
    assert.equal(plan.purchasable, plan.price_monthly_cents > 0);
  }
  assert.equal(answer.body.plans[0].price_monthly_cents, 0);
  assert.equal((await t.client().get('/platform/plans')).status, 401);
});

test('creating an API takes the editor role; a viewer gets 403, another workspace 404', async () => {
  const byEditor = await create({ name: 'Editor Made' }, editor.client);
  assert.equal(byEditor.status, 200, byEditor.text);
  assert.equal(byEditor.body.api.role, 'editor');
  assert.equal((await create({ name: 'Viewer Made' }, viewer.client)).status, 403);
  const stranger = await signUp(t, { name: 'Other Owner' });
  assert.equal((await create({ name: 'Stranger Made' }, stranger.client)).status, 404);
});

test('api_base_url is an http(s) address or empty: a javascript: or ftp: address is refused', async () => {
  assert.equal((await create({ name: 'Empty base', api_base_url: '' })).status, 200);
  assert.equal((await create({ name: 'Plain http base', api_base_url: 'http://localhost:3000' })).status, 200);
  for (const bad of ['javascript:alert(1)', 'ftp://example.com/x', 'example.com']) {
    assertRefusedAt(await create({ name: 'Bad base', api_base_url: bad }), 'body.api_base_url');
  }
});

test('the slug check takes the slug as creation would: trimmed and in lower case', async () => {
  const check = await owner.client.get('/slugs/Mixed-Case-Slug');
  assert.deepEqual(check.body, { slug: 'mixed-case-slug', available: true });
  const created = await create({ name: 'Mixed', slug: 'Mixed-Case-Slug' });
  assert.equal(created.body.api.slug, 'mixed-case-slug');
  assert.deepEqual((await owner.client.get('/slugs/MIXED-case-slug')).body, { slug: 'mixed-case-slug', available: false, reason: 'another API uses this name' });
});
