// The custom domain state machine alone (domains/transitions.ts), each bound on both sides to the
// millisecond; test/domains/checks.test.ts drives the same rules through DNS, the job and the clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DnsVerdict } from '../../src/domains/dns-check.js';
import { ACTIVE_GRACE_MS, ACTIVE_RECHECK_MS, afterCheck, backoffMs, GRACE_RECHECK_MS, MAX_BACKOFF_MS, PENDING_WINDOW_MS } from '../../src/domains/transitions.js';
import { HOUR, MINUTE } from '../../src/platform/clock.js';

const start = new Date('2026-11-01T12:00:00.000Z');
const at = (ms: number) => new Date(start.getTime() + ms);
const ACTIVE: DnsVerdict = { kind: 'active' };
const WRONG: DnsVerdict = { kind: 'wrong', error: 'The TXT record at _gatehouse.x.example is missing.' };
const UNKNOWN: DnsVerdict = { kind: 'unknown', error: 'The TXT lookup of _gatehouse.x.example failed (ESERVFAIL).' };
const CAA: DnsVerdict = { kind: 'verified', error: 'The CAA records of x.example allow certificates only from ca.example.' };
const pending = { status: 'pending' as const, pending_since: start, failing_since: null, attempts: 0 };

test('the numbers: 72 hours pending, daily re-checks of active domains, a grace of 24 hours checked hourly', () => {
  assert.equal(PENDING_WINDOW_MS, 72 * HOUR);
  assert.equal(ACTIVE_RECHECK_MS, 24 * HOUR);
  assert.equal(ACTIVE_GRACE_MS, 24 * HOUR);
  assert.equal(GRACE_RECHECK_MS, HOUR);
});

test('backoff of pending checks: one minute, doubling, never more than an hour apart', () => {
  assert.deepEqual([0, 1, 2, 3, 4, 5].map(backoffMs), [1, 2, 4, 8, 16, 32].map((m) => m * MINUTE));
  assert.equal(backoffMs(6), MAX_BACKOFF_MS, '64 minutes is capped at 60');
  assert.equal(backoffMs(5), 32 * MINUTE, 'just under the cap');
  assert.equal(backoffMs(1000), HOUR);
});

test('pending: records right → active; missing → pending with the error and the next check after the backoff', () => {
  const ok = afterCheck(pending, ACTIVE, at(MINUTE), true);
  assert.deepEqual(ok, { status: 'active', error: null, checked_at: at(MINUTE), attempts: 0, next_check_at: at(MINUTE + ACTIVE_RECHECK_MS), failing_since: null });
  const wrong = afterCheck({ ...pending, attempts: 3 }, WRONG, at(HOUR), true);
  assert.deepEqual(wrong, { status: 'pending', error: WRONG.error, checked_at: at(HOUR), attempts: 4, next_check_at: at(HOUR + 8 * MINUTE), failing_since: null });
  const caa = afterCheck(pending, CAA, at(MINUTE), true);
  assert.equal(caa.status, 'verified', 'proven, but no certificate can be had: verified, not serving');
  assert.equal(caa.error, CAA.error);
  const unknown = afterCheck(pending, UNKNOWN, at(MINUTE), true);
  assert.equal(unknown.status, 'pending');
  assert.equal(unknown.error, UNKNOWN.error);
});

test('pending for 72 hours: failed at the bound, not a millisecond before', () => {
  const before = afterCheck(pending, WRONG, at(PENDING_WINDOW_MS - 1), true);
  assert.equal(before.status, 'pending');
  const atBound = afterCheck(pending, WRONG, at(PENDING_WINDOW_MS), true);
  assert.equal(atBound.status, 'failed');
  assert.equal(atBound.next_check_at, null, 'the job leaves a failed domain alone');
  assert.match(atBound.error!, /^Not proven within 72 hours: The TXT record/);
  assert.equal(afterCheck({ ...pending, status: 'verified' }, CAA, at(PENDING_WINDOW_MS), true).status, 'failed', 'a verified domain that never gets a certificate fails too');
  assert.equal(afterCheck(pending, ACTIVE, at(PENDING_WINDOW_MS + HOUR), true).status, 'active', 'records right at the last check still win');
});

test('active: a failing check starts the grace and keeps serving; failed at 24 hours, not a millisecond before; recovery clears it', () => {
  const active = { status: 'active' as const, pending_since: start, failing_since: null, attempts: 0 };
  const first = afterCheck(active, WRONG, at(0), true);
  assert.deepEqual(first, { status: 'active', error: WRONG.error, checked_at: at(0), attempts: 0, next_check_at: at(GRACE_RECHECK_MS), failing_since: at(0) });
  const inGrace = { ...active, failing_since: at(0) };
  assert.equal(afterCheck(inGrace, WRONG, at(ACTIVE_GRACE_MS - 1), true).status, 'active');
  const ended = afterCheck(inGrace, WRONG, at(ACTIVE_GRACE_MS), true);
  assert.equal(ended.status, 'failed');
  assert.equal(ended.next_check_at, null);
  assert.equal(afterCheck(inGrace, CAA, at(ACTIVE_GRACE_MS), true).status, 'failed', 'CAA that forbids renewal counts as failing');
  const recovered = afterCheck(inGrace, ACTIVE, at(ACTIVE_GRACE_MS - 1), true);
  assert.equal(recovered.failing_since, null);
  assert.equal(recovered.error, null);
});

test('active: a lookup that fails proves nothing: no grace starts, and one under way neither ends nor resets', () => {
  const active = { status: 'active' as const, pending_since: start, failing_since: null, attempts: 0 };
  const unknown = afterCheck(active, UNKNOWN, at(0), true);
  assert.equal(unknown.status, 'active');
  assert.equal(unknown.failing_since, null);
  assert.equal(unknown.next_check_at?.getTime(), at(GRACE_RECHECK_MS).getTime());
  const inGrace = afterCheck({ ...active, failing_since: at(0) }, UNKNOWN, at(ACTIVE_GRACE_MS + HOUR), true);
  assert.equal(inGrace.status, 'active');
  assert.deepEqual(inGrace.failing_since, at(0));
});

test('failed: only a check the owner asks for moves it, and only with proof', () => {
  const failed = { status: 'failed' as const, pending_since: start, failing_since: null, attempts: 9 };
  assert.equal(afterCheck(failed, WRONG, at(100 * HOUR), true).status, 'failed');
  assert.equal(afterCheck(failed, UNKNOWN, at(100 * HOUR), true).status, 'failed');
  assert.equal(afterCheck(failed, CAA, at(100 * HOUR), true).status, 'verified');
  assert.equal(afterCheck(failed, ACTIVE, at(100 * HOUR), true).status, 'active');
});

test('a plan without custom domains fails the domain whatever the DNS says', () => {
  for (const status of ['pending', 'verified', 'active'] as const) {
    const outcome = afterCheck({ ...pending, status }, ACTIVE, at(MINUTE), false);
    assert.equal(outcome.status, 'failed');
    assert.match(outcome.error!, /platform plan/);
  }
});
