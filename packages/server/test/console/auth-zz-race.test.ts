import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ticketFor } from '../support/codes.js';
import { PASSWORD, uniqueEmail } from '../support/flows.js';
import { startTestApp, type TestApp } from '../support/harness.js';
let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());
test('race', async () => {
  for (let i = 0; i < 3; i++) {
  const email = uniqueEmail();
  const a = await ticketFor(t, t.client(), 'signup', email);
  const b = await ticketFor(t, t.client(), 'signup', email);
  const answers = await Promise.all([a, b].map(({ ticket }) => t.client().post('/auth/signup/complete', { ticket, name: 'Racer', password: PASSWORD })));
  console.log(answers.map((x) => x.status + ' ' + x.text.slice(0, 100)));
  }
});
