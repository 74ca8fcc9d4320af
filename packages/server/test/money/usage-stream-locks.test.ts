// The API row's lock under a stream of usage reports (issue 26 item 1). Every report's inserts
// reference the API row, so each report transaction holds FOR KEY SHARE on it until it commits;
// with reports back to back from several senders some report always holds it. A writer that took
// the row FOR UPDATE waited behind them, and PostgreSQL let each new report in ahead of it: customer
// creation, portal sign-up, dynamic registration and the test key hung until the stream stopped.
// Here each sender keeps reporting until those four are done (or until its bounded stream runs
// out), and the test asserts the order of events: every operation finished while every sender was
// still streaming.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { register } from '../support/connected-apps.js';
import { patchSettings } from '../support/issuer-flows.js';
import { startIssuer, webRequest, type IssuerFixture } from '../support/issuer.js';
import { expectPage, followLink, freshEmail, mailedCode, PERSON_PASSWORD } from '../support/pages.js';
import { testDatabaseKind } from '../support/harness.js';
import { customerIn, getWireSnapshot, hourOf, sdkRequest } from '../support/money.js';
import { TenantBrowser } from '../support/tenant-client.js';

// PGlite serves one connection: statements take turns and no two transactions are ever open at
// once, so no lock can wait there and the starvation cannot happen; the test says something only
// on PostgreSQL.
const onPglite = testDatabaseKind === 'pglite' ? 'PGlite has one connection, so transactions never overlap and no lock can starve there' : false;

const SENDERS = 8;
/** Reports per sender at most: the stream ends by itself if an operation never finishes. */
const MAX_REPORTS = 150;
const ITEMS_PER_REPORT = 20;

let f: IssuerFixture;
before(async () => {
  if (onPglite) return;
  f = await startIssuer('Busy API', { UNSAFE_OUTBOUND_PRIVATE: 'true', TRUST_PROXY: 'true' });
  await patchSettings(f, { connected_apps: 'on' });
});
after(() => f?.t.close());

interface Payer {
  keyId: string;
  policy: string;
}

async function payers(secret: string, count: number): Promise<Payer[]> {
  const made: { id: string; keyId: string }[] = [];
  for (let i = 0; i < count; i++) {
    const customer = await f.owner.client.post(`/apis/${f.apiId}/customers`, { name: `Streamer ${i}`, email: `streamer-${i}@busy.test` });
    assert.equal(customer.status, 200, customer.text);
    const key = await f.owner.client.post(`/apis/${f.apiId}/customers/${customer.body.id}/keys`, { name: 'prod' });
    assert.equal(key.status, 200, key.text);
    made.push({ id: customer.body.id, keyId: key.body.id });
  }
  const snapshot = await getWireSnapshot(f.t, secret);
  return made.map((m) => ({ keyId: m.keyId, policy: customerIn(snapshot.body, m.id).usage_policy_id }));
}

/** One sender: reports back to back until told to stop or until its stream runs out. */
function sender(secret: string, from: Payer[], stop: { now: boolean }) {
  const state = { reports: 0, ended: false };
  const done = (async () => {
    const period = hourOf(f.t.clock.now());
    while (!stop.now && state.reports < MAX_REPORTS) {
      const items = Array.from({ length: ITEMS_PER_REPORT }, (_, i) => ({
        idempotency_key: randomUUID(), api_key_id: from[i % from.length]!.keyId, usage_policy_id: from[i % from.length]!.policy, status_code: 200, count: 1, period_start: period,
      }));
      const answer = await sdkRequest(f.t, secret, 'POST', '/sdk/v1/usage', { items });
      assert.equal(answer.status, 200, answer.text);
      state.reports++;
    }
    state.ended = true;
  })();
  return { state, done };
}

test('customer creation, portal sign-up, dynamic registration and a test key finish while usage reports stream in from several senders', { skip: onPglite }, async (context) => {
  const secret = (await f.owner.client.get(`/apis/${f.apiId}/secret`)).body.secret as string;
  const from = await payers(secret, 4);

  // The sign-up's first steps (page, mailed code) before the stream: its last step makes the customer.
  const email = freshEmail('busy');
  const browser = new TenantBrowser(f.issuer);
  const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
  const signupPage = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
  f.t.mail.take(email);
  const codePage = expectPage(await browser.submit(signupPage, 'signup-send', { email }), /Check your e-mail/);
  const code = await mailedCode(f, email, /sign-up code/);

  const stop = { now: false };
  const senders = Array.from({ length: SENDERS }, () => sender(secret, from, stop));
  // The stream is under way: every sender has had reports answered.
  while (senders.some((s) => s.state.reports < 3 && !s.state.ended)) await new Promise((resolve) => setTimeout(resolve, 10));

  const streaming = () => senders.every((s) => !s.state.ended);
  const finishedWhileStreaming: Record<string, boolean> = {};
  const operations = {
    'customer creation': async () => {
      const answer = await f.owner.client.post(`/apis/${f.apiId}/customers`, { name: 'New Co', email: 'new@busy.test' });
      assert.equal(answer.status, 200, answer.text);
    },
    'portal sign-up': async () => {
      const page = await browser.submit(codePage, 'signup-complete', { code, name: 'Busy Newcomer', password: PERSON_PASSWORD });
      // Signed up, the person is asked to let the app in: the customer was made on the way.
      expectPage(page, /wants to access your Busy API account/);
    },
    'dynamic registration': async () => {
      const answer = await register(f, { client_name: 'Busy Agent', redirect_uris: ['http://127.0.0.1/callback'] });
      assert.equal(answer.status, 201, answer.text);
    },
    'test key': async () => {
      const answer = await f.owner.client.post(`/apis/${f.apiId}/test-key`);
      assert.equal(answer.status, 200, answer.text);
    },
  };
  try {
    // One at a time: each waiting operation holds one of the pool's five connections, and four
    // waiting at once would leave the reports one connection, and gaps between them.
    for (const [name, run] of Object.entries(operations)) {
      await run();
      finishedWhileStreaming[name] = streaming();
      context.diagnostic(`${name} finished at reports ${senders.map((s) => s.state.reports).join(', ')}`);
    }
  } finally {
    stop.now = true;
    await Promise.all(senders.map((s) => s.done));
  }
  assert.deepEqual(finishedWhileStreaming, Object.fromEntries(Object.keys(operations).map((name) => [name, true])), `reports per sender: ${senders.map((s) => s.state.reports).join(', ')}`);
  // The customer of the sign-up exists.
  const list = await f.owner.client.get(`/apis/${f.apiId}/customers?q=${encodeURIComponent(email)}`);
  assert.equal(list.body.customers.length, 1, list.text);
});
