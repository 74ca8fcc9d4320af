// Fuzz (issue 11 item 9): every endpoint of an API's sign-in service on its tenant host, with
// generated hostile input in the query, the form, the path and Authorization (Basic `%00:%00`
// among them), starting from valid requests with real credentials, tokens and interactions.
// Asserted: never a 5xx; protocol endpoints answer OAuth's {error, error_description} JSON and
// pages answer HTML, never problem+json; error bodies under 64 KB; and no table changed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { issuerEndpoints } from './support/issuer-endpoints.js';
import { issuerFuzzFixture, type IssuerFuzzFixture } from './support/issuer-fixture.js';
import { issuerPlans, registrationPlans } from './support/issuer-plans.js';
import { fuzzBudgetMs, fuzzPasses, fuzzSeed, runPlans, type Plan } from './support/runner.js';
import { FailureLog } from './support/verdicts.js';

let x: IssuerFuzzFixture;

before(async () => {
  x = await issuerFuzzFixture();
});
after(() => x.f.t.close());

async function fuzz(plans: Plan[], passes: number, seconds: number, ctx: { diagnostic(message: string): void }) {
  const seed = fuzzSeed();
  const log = new FailureLog();
  const run = await runPlans(plans, { seed, passes: fuzzPasses(passes), budgetMs: fuzzBudgetMs(seconds), port: x.f.t.port, db: x.f.t.services.db, log });
  ctx.diagnostic(`seed ${seed}; ${plans.length} plans; ${run.passes} passes${run.cappedByTime ? ' (cut short by the time budget)' : ''}; ${run.skipped} heavy plans left for lack of time; ${run.unsure} not surely refused, not sent; ${log.summary()}`);
  assert.ok(log.ok, log.report(seed));
}

const isPage = (where: string) => where.includes('/interaction/');

test('protocol endpoints refuse hostile input in OAuth\'s shape and change nothing', async (ctx) => {
  const plans = issuerEndpoints(x).filter((e) => !isPage(e.where)).flatMap((e) => issuerPlans(e, x.host, x.f.issuer));
  await fuzz([...plans, ...registrationPlans(x.host)], 30, 25, ctx);
});

test('sign-in pages refuse hostile form posts with an HTML page and change nothing', async (ctx) => {
  const plans = issuerEndpoints(x).filter((e) => isPage(e.where)).flatMap((e) => issuerPlans(e, x.host, x.f.issuer));
  await fuzz(plans, 60, 20, ctx);
});
