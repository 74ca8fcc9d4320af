// The console's top-up settings (issue 13 item 3): the portal offers `topup_amounts_cents` as
// buttons and a custom amount of at least `min_topup_cents`, so no offered amount may be below
// the minimum. A PATCH that would leave one below is a 422 naming the field it changed, and
// changes nothing.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertRefusedAt, createApi, type ApiFixture } from '../support/money.js';

let t: TestApp;
let api: ApiFixture;
before(async () => {
  t = await startTestApp();
  api = await createApi(t, { name: 'Top-up Settings API', preset: 'payg' });
});
after(() => t.close());

const settings = async () => (await api.owner.client.get(`/apis/${api.apiId}`)).body as { topup_amounts_cents: number[]; min_topup_cents: number };
const patch = (body: Record<string, unknown>) => api.owner.client.patch(`/apis/${api.apiId}`, body);

test('offered amounts at the minimum are accepted, one cent below it refused naming topup_amounts_cents', async () => {
  assert.equal((await patch({ min_topup_cents: 500, topup_amounts_cents: [1000, 2500] })).status, 200);
  const at = await patch({ topup_amounts_cents: [500, 1000] });
  assert.equal(at.status, 200, at.text);
  assert.deepEqual(at.body.topup_amounts_cents, [500, 1000]);
  const below = await patch({ topup_amounts_cents: [499, 1000] });
  assertRefusedAt(below, 'body.topup_amounts_cents');
  assert.match(below.headers.get('content-type') ?? '', /application\/problem\+json/);
  assert.deepEqual((await settings()).topup_amounts_cents, [500, 1000], 'nothing changed');
});

test('raising the minimum above an offered amount is refused naming min_topup_cents; up to the smallest amount it is accepted', async () => {
  assert.equal((await patch({ min_topup_cents: 500, topup_amounts_cents: [1000, 2500] })).status, 200);
  assertRefusedAt(await patch({ min_topup_cents: 1001 }), 'body.min_topup_cents');
  assert.equal((await settings()).min_topup_cents, 500, 'nothing changed');
  const at = await patch({ min_topup_cents: 1000 });
  assert.equal(at.status, 200, at.text);
  assert.equal(at.body.min_topup_cents, 1000);
});

test('both in one request: judged together, the amounts named', async () => {
  assert.equal((await patch({ min_topup_cents: 500, topup_amounts_cents: [1000] })).status, 200);
  // A new minimum with amounts that meet it passes even though the old amounts would not.
  const together = await patch({ min_topup_cents: 2000, topup_amounts_cents: [2000, 5000] });
  assert.equal(together.status, 200, together.text);
  assertRefusedAt(await patch({ min_topup_cents: 3000, topup_amounts_cents: [2999, 5000] }), 'body.topup_amounts_cents');
  const kept = await settings();
  assert.deepEqual({ min: kept.min_topup_cents, amounts: kept.topup_amounts_cents }, { min: 2000, amounts: [2000, 5000] }, 'nothing changed');
});

test('no offered amounts at all: any minimum within its bounds is accepted', async () => {
  const none = await patch({ topup_amounts_cents: [], min_topup_cents: 100_000 });
  assert.equal(none.status, 200, none.text);
  assert.deepEqual({ amounts: none.body.topup_amounts_cents, min: none.body.min_topup_cents }, { amounts: [], min: 100_000 });
});
