// Every event type of issue 24 item 4 has a test that raises it by its real cause
// (event-causes-*.test.ts, each asserting the types it raised), but payment.refunded: refunds come
// with issue 23, which raises it where a refund is written (payments/webhook-events.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EVENT_TYPES } from '../../src/webhooks/event-types.js';
import { CAUSES } from '../support/webhooks.js';

test('the event-causes files together raise every event type but payment.refunded', () => {
  const raised = new Set<string>(Object.values(CAUSES).flat());
  assert.deepEqual(EVENT_TYPES.filter((type) => !raised.has(type)), ['payment.refunded']);
  assert.deepEqual([...raised].filter((type) => !(EVENT_TYPES as readonly string[]).includes(type)), []);
});
