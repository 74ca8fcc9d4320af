// Writers of an API under a stream of usage reports (issue 26 item 1): customer creation, the
// last step of a portal sign-up, dynamic registration and a test key, each timed alone with no
// other load, then again while senders report usage back to back. Prints the p50 and p99 of each
// and the ratio loaded / unloaded of the same run. The app runs in this process on PostgreSQL
// with the test harness (real HTTP, real SMTP, a pool of 5 connections).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { benchDatabaseUrl, fmt, summarize } from './support.js';

process.env.GH_TEST_DB = 'postgres';
process.env.TEST_DATABASE_URL ??= benchDatabaseUrl;
const { startIssuer, webRequest } = await import('../packages/server/test/support/issuer.js');
const { patchSettings } = await import('../packages/server/test/support/issuer-flows.js');
const { register } = await import('../packages/server/test/support/connected-apps.js');
const { expectPage, followLink, freshEmail, mailedCode, PERSON_PASSWORD } = await import('../packages/server/test/support/pages.js');
const { customerIn, getWireSnapshot, hourOf, sdkRequest } = await import('../packages/server/test/support/money.js');
const { TenantBrowser } = await import('../packages/server/test/support/tenant-client.js');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 8);
const ITEMS = 20;
/** The stream stops by itself after this long, so a writer it starves still finishes. */
const STREAM_MAX_MS = Number(process.env.BENCH_STREAM_MAX_S ?? 120) * 1000;

const f = await startIssuer('Lock Bench API', { UNSAFE_OUTBOUND_PRIVATE: 'true', TRUST_PROXY: 'true', LOG_LEVEL: 'silent' });
try {
  await patchSettings(f, { connected_apps: 'on' });
  const secret = (await f.owner.client.get(`/apis/${f.apiId}/secret`)).body.secret as string;
  const made: { id: string; keyId: string }[] = [];
  for (let i = 0; i < 8; i++) {
    const customer = await f.owner.client.post(`/apis/${f.apiId}/customers`, { name: `Streamer ${i}`, email: `streamer-${i}@bench.test` });
    const key = await f.owner.client.post(`/apis/${f.apiId}/customers/${customer.body.id}/keys`, { name: 'prod' });
    made.push({ id: customer.body.id, keyId: key.body.id });
  }
  const snapshot = await getWireSnapshot(f.t, secret);
  const payers = made.map((m) => ({ keyId: m.keyId, policy: customerIn(snapshot.body, m.id).usage_policy_id as string }));

  /** A sign-up brought to its last step (page, mailed code); the step itself is what is timed. */
  async function signupAtLastStep() {
    const email = freshEmail('bench');
    const browser = new TenantBrowser(f.issuer);
    const signin = expectPage(await browser.authorize(webRequest(f).params), /^Sign in$/);
    const signupPage = expectPage(await followLink(browser, signin, 'to-signup'), /Create your account/);
    f.t.mail.take(email);
    const codePage = expectPage(await browser.submit(signupPage, 'signup-send', { email }), /Check your e-mail/);
    const code = await mailedCode(f, email, /sign-up code/);
    return () => browser.submit(codePage, 'signup-complete', { code, name: 'Bench Person', password: PERSON_PASSWORD });
  }

  let serial = 0;
  const operations: Record<string, { prepare?: () => Promise<() => Promise<{ status: number }>>; run?: () => Promise<{ status: number }>; ok: number }> = {
    'customer creation': { run: () => f.owner.client.post(`/apis/${f.apiId}/customers`, { name: 'Bench Co', email: `co-${serial++}@bench.test` }), ok: 200 },
    'portal sign-up (last step)': { prepare: signupAtLastStep, ok: 200 },
    'dynamic registration': { run: () => register(f, { client_name: 'Bench Agent', redirect_uris: ['http://127.0.0.1/callback'] }), ok: 201 },
    'test key': { run: () => f.owner.client.post(`/apis/${f.apiId}/test-key`), ok: 200 },
  };

  async function measure(): Promise<Map<string, number[]>> {
    const samples = new Map<string, number[]>();
    for (const [name, op] of Object.entries(operations)) {
      const times: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const run = op.prepare ? await op.prepare() : op.run!;
        const t0 = performance.now();
        const answer = await run();
        times.push(performance.now() - t0);
        if (answer.status !== op.ok) throw new Error(`${name} answered ${answer.status}`);
      }
      samples.set(name, times);
    }
    return samples;
  }

  /** Senders reporting back to back until `stop` is called; answers how many reports were made. */
  function stream() {
    let stopped = false;
    let reports = 0;
    const period = hourOf(f.t.clock.now());
    const until = performance.now() + STREAM_MAX_MS;
    const senders = Array.from({ length: SENDERS }, async () => {
      while (!stopped && performance.now() < until) {
        const items = Array.from({ length: ITEMS }, (_, i) => {
          const payer = payers[(reports + i) % payers.length]!;
          return { idempotency_key: randomUUID(), api_key_id: payer.keyId, usage_policy_id: payer.policy, status_code: 200, count: 1, period_start: period };
        });
        const answer = await sdkRequest(f.t, secret, 'POST', '/sdk/v1/usage', { items });
        if (answer.status !== 200) throw new Error(`usage answered ${answer.status}`);
        reports++;
      }
    });
    return async () => {
      const ranOut = performance.now() >= until;
      stopped = true;
      await Promise.all(senders);
      return { reports, ranOut };
    };
  }

  console.log(`writers of one API, ${ROUNDS} rounds each, alone and under ${SENDERS} senders of usage reports of ${ITEMS} items (PostgreSQL, pool of 5)`);
  await measure(); // warm-up
  const alone = await measure();
  const stop = stream();
  const started = performance.now();
  const loaded = await measure();
  const { reports, ranOut } = await stop();
  console.log(`  the stream: ${reports} reports in ${fmt((performance.now() - started) / 1000)} s${ranOut ? `; it ran out (${STREAM_MAX_MS / 1000} s) before the writers finished: they waited for it` : ' while the loaded rounds ran'}`);
  for (const [name, times] of alone) {
    const a = summarize(times);
    const l = summarize(loaded.get(name)!);
    console.log(`  ${name.padEnd(28)} alone p50 ${fmt(a.p50).padStart(7)} ms p99 ${fmt(a.p99).padStart(7)} ms   loaded p50 ${fmt(l.p50).padStart(8)} ms p99 ${fmt(l.p99).padStart(8)} ms   ratio p50 ${fmt(l.p50 / a.p50, 2)}x`);
  }
} finally {
  await f.t.close();
}
