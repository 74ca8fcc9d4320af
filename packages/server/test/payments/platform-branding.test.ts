// `remove_branding`, a feature of the platform plan (spec 2.1 PlatformPlanOut; portal/layout.ts):
// the portal's footer says "Powered by Gatehouse" unless the API's plan has the feature. Both
// sides, with plans bought from the shipped catalogue through the development provider: free and
// starter keep it, growth takes it away, and it comes back when growth ends at its period's end.
import assert from 'node:assert/strict';
import { after, afterEach, before, test } from 'node:test';
import { MINUTE } from '../../src/platform/clock.js';
import { startIssuer, type IssuerFixture } from '../support/issuer.js';
import { PASSWORD } from '../support/flows.js';
import { assertMoneyInvariants } from '../support/payments.js';
import { portalVisitor } from '../support/portal.js';
import { submitDevTestPage } from '../support/portal-payments.js';

let f: IssuerFixture;
before(async () => {
  f = await startIssuer('Branded API');
  const open = await f.owner.client.patch(`/apis/${f.apiId}`, { signup_mode: 'open' });
  assert.equal(open.status, 200, open.text);
});
afterEach(() => assertMoneyInvariants(f.t));
after(() => f.t.close());

const POWERED = /Powered by Gatehouse/;

/** The portal's first page as a new person sees it now (a new one each time: sessions end as the clock moves). */
async function portalPage(): Promise<string> {
  const { overview } = await portalVisitor(f);
  assert.equal(overview.status, 200, overview.html.slice(0, 300));
  return overview.html;
}
async function planOf() {
  const out = (await f.owner.client.get(`/apis/${f.apiId}`)).body;
  return { code: out.plan.code as string, status: out.plan_status as string, removeBranding: out.plan.remove_branding as boolean, periodEnd: out.plan_period_end as string | null };
}

test('the footer says "Powered by Gatehouse" exactly while the platform plan does not remove branding', async () => {
  assert.deepEqual([(await planOf()).code, (await planOf()).removeBranding], ['free', false]);
  assert.match(await portalPage(), POWERED, 'free keeps the branding');

  const checkout = await f.owner.client.post(`/apis/${f.apiId}/plan/checkout`, { plan_code: 'starter' });
  assert.equal(checkout.status, 200, checkout.text);
  assert.equal((await submitDevTestPage(checkout.body.url, { outcome: 'pay' })).status, 303);
  assert.deepEqual([(await planOf()).code, (await planOf()).removeBranding], ['starter', false]);
  assert.match(await portalPage(), POWERED, 'a paid plan without the feature keeps it');

  // The upgrade moves the one subscription; the next page is already without the line.
  const upgrade = await f.owner.client.post(`/apis/${f.apiId}/plan/checkout`, { plan_code: 'growth' });
  assert.equal(upgrade.status, 200, upgrade.text);
  assert.deepEqual([(await planOf()).code, (await planOf()).removeBranding], ['growth', true]);
  const branded = await portalPage();
  assert.doesNotMatch(branded, POWERED, 'growth removes the branding');
  assert.match(branded, /<footer>/, 'the footer itself is still there');

  // Canceled at the period's end, the plan and its feature hold until then; after it, free again.
  assert.equal((await f.owner.client.post(`/apis/${f.apiId}/plan/cancel`)).status, 204);
  const { periodEnd } = await planOf();
  assert.doesNotMatch(await portalPage(), POWERED, 'held until the end of the period');
  f.t.clock.advance(new Date(periodEnd!).getTime() + MINUTE - f.t.clock.now().getTime());
  await f.t.services.devProvider!.renewDue();
  // The console session of a month ago has ended.
  assert.equal((await f.owner.client.post('/auth/login', { email: f.owner.email, password: PASSWORD })).status, 200);
  assert.deepEqual([(await planOf()).code, (await planOf()).removeBranding], ['free', false]);
  assert.match(await portalPage(), POWERED, 'back on free, the branding is back');
});
