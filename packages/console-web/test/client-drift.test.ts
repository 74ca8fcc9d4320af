// The console and the API cannot drift (DESIGN section 11): the client's types are regenerated from
// the running app's /api/openapi.json and must equal the committed src/api/schema.d.ts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startTestApp, type TestApp } from '../../server/test/support/harness.js';
import { openapiTypes, SCHEMA_FILE } from '../scripts/openapi-types.js';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

test('the console client types are those of the running API (npm run generate-client -w packages/console-web mends a difference)', async () => {
  const answer = await fetch(`${t.url}/api/openapi.json`);
  assert.equal(answer.status, 200);
  const regenerated = await openapiTypes((await answer.json()) as object);
  const committed = readFileSync(SCHEMA_FILE, 'utf8');
  if (regenerated !== committed) {
    const a = committed.split('\n');
    const b = regenerated.split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    assert.fail(`src/api/schema.d.ts differs from the API's document from line ${line + 1}:\n  committed:   ${a[line]}\n  regenerated: ${b[line]}\nRun: npm run generate-client -w packages/console-web`);
  }
});
